"""What the salle tells the players of a filling table, the table's away banner, and a refused
decision shown in the decision panel: rendered over HTTP, by the pushes, and from hand-built
observations."""

import html
import re

import pytest
from django.urls import reverse

from games.display import fragments
from games.services import salle
from tests.games.helpers import HTMX
from tests.presentation import observations as O
from tests.presentation.helpers import render_page, render_partial

pytestmark = pytest.mark.django_db


def card_of(content: str, table) -> str:
    found = re.search(
        rf'<li class="table-card[^"]*" id="table-{table.pk}".*?</li>\s*</ul>', content, re.S
    )
    assert found, content
    return html.unescape(found[0])


def pushed(user) -> str:
    return html.unescape(fragments.salle_fragment(user)[0])


# ------------------------------------------------------------ the salle


def test_a_table_with_one_player_offers_no_start_and_says_how_many_are_missing(ane, open_table):
    content = pushed(ane)
    assert "Il manque 3 joueurs pour lancer la partie." in content
    assert "Lancer la partie" not in content
    assert "Les quatre sont là" not in content
    assert "data-title-cue" not in content
    assert re.search(r'class="button-secondary">Quitter la table<', content)


def test_the_pushes_count_the_seats_as_the_table_fills(ane, bixente, camille, open_table):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    assert "Il manque 2 joueurs" in pushed(ane)
    salle.seat_take(user=camille, table_id=open_table.pk, number=2)
    assert "Il manque 1 joueur pour lancer la partie." in pushed(ane)
    assert "Il manque 1 joueur pour" in pushed(bixente)


def test_at_four_the_host_is_told_to_start_and_the_start_is_the_main_action(ane, cast, full_table):
    content = pushed(ane)
    assert "Il manque" not in content
    assert "Les quatre sont là : lancez la partie !" in content
    assert 'data-title-cue="● Table complète"' in content
    start = content.index("Lancer la partie")
    leave = content.index("Quitter la table")
    assert start < leave  # the main action first
    assert re.search(r'class="button-primary">Lancer la partie<', content)


def test_at_four_the_others_are_told_the_host_will_start(bixente, full_table):
    content = pushed(bixente)
    assert "Les quatre sont là : ane va lancer la partie." in content
    assert "Lancer la partie" not in content
    assert "data-title-cue" not in content


def test_the_salle_page_title_cues_the_host_of_a_full_table(login, ane, bixente, full_table):
    host = login(ane).get(reverse("games:salle")).content.decode()
    assert "<title>● Table complète · Barajamos</title>" in host
    other = login(bixente).get(reverse("games:salle")).content.decode()
    assert "<title>Salle · Barajamos</title>" in other


def test_a_forged_start_of_a_table_with_one_player_is_still_refused(login, ane, open_table):
    url = reverse("games:table_start", args=[open_table.pk])
    content = html.unescape(login(ane).post(url, headers=HTMX).content.decode())
    assert "Il faut quatre joueurs assis pour lancer la partie." in content
    open_table.refresh_from_db()
    assert open_table.status == "open"


# ------------------------------------------------------------ the table's away banner


def test_the_banner_names_who_is_gone_the_countdown_and_what_happens_at_zero():
    banner = html.unescape(render_partial("away-banner", O.base(0), O.PLAYERS, 0, presence={3: 42}))
    assert 'id="away-banner"' in banner and "hidden" not in banner.split(">")[0]
    assert 'data-partie="playing"' in banner
    assert "Dani a perdu la connexion." in banner
    assert (
        "La partie sera annulée pour les quatre si Dani ne revient pas avant "
        '<span class="countdown away-banner__countdown" data-seconds="42">0:42</span>.'
    ) in banner
    # Not a live region (its clock ticks): live.js says each line once in #announcer, then the
    # countdown at a few milestones only.
    assert "role=" not in banner.split(">")[0] and "aria-live" not in banner
    assert "data-away-line" in banner and "data-milestone-text=" in banner


def test_no_one_away_the_banner_is_hidden_but_still_says_the_partie_status():
    banner = render_partial("away-banner", O.finished(0), O.PLAYERS, 0)
    assert re.match(r'\s*<div id="away-banner"[^>]* hidden', banner)
    assert 'data-partie="finished"' in banner
    assert "a perdu la connexion" not in banner


def test_the_banner_is_pushed_with_the_regions():
    from games.display.regions import render_regions
    from tests.presentation.helpers import context

    regions = render_regions(context(O.base(1), O.PLAYERS, 1, presence={3: 30}))
    banner = re.search(r'<div id="away-banner"[^>]*>', regions)
    assert banner and 'data-partie="playing"' in banner[0]
    assert 'hx-swap-oob="true"' in banner[0] and " hidden" not in banner[0]
    assert "Dani ne revient pas avant" in html.unescape(regions)


def test_the_returning_player_is_told_the_table_waited_and_how_long_they_had():
    page = html.unescape(render_page(O.base(3), O.PLAYERS, 3, presence={3: 42}))
    assert (
        "Vous étiez déconnecté·e : la table vous a attendu (il vous restait 0:42 avant "
        "l’annulation de la partie)."
    ) in page
    banner = render_partial("away-banner", O.base(3), O.PLAYERS, 3, presence={3: 42})
    assert "a perdu la connexion" not in banner  # not about themselves


# ------------------------------------------------------------ leaving the table page


def test_the_table_page_opens_the_rules_in_a_new_tab_and_guards_the_other_links():
    page = html.unescape(render_page(O.base(0), O.PLAYERS, 0))
    assert re.search(r'<nav class="site-nav"[^>]* data-leave-guard>', page)
    assert re.search(r'<a href="/regles/" target="_blank" rel="noopener">Règles', page)
    assert '<dialog id="leave-dialog"' in page
    assert "Quitter la table ?" in page
    assert "Si vous ne revenez pas dans la minute, la partie est annulée pour les quatre." in page
    assert "js/leave.js" in page


def test_other_pages_keep_the_plain_nav(login, ane, open_table):
    content = login(ane).get(reverse("games:salle")).content.decode()
    assert re.search(r'<nav class="site-nav"[^>]*>', content)
    assert "data-leave-guard" not in content
    assert 'target="_blank"' not in content


# ------------------------------------------------------------ a refused decision


def test_a_refused_decision_is_told_in_the_decision_panel_not_at_the_top(login, ane, started_game):
    url = reverse("games:act", args=[started_game.table_id])
    response = login(ane).post(url, {"version": "0", "type": "hold"}, headers=HTMX)
    assert response.status_code == 422
    content = html.unescape(response.content.decode())
    flash = re.search(r'<div id="flash".*?</div>', content, re.S)[0]
    assert "table-flash__message" not in flash
    panel = re.search(r'<section id="decision-panel".*?</section>', content, re.S)[0]
    refusal = re.search(r'<p class="tpanel__refusal" role="alert">([^<]+)</p>', panel)
    assert refusal and refusal[1].strip()
    # the panel still offers the decisions, after the message
    assert panel.index("tpanel__refusal") < panel.index('name="type" value="mus"')
