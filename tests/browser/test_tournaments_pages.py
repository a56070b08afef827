"""The tournaments' pages in chromium at a phone's and a laptop's size: nothing wider than the
screen, no policy violation, axe clean; the live part redraws the standings within 5 s of a
result, with no click, and titles the tab when a table is ready. Screenshots in
/tmp/shots/tournaments/ to look at."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Game
from tests.browser.axe import assert_clean, axe_problems
from tests.browser.helpers import visit, watched
from tests.tournaments.helpers import (
    make_pairs,
    parties_of,
    play_all,
    ready_tournament,
    seed_of,
)
from tournaments import services

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/tournaments")
SIZES = {"phone": (360, 740), "laptop": (1280, 800)}


def test_the_tournament_pages_fit_are_accessible_and_live(make_user, page_for, in_thread, settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 0
    staff = in_thread(make_user, "arbitre", is_staff=True)
    pairs = in_thread(make_pairs, make_user, 4)
    tournament = in_thread(ready_tournament, staff, pairs, rounds=3, name="Open de Gernika")
    in_thread(services.advance, tournament_id=tournament.pk, now=tournament.starts_at)
    table = in_thread(lambda: parties_of(tournament).select_related("table")[0].table)
    seated = in_thread(lambda: list(table.seats.order_by("number").select_related("user")))
    player = seated[0].user
    upcoming = in_thread(
        lambda: services.tournament_create(
            user=staff,
            name="Txapelketa de Navidad",
            format="eclair",
            window_minutes=90,
            kings=8,
            clock="lent",
            starts_at=tournament.starts_at + timedelta(days=20),
            min_completion=80,
        )
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    pages = {
        "liste": "/salle/tournois/",
        "tournoi": tournament.get_absolute_url(),
        "a-venir": upcoming.get_absolute_url(),
        "creer": "/salle/tournois/nouveau/",
        "pareja": pairs[0].get_absolute_url(),
    }
    for size, (width, height) in SIZES.items():
        page = watched(page_for(player))
        page.set_viewport_size({"width": width, "height": height})
        for name, url in pages.items():
            visit(page, url)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (name, size, wide)
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
            if size == "laptop":
                problems += axe_problems(page, f"tournois : {name}")
    # the player's table is ready: the page says so (the tab's title too), shows its commitment
    # and carries the seed the browser drew; the others arrived; « Je suis là » starts it
    page = watched(page_for(player))
    visit(page, tournament.get_absolute_url())
    assert page.title().startswith("● Votre table est prête")
    page.locator("#tournament-seed-box summary").click()
    assert table.commitment in page.locator("#tournament-seed-box").inner_text()
    seed = page.locator("#tournament-seed").input_value()
    assert len(seed) == 32 and seed != seed_of(player)
    for seat in seated[1:]:
        in_thread(
            services.arrive,
            user=seat.user,
            tournament_id=tournament.pk,
            client_seed=seed_of(seat.user),
        )
    page.get_by_role("button", name="Je suis là : rejoindre la table").click()
    page.wait_for_url(f"**{reverse('games:table', args=[table.pk])}")
    game = in_thread(Game.objects.get, table=table)
    assert game.client_seeds[0] == seed and game.seed_origins == ["person"] * 4
    visit(page, tournament.get_absolute_url())
    assert page.locator(".tournament-ready a").get_attribute("href") == reverse(
        "games:table", args=[table.pk]
    )
    assert page.title().startswith("● Votre table est prête")
    # results come in (the worker's work, done here): the standings redraw themselves
    points = page.locator(".tournament-standings tbody td:nth-child(3)").all_inner_texts()
    assert points == ["0", "0", "0", "0"]
    in_thread(play_all, tournament)
    in_thread(services.advance, tournament_id=tournament.pk)
    page.get_by_role("heading", name="Ronde 2").wait_for(timeout=5000)
    points = page.locator(".tournament-standings tbody td:nth-child(3)").all_inner_texts()
    assert sorted(points, reverse=True) == ["1", "1", "0", "0"]
    page.screenshot(path=str(SHOTS / "tournoi-ronde-2-laptop.png"), full_page=True)
    assert_clean(problems)
