"""The table page and its partials rendered from hand-built observations (the contract's shape)."""

import re

import pytest

from games.display.regions import REGIONS, render_region, render_regions, with_csrf_token
from games.display.table_view import build_table
from games.display.view_model import TableFacts
from tests.presentation import observations as O
from tests.presentation.helpers import (
    ACTION_URL,
    SALLE_URL,
    codes_in,
    context,
    field,
    parse_forms,
    render_page,
    render_partial,
    request,
)

P = O.PLAYERS


def other_codes(viewer):
    return {c for s, cards in O.HANDS.items() if s != viewer for c in cards}


def types_offered(html):
    return sorted({f["type"] for f in parse_forms(html)})


# ------------------------------------------------------------ seats and view model


def test_seats_are_placed_relative_to_the_viewer():
    for viewer in range(4):
        vm = build_table(TableFacts(O.base(viewer), P, viewer))
        pos = vm["by_position"]
        assert pos["bottom"]["seat"] == viewer
        assert pos["right"]["seat"] == (viewer + 1) % 4  # next to speak, counter-clockwise
        assert pos["top"]["seat"] == (viewer + 2) % 4  # partner opposite
        assert pos["left"]["seat"] == (viewer + 3) % 4
        assert pos["top"]["relation"] == "Partenaire"


def test_scoreboard_is_nous_then_eux_from_the_viewer_side():
    obs = O.base(1)
    vm = build_table(TableFacts(obs, P, 1))
    assert [(t["label"], t["score"]) for t in vm["scoreboard"]] == [("Nous", 11), ("Eux", 6)]
    assert vm["scoreboard"][0]["names"] == "Bixente et Dani"
    html = render_partial("scoreboard", obs, P, 1)
    assert re.search(r"Nous.*<strong>11</strong> / 40.*Eux.*<strong>6</strong> / 40", html, re.S)


def test_team_names_can_replace_nous_eux():
    vm = build_table(TableFacts(O.base(0), P, 0, team_names=["Les Rouges", "Les Bleus"]))
    assert [t["label"] for t in vm["scoreboard"]] == ["Les Rouges", "Les Bleus"]


def test_mano_and_turn_markers():
    html = render_partial("table-seats", O.base(2), P, 2)
    ane = html.split("<strong>Ane</strong>")[1].split("</p>")[0]
    assert "Main" in ane and "À son tour" in ane
    assert "En attente de Ane…" in html
    dani = html.split("<strong>Dani</strong>")[1].split("</p>")[0]
    assert "Main" not in dani


def test_first_speaker_before_anyone_cut_in_hand_one():
    obs = O.base(0, mano=None, first_speaker=3)
    vm = build_table(TableFacts(obs, P, 0))
    assert [s["seat"] for s in vm["seats"] if s["is_first_speaker"]] == [3]
    assert not any(s["is_mano"] for s in vm["seats"])


def test_presence_countdown_slot():
    html = render_partial("table-seats", O.base(0), P, 0, presence={3: 42})
    assert "data-presence-slot" in html
    assert "Dani a perdu la connexion — place gardée" in html
    assert 'data-seconds="42">0:42<' in html


# ------------------------------------------------------------ decision panel


def test_mus_panel_offers_exactly_mus_and_cut_with_version():
    html = render_partial("decision-panel", O.base(0), P, 0)
    forms = parse_forms(html)
    assert [(f["type"], f["labels"]) for f in forms] == [("mus", ["Mus"]), ("cut", ["Je coupe"])]
    for f in forms:
        assert f["attrs"]["hx-post"] == ACTION_URL
        assert f["attrs"]["action"] == ACTION_URL and f["attrs"]["method"] == "post"
        assert [i["value"] for i in field(f, "version")] == ["7"]
        assert field(f, "csrfmiddlewaretoken")


def test_not_my_turn_shows_whom_we_wait_for_and_no_form():
    html = render_partial("decision-panel", O.base(3), P, 3)
    assert parse_forms(html) == []
    assert "En attente de Ane…" in html


def test_discard_panel_and_cards_as_checkboxes():
    obs = O.discard(0)
    page = render_page(obs, P, 0)
    forms = [f for f in parse_forms(page) if f["type"] == "discard"]
    assert len(forms) == 1
    form = forms[0]
    assert form["labels"] == ["Écarter"]
    assert form["attrs"]["id"] == "discard-form"
    boxes = field(form, "cards")
    assert sorted(b["value"] for b in boxes) == sorted(O.HANDS[0])
    assert all(b["type"] == "checkbox" for b in boxes)
    assert "Cochez de 1 à 4 cartes" in page
    panel = render_partial("decision-panel", obs, P, 0)
    assert "Bixente : a choisi ✓" in panel and "Camille : choisit…" in panel


def test_discard_already_chosen_waits_for_the_others():
    obs = O.discard(1)
    html = render_partial("decision-panel", obs, P, 1)
    assert parse_forms(html) == []
    assert "En attente de Ane, Camille et Dani…" in html
    assert 'name="cards"' not in render_partial("my-hand", obs, P, 1)


def test_opening_panel_pass_bet_ordago_with_bounds_and_quick_bets():
    html = render_partial("decision-panel", O.opening(1), P, 1)
    forms = parse_forms(html)
    assert types_offered(html) == ["bet", "ordago", "pass"]
    labels = [label for f in forms for label in f["labels"]]
    assert labels == ["Je passe", "Mise 2", "Mise 5", "Mise 10", "Mise", "Órdago"]
    custom = [f for f in forms if f["type"] == "bet" and field(f, "amount")[0]["type"] == "number"]
    (amount,) = field(custom[0], "amount")
    assert (amount["min"], amount["max"]) == ("2", "40")
    quick = [field(f, "amount")[0]["value"] for f in forms if f["labels"][0].startswith("Mise ")]
    assert quick == ["2", "5", "10"]


def test_quick_bets_follow_the_engine_bounds():
    html = render_partial("decision-panel", O.opening(1, bet_min=6), P, 1)
    labels = [label for f in parse_forms(html) for label in f["labels"]]
    assert "Mise 2" not in labels and "Mise 5" not in labels and "Mise 10" in labels


def test_answer_panel_hold_refuse_raise_ordago():
    html = render_partial("decision-panel", O.betting_open(2), P, 2)
    forms = parse_forms(html)
    assert [f["labels"] for f in forms] == [
        ["Je tiens"],
        ["Je ne tiens pas"],
        ["Relancer"],
        ["Órdago"],
    ]
    (to,) = field(forms[2], "to")
    assert (to["min"], to["max"], to["type"]) == ("6", "40", "number")
    assert "On vous mise 5 points au Grand." in html


def test_panel_never_offers_what_the_engine_did_not_list():
    obs = O.betting_open(0)
    obs["legal"] = [{"type": "refuse"}, {"type": "hold"}]  # e.g. stake is an órdago
    html = render_partial("decision-panel", obs, P, 0)
    assert types_offered(html) == ["hold", "refuse"]
    assert "Relancer" not in html and "Órdago" not in html


def test_envite_in_words_and_votes():
    obs = O.betting_open(2)
    obs["betting"]["votes"] = {"0": {"type": "refuse"}}
    obs["betting"]["held"] = 2
    html = render_partial("lance-status", obs, P, 2)
    assert "Grand" in html
    assert "Mise en jeu : 5 points (Eux)." in html
    assert "Déjà tenu : 2 points." in html
    assert "Réponse attendue de votre équipe." in html
    assert "Ane : Je ne tiens pas" in html


def test_declarations_shown():
    obs = O.opening(0)
    obs["declarations"]["paires"] = [True, False, True, False]
    html = render_partial("lance-status", obs, P, 0)
    assert re.search(r"Paires :.*Ane oui.*Bixente non.*Camille oui.*Dani non", html, re.S)


# ------------------------------------------------------------ my hand, hidden cards


def test_my_four_cards_with_labels_and_backs_for_the_others():
    html = render_page(dict(O.betting_open(0), kings=4), P, 0)
    for label in ("Roi de deniers", "Trois de coupes", "Sept d&#x27;épées", "As de bâtons"):
        assert f'aria-label="{label}"' in html
    assert html.count("card card--back") == 12
    assert codes_in(html) == set(O.HANDS[0])
    assert "compte comme" not in html and "<small>= " not in html


def card_faces(html: str) -> dict[str, tuple[str, str]]:
    """{card code: (screen-reader name, the 8-rois note written over it)} of the faces in `html`."""
    found = re.findall(
        r'data-card="(\w+)" role="img" aria-label="([^"]+)"><img [^>]*>'
        r'(?:<span class="card__counts-as" aria-hidden="true">([^<]*)</span>)?',
        html,
    )
    return {code: (name.replace("&#x27;", "'"), small) for code, name, small in found}


def test_with_eight_kings_threes_and_twos_say_what_they_count_as():
    # seat 0 holds 12o 3c 7e 1b, seat 2 holds 12c 2o 5e 6b (tests.presentation.observations)
    faces = card_faces(render_partial("my-hand", O.base(0, kings=8), P, 0))
    assert faces["3c"] == ("Trois de coupes (compte comme un roi)", "= roi")
    assert faces["12o"] == ("Roi de deniers", "") and faces["7e"] == ("Sept d'épées", "")
    assert faces["1b"] == ("As de bâtons", "")
    faces = card_faces(render_partial("my-hand", O.discard(2), P, 2))  # the checkbox faces too
    assert faces["2o"] == ("Deux de deniers (compte comme un as)", "= as")
    shown = card_faces(render_partial("score-screen", O.hand_over(1), P, 1))
    assert shown["3c"][1] == "= roi" and shown["2o"][1] == "= as"
    with_four = card_faces(render_partial("score-screen", dict(O.hand_over(1), kings=4), P, 1))
    assert with_four["3c"] == ("Trois de coupes", "") and with_four["2o"][1] == ""


@pytest.mark.parametrize("viewer", range(4))
@pytest.mark.parametrize("make", [O.base, O.discard, O.betting_open, O.opening])
def test_no_other_seat_card_code_before_the_showdown(make, viewer):
    obs = make(viewer)
    html = render_page(obs, P, viewer)
    html += render_regions(context(obs, P, viewer), request=request())
    assert not codes_in(html) & other_codes(viewer)
    assert codes_in(html) <= set(O.HANDS[viewer])


def test_scan_can_fail():
    obs = O.base(0)
    obs["my_cards"] = O.HANDS[1]  # a leak of seat 1's cards must be seen
    assert codes_in(render_page(obs, P, 0)) & other_codes(0)


# ------------------------------------------------------------ log


def test_hand_log_in_french():
    html = render_partial("hand-log", O.betting_open(0), P, 0)
    for line in (
        "Ane : Mus",
        "Dani : Mus",
        "Bixente écarte 3 cartes",
        "Camille écarte 1 carte",
        "Ane : Je coupe",
        "Dani : Mise 5",
    ):
        assert f"<li>{line}</li>" in html
    assert html.index("Mus</h3>") < html.index("Grand</h3>")


def test_log_gives_lance_results():
    html = render_partial("hand-log", O.opening(3), P, 3)
    assert "Grand : refusée, pour Nous, deje 1 point." in html
    assert "<li>Camille : Je ne tiens pas</li>" in html


# ------------------------------------------------------------ regions and oob


def test_every_region_has_its_stable_id_and_oob_flag():
    obs = O.hand_over(0)
    for name in REGIONS:
        plain = render_partial(name, obs, P, 0)
        pushed = render_partial(name, obs, P, 0, oob=True)
        assert f'id="{name}"' in plain
        assert 'hx-swap-oob="true"' not in plain
        root = re.search(r"<\w+ [^>]*>", pushed).group(0)
        assert f'id="{name}"' in root and 'hx-swap-oob="true"' in root
    every = render_regions(context(obs, P, 0), request=request())
    assert every.count('hx-swap-oob="true"') == len(REGIONS)


def test_one_body_holds_each_region_once_in_order_as_its_own_template_does(monkeypatch):
    """The push / POST body says exactly what the nine region templates say, one after the
    other, and the page shows the same regions (one source: without hx-swap-oob)."""
    monkeypatch.setattr("django.template.context_processors.get_token", lambda request: "tok")
    for make in (O.base, O.discard, O.betting_open, O.hand_over, O.finished):
        ctx = context(make(1), P, 1, flash="La table a changé.")
        every = render_regions(ctx)
        ids = re.findall(r'<\w+ id="([\w-]+)"[^>]* hx-swap-oob="true"', every)
        assert ids == list(REGIONS)
        one_by_one = [render_region(name, dict(ctx, oob=True)) for name in REGIONS]
        assert every == "\n".join(one_by_one)
        page = render_page(make(1), P, 1, flash="La table a changé.")
        for name in REGIONS:
            assert render_region(name, with_csrf_token(dict(ctx), request())) in page


def test_page_holds_every_region_and_the_ws_connection():
    html = render_page(O.base(0), P, 0, ws_url="/ws/parties/7/")
    for name in REGIONS:
        assert f'id="{name}"' in html
    assert 'hx-ext="ws"' in html and 'ws-connect="/ws/parties/7/"' in html
    assert "css/cards.css" in html and "css/table.css" in html


def test_flash_is_an_alert():
    html = render_partial("flash", O.base(0), P, 0, flash="La table a changé.")
    assert 'role="alert"' in html and "La table a changé." in html


def test_score_screen_hidden_while_playing():
    html = render_partial("score-screen", O.base(0), P, 0)
    assert " hidden" in html.split(">")[0]
    assert "Distribuer" not in html


# ------------------------------------------------------------ score screen, partie over


def test_score_screen_shows_all_hands_lances_and_totals():
    html = render_partial("score-screen", O.hand_over(1), P, 1, host_seat=0)
    assert codes_in(html) == {c for cards in O.HANDS.values() for c in cards}
    rows = re.findall(r"<tr class=\"score-lances__row[^\"]*\">(.*?)</tr>", html, re.S)
    cells = [re.sub(r"\s*(<[^>]+>\s*)+", "|", r).strip("|") for r in rows]
    # lance · outcome | winner | why | stake | deje | bonus | points
    assert cells[0].startswith("Grand|· tenue|Eux (Ane)|")
    assert cells[0].endswith("|10 points|—|—|10")
    assert cells[1].startswith("Petit|· refusée|Nous|Mise refusée par Eux.|2 refusée|")
    assert cells[1].endswith("|+1 (marqué au refus)|—|0")
    assert cells[2].startswith("Paires|· en paso|Eux (Camille)|") and cells[2].endswith("|4")
    assert cells[3].startswith("Jeu|· sans mise|Nous (Bixente)|") and cells[3].endswith("|5")
    assert "Total : " in html and "Nous 17" in html and "Eux 20" in html


def test_only_the_host_has_the_deal_button():
    host = render_partial("score-screen", O.hand_over(0), P, 0, host_seat=0)
    (form,) = parse_forms(host)
    assert form["type"] == "deal" and form["labels"] == ["Distribuer la main suivante"]
    assert field(form, "version")[0]["value"] == "42"
    for viewer in (1, 2, 3):
        html = render_page(O.hand_over(viewer), P, viewer, host_seat=0)
        assert "Distribuer la main suivante" not in html
        assert "Ane distribue la main suivante." in html


def test_deal_button_appears_once_on_the_page():
    html = render_page(O.hand_over(0), P, 0, host_seat=0)
    assert html.count("Distribuer la main suivante") == 1


def test_partie_over_view():
    html = render_partial("score-screen", O.finished(1, winner=0), P, 1, host_seat=0)
    assert "Eux gagnent la partie." in html
    assert "Score final : Nous 17 · Eux 40" in html
    assert f'href="{SALLE_URL}"' in html and "Retour à la salle" in html
    assert "Distribuer" not in html
    won = render_partial("score-screen", O.finished(2, winner=0), P, 2, host_seat=2)
    assert "Vous avez gagné la partie !" in won and "Distribuer" not in won


def test_partie_won_on_a_held_ordago_says_so_beside_a_score_below_40():
    obs = O.finished(0, winner=0)
    obs["scores"] = [3, 5]
    obs["lances"] = [{**obs["lances"][0], "outcome": "ordago", "stake": "ordago"}]
    html = render_partial("score-screen", obs, P, 0)
    assert "Score final : Nous 3 · Eux 5 — gagnée sur un órdago tenu au Grand" in html
    plain = render_partial("score-screen", O.finished(0, winner=0), P, 0)
    assert "órdago tenu" not in plain


def test_partie_over_without_showdown():
    obs = O.finished(0, winner=1)
    obs["hands_shown"] = None
    html = render_partial("score-screen", obs, P, 0)
    assert "avant qu'on découvre les cartes" in html
    assert not codes_in(html) - set(O.HANDS[0])


def test_turn_text_at_the_end_of_a_hand():
    assert build_table(TableFacts(O.hand_over(0), P, 0, host_seat=0))["turn"]["text"] == (
        "Fin de la main : à vous de distribuer la suivante."
    )
    assert build_table(TableFacts(O.hand_over(3), P, 3, host_seat=0))["turn"]["text"] == (
        "Fin de la main : Ane distribue la suivante."
    )


@pytest.mark.parametrize(
    "build", [O.base, O.discard, O.betting_open, O.opening, O.hand_over, O.finished]
)
def test_observations_shape(build):
    """The hand-built observations have the contract's keys, no more and no fewer, down to
    the words and lance records (mypy checks the value types)."""
    from games.engine import Observation, Word
    from games.engine.types import LanceRecord

    obs = build()
    assert set(obs) == set(Observation.__annotations__)
    for word in obs["words"]:
        assert {"seat", "type"} <= set(word) <= set(Word.__annotations__)
    for record in obs["lances"]:
        assert set(record) == set(LanceRecord.__annotations__)
