"""The score screen explains every point, and answering a bet as a team is clear: rendered
from REAL engine states (seeded parties, scripted words), never hand-built observations."""

from __future__ import annotations

import re
from html import unescape

import pytest

from games import engine
from games.display import table_view
from games.display.answers import answer_choices
from games.display.score_screen import Sides, hand_summary
from games.display.table_view import build_table
from games.display.view_model import TableFacts
from games.engine import SeededShuffler, random_play
from tests.presentation.helpers import codes_in, parse_forms, render_page
from tests.presentation.table_states import random_parties

P = ["Ane", "Bixente", "Camille", "Dani"]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def page(state, seat):
    return render_page(engine.observation(state, seat), P, seat, host_seat=0)


def act(state, *moves):
    for seat, action in moves:
        state = engine.apply(state, seat, action)
    return state


def cut(seed, kings=4, scores=None):
    """A new partie (seat 0 the mano, who cuts at once): the Grand is open."""
    state = engine.new_partie(kings=kings, first_mano=0, shuffler=SeededShuffler(seed))
    if scores is not None:
        state["scores"] = list(scores)
    return engine.apply(state, 0, {"type": "cut"})


def pass_out(state, script=None):
    """Play the hand to its end: ``script(state, seat, kinds)`` may give a word, else pass/hold."""
    while state["status"] == "playing":
        seat = engine.to_act(state)[0]
        kinds = {a["type"] for a in engine.legal_actions(state, seat)}
        action = script(state, seat, kinds) if script else None
        if action is None:
            action = {"type": "pass" if "pass" in kinds else "hold"}
        state = engine.apply(state, seat, action)
    return state


def first_seed(condition, **kwargs):
    for seed in range(500):
        state = cut(seed, **kwargs)
        if condition(state):
            return seed
    raise AssertionError("no seed found")


def offered(html):
    """The decision forms' types (the page's other forms, e.g. the log-out, carry none)."""
    return [f["type"] for f in parse_forms(html) if f["type"] is not None]


def shown_cards(state):
    return state["hand"]["cards"]


# ---------------------------------------------------------------- answering a bet (point 7)


def test_after_the_partner_raised_the_other_is_never_offered_less_nor_a_useless_refusal():
    state = act(cut(1), (0, {"type": "bet", "amount": 2}), (1, {"type": "raise", "to": 5}))
    html = page(state, 3)
    forms = parse_forms(html)
    types = offered(html)
    assert "refuse" not in types  # the partner's raise already beats it
    assert "hold" in types and "ordago" in types
    raise_to = next(f for f in forms if f["type"] == "raise")
    number = next(i for i in raise_to["inputs"] if i.get("type") == "number")
    assert (number["min"], number["value"]) == ("6", "6")  # above the partner's 5
    text = text_of(html)
    assert "Bixente a relancé à 5. Je tiens : vous suivez sa relance" in text
    assert "Je ne tiens pas ne changerait rien" in text
    # the engine's own rule is untouched: it would still take a refusal
    assert {"type": "refuse"} in engine.legal_actions(state, 3)


def test_the_partner_who_answered_sees_it_and_the_one_still_to_answer_is_told_both_count():
    state = act(cut(1), (0, {"type": "bet", "amount": 2}))
    first = text_of(page(state, 1))
    assert "Dani répond aussi : la réponse la plus forte de l’équipe compte." in first
    state = act(state, (1, {"type": "refuse"}))
    second = page(state, 3)
    assert set(offered(second)) == {"refuse", "hold", "raise", "ordago"}
    assert "Bixente ne tient pas. Je ne tiens pas : la mise est refusée" in text_of(second)


def test_a_partner_hold_hides_the_refusal_that_would_change_nothing():
    state = act(cut(1), (0, {"type": "bet", "amount": 2}), (3, {"type": "hold"}))
    html = page(state, 1)
    assert set(offered(html)) == {"hold", "raise", "ordago"}
    assert "Dani tient. Je tiens : la mise est tenue" in text_of(html)


def test_a_partner_raise_to_40_leaves_no_raise_at_all():
    state = act(cut(1), (0, {"type": "bet", "amount": 2}), (1, {"type": "raise", "to": 40}))
    vm = build_table(TableFacts(engine.observation(state, 3), P, 3))
    assert [b["type"] for b in vm["panel"]["buttons"]] == ["hold", "ordago"]


@pytest.mark.parametrize(
    ("second", "counted"),
    [
        ({"type": "raise", "to": 7}, "La relance de Dani à 7 compte."),
        ({"type": "hold"}, "La relance de Bixente à 5 compte."),
        ({"type": "raise", "to": 5}, "La relance de Bixente à 5 compte."),  # nearest the mano
    ],
)
def test_the_log_says_which_of_two_answers_counted(second, counted):
    state = act(cut(1), (0, {"type": "bet", "amount": 2}), (1, {"type": "raise", "to": 5}))
    state = act(state, (3, second))
    for seat in range(4):
        assert counted in text_of(page(state, seat))
    lines = [
        line
        for s in build_table(TableFacts(engine.observation(state, 0), P, 0))["log"]
        for line in s["lines"]
    ]
    assert (
        lines.index(counted)
        == lines.index(
            "Dani : " + ("Je tiens" if second["type"] == "hold" else f"Relance à {second['to']}")
        )
        + 1
    )


def test_one_answer_or_two_equal_ones_need_no_word():
    state = act(
        cut(1), (0, {"type": "bet", "amount": 2}), (1, {"type": "hold"}), (3, {"type": "hold"})
    )
    assert "compte." not in text_of(page(state, 0))


def test_a_forged_raise_below_the_partner_is_still_decided_by_the_engine():
    state = act(cut(1), (0, {"type": "bet", "amount": 2}), (1, {"type": "raise", "to": 5}))
    state = act(state, (3, {"type": "raise", "to": 3}))  # the engine's rule: the 5 counts
    assert state["hand"]["betting"]["stake"] == 5
    assert "La relance de Bixente à 5 compte." in text_of(page(state, 0))


# ---------------------------------------------------------------- the score screen (point 6)


def test_a_held_ordago_says_who_wins_the_partie_and_why():
    state = act(cut(1), (0, {"type": "ordago"}), (1, {"type": "hold"}))
    assert state["status"] == "finished"
    winner = state["winner"]
    for seat in range(4):
        text = text_of(page(state, seat))
        ours = engine.team_of(seat) == winner
        words = "Nous gagnons la partie" if ours else "Eux gagnent la partie"
        assert f"Órdago tenu au Grand : {words}" in text
        assert " contre " in text  # the best Grand of each team, side by side
        assert "0 (l’órdago tenu gagne la partie)" in text


def test_a_point_won_after_40_shows_the_count_stopped():
    def no_jeu(state):
        return all(engine.total_of(cards, 4) < 31 for cards in shown_cards(state))

    seed = first_seed(no_jeu, scores=[38, 38])

    def script(state, seat, kinds):
        lance = state["hand"]["lance"]
        if "bet" in kinds and lance == "grand":
            return {"type": "bet", "amount": 2}
        if "bet" in kinds and lance == "point":
            return {"type": "bet", "amount": 10}
        return None

    state = pass_out(cut(seed, scores=[38, 38]), script)
    assert state["status"] == "finished"
    point = next(r for r in state["hands"][-1]["lances"] if r["lance"] == "point")
    assert point["outcome"] == "held" and point["points"] == 0
    html = page(state, 0)
    row = re.search(r"<tr[^>]*>\s*<th[^>]*>Point.*?</tr>", html, re.S)
    assert row is not None
    text = text_of(row.group(0))
    assert "compte arrêté à 40" in text
    assert "10 points" in text and "+1 (Point)" in text
    cards = shown_cards(state)
    winner = point["winner_seat"]
    assert f"Point {engine.total_of(cards[winner], 4)} ({P[winner]}) contre Point " in text


def test_duples_against_medias_and_the_paires_bonus_apart():
    def duples_vs_medias(state):
        names = [engine.paires_of(c, 4)[0] for c in shown_cards(state)]
        duples = [s for s in range(4) if names[s] == "duples"]
        medias = [s for s in range(4) if names[s] == "medias"]
        return any(engine.team_of(d) != engine.team_of(m) for d in duples for m in medias)

    seed = first_seed(duples_vs_medias)
    state = pass_out(cut(seed))
    paires = next(r for r in state["hands"][-1]["lances"] if r["lance"] == "paires")
    cards = shown_cards(state)
    assert engine.paires_of(cards[paires["winner_seat"]], 4)[0] == "duples"
    text = text_of(page(state, 0))
    assert re.search(r"duples d(e |’)\w+ et d(e |’)\w+ \(\w+\) contre medias d", text)
    team = paires["winner_team"]
    bonus = engine.paires_of(cards[team], 4)[1] + engine.paires_of(cards[team + 2], 4)[1]
    assert f"+{bonus} (duples 3" in text


def test_a_deje_is_marked_in_the_log_where_it_is_scored():
    state = act(
        cut(1), (0, {"type": "bet", "amount": 2}), (1, {"type": "refuse"}), (3, {"type": "refuse"})
    )
    html = page(state, 0)
    assert re.search(
        r'<li class="hand-log__deje">Grand : refusée, pour Nous, deje 1 point\. '
        r"Marqué tout de suite : Nous \+1\.</li>",
        html,
    )
    state = pass_out(state)
    html = page(state, 2)
    row = re.search(r"<tr[^>]*>\s*<th[^>]*>Grand.*?</tr>", html, re.S)
    assert row is not None and "+1 (marqué au refus)" in text_of(row.group(0))


def test_previous_hands_stay_reachable_with_their_explanations_and_nothing_hidden():
    state = pass_out(cut(3))
    assert state["status"] == "hand_over"
    closed = state["hands"][-1]
    state = engine.apply(state, 0, {"type": "deal"}, shuffler=SeededShuffler(4))
    for seat in range(4):
        html = page(state, seat)
        log = html[html.index('id="hand-log"') : html.index('id="score-screen"')]
        assert "Mains précédentes (1)" in log
        assert "Main n° 1 :" in log and " contre " in text_of(log)
        # the previous hand is explained in words: still no card code of anybody's
        assert codes_in(log) == set()
        assert codes_in(html) <= set(engine.observation(state, seat)["my_cards"])
    grand = closed["lances"][0]
    assert grand["lance"] == "grand" and grand["points"] == 1


def test_what_each_lance_gives_agrees_with_the_engine_count():
    """Every lance's ``due`` (stake + Paires / Jeu / Point bonus) is what the engine counted, in
    every hand before the one that ended the partie."""
    checked = 0
    for seed in range(12):
        state = random_play.play_partie(seed)
        before = [0, 0]
        for record in state["hands"]:
            sides = Sides(tuple(P), ("A", "B"), 0, state["kings"])
            summary = hand_summary(record, before, sides, last_of_partie=False)
            if record is not state["hands"][-1]:  # the last one ended the partie
                for row, lance in zip(summary["rows"], record["lances"], strict=True):
                    assert row["due"] == lance["points"], (seed, lance, row)
                    checked += 1
            before = record["scores_after"]
    assert checked > 50


def test_the_answer_choices_only_narrow_the_engines_legal_actions():
    rng = SeededShuffler(9)
    state = engine.new_partie(kings=8, first_mano=2, shuffler=rng)
    for _ in range(400):
        if state["status"] == "finished":
            break
        for seat in range(4):
            obs = engine.observation(state, seat)
            shown, _note = answer_choices(obs, seat, P[(seat + 2) % 4])
            legal = {a["type"]: a for a in obs["legal"]}
            for item in shown:
                assert item["type"] in legal
                if "min" in item:
                    assert legal[item["type"]]["min"] <= item["min"] <= item["max"]
        seats = engine.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        state = engine.apply(state, seat, random_play.pick_action(state, seat, rng), shuffler=rng)


def test_the_past_hands_are_written_once_per_history_and_team():
    """Every push of every seat shows the past hands: built and written once until the next
    hand closes, apart for each team (« Nous » / « Eux ») and language."""
    from django.utils import translation

    from games.display.score_screen import past_hands

    state = engine.apply(pass_out(cut(3)), 0, {"type": "deal"}, shuffler=SeededShuffler(4))
    players, teams = ["ane", "bixente", "carmen", "dani"], ["Nous", "Eux"]
    args = (state["hands"], state["hand_number"], state["kings"], players)
    with translation.override("fr"):
        first = past_hands(*args, 0, teams)
        assert past_hands(*args, 2, teams) is first  # the partner: the same team
        assert past_hands(*args, 1, teams) is not first
        assert "Mains précédentes (1)" in first and "Main n° 1 :" in first
        # one more hand closed (the same record again will do): written anew
        longer = [*state["hands"], state["hands"][-1]]
        later = past_hands(longer, state["hand_number"] + 1, state["kings"], players, 0, teams)
        assert "Mains précédentes (2)" in later and later is not first


#: The « Mains précédentes » as one macro wrote them before each hand was written once.
PAST_HANDS_BEFORE = """{% macro past_hands(past_hands) %}{% if past_hands %}<details class="past-hands">
  <summary class="past-hands__summary">{% trans hands=past_hands|length %}Mains précédentes ({{ hands }}){% pluralize %}Mains précédentes ({{ hands }}){% endtrans %}</summary>
  {% for hand in past_hands %}<section class="past-hand" aria-label="{{ hand.title }}">
    <h3 class="past-hand__title">{{ hand.title }}</h3>
    {% if hand.headline %}<p class="score-headline">{{ hand.headline }}</p>{% endif %}
    <ul class="past-hand__lances">{% for line in hand.lines %}<li>{{ line }}</li>{% endfor %}</ul>
    <p class="past-hand__total">{{ hand.total }}</p>
  </section>{% endfor %}
</details>{% endif %}{% endmacro %}"""  # noqa: E501


def test_the_past_hands_written_hand_by_hand_are_the_bytes_of_the_whole_list_at_once():
    import json

    from django.utils import translation

    from core import jinja, translations
    from games.display import score_screen

    before = jinja.ENV.from_string(PAST_HANDS_BEFORE).module.past_hands
    players, checked = ("ane", "bixente", "carmen", "dani"), 0
    for game in random_parties(range(3), every=10, limit=1500):
        state = game.state
        for language in ("fr", "eu"):
            with translation.override(language), translations.one_language():
                for viewer in (0, 1):
                    teams = tuple(table_view.team_labels(viewer, None))
                    sides = score_screen.Sides(players, teams, viewer % 2, state["kings"])
                    hands, start = state["hands"][: state["hand_number"] - 1], (0, 0)
                    words = []
                    for number, record in enumerate(hands, start=1):
                        words.append(
                            score_screen._past_hand_words(
                                json.dumps(record, sort_keys=True), number, start, sides
                            )
                        )
                        start = tuple(record["scores_after"])
                    history = score_screen.past_history(state["hands"], state["hand_number"])
                    written = score_screen.past_hands_of(history, sides)
                    assert written == before(words[::-1])
                    checked += len(hands) > 1
    assert checked > 12
