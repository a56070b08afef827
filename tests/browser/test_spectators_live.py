"""« Regarder » in browsers (docs/spectators.md): four players play a hand by clicking while two
members watch, one on a 360 px phone; the spectators see every word and never a card until
the showdown, the players see who watches (the names on a tap), and the spectator's page is
checked by axe. Screenshots at 360x740 and 1280x800 in SHOTS."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.engine import observation
from tests.browser.axe import assert_clean, axe_problems
from tests.browser.helpers import assert_no_violation, watched

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-spectators"))
BUTTONS = {"mus": "Mus", "cut": "Je coupe", "pass": "Je passe", "hold": "Je tiens"}


def cut_and_pass(state, seat, legal):
    """The mano cuts, everyone passes (and holds what is asked): a short hand to the showdown."""
    for kind in ("cut", "pass", "hold"):
        if kind in legal:
            return kind
    raise AssertionError(legal)


def shoot(page, name: str):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def test_four_players_and_two_spectators(cast, make_user, page_for, start_cast_table):
    game = start_cast_table(2026)
    players = [watched(page_for(user)) for user in cast]
    for page in players:
        page.goto(f"/tables/{game.table_id}/")
    eneko, fermin = make_user("eneko"), make_user("fermin")
    desk, phone = watched(page_for(eneko)), watched(page_for(fermin))
    phone.set_viewport_size({"width": 360, "height": 740})
    desk.set_viewport_size({"width": 1280, "height": 800})
    for page in (desk, phone):
        page.goto(f"/tables/{game.table_id}/regarder/")
        expect(page.locator("#watch-version")).to_have_attribute("data-version", "0")
        expect(page.locator("#table-seats .card--back")).to_have_count(16)
        expect(page.locator("[data-card]")).to_have_count(0)
    # the players see who watches, the names on a tap
    ane = players[0]
    expect(ane.locator("#watchers-count")).to_have_text("2 spectateurs")
    ane.locator(".watchers__summary").click()
    expect(ane.locator("#watchers-names")).to_contain_text("eneko")
    expect(ane.locator("#watchers-names")).to_contain_text("fermin")

    for _ in range(40):
        game.refresh_from_db()
        state = game.state
        if state["status"] != "playing":
            break
        seat, legal = next(
            (s, {a["type"] for a in observation(state, s)["legal"]})
            for s in range(4)
            if observation(state, s)["legal"]
        )
        kind = cut_and_pass(state, seat, legal)
        players[seat].locator("#decision-panel").get_by_role(
            "button", name=BUTTONS[kind], exact=True
        ).click()
        version = str(state["version"] + 1)
        for page in (desk, phone):
            expect(page.locator("#watch-version")).to_have_attribute("data-version", version)
            # read once the page shows the new version: a click is applied after it returns
            game.refresh_from_db()
            if game.state["status"] == "playing":
                expect(page.locator("[data-card]")).to_have_count(0)  # not a card before
        if kind == "cut":
            for page in (desk, phone):
                expect(page.locator("#hand-log")).to_contain_text("coupe")
            shoot(phone, "spectator-playing-360x740")
            shoot(desk, "spectator-playing-1280x800")
    game.refresh_from_db()
    assert game.state["status"] == "hand_over"
    for page in (desk, phone):
        screen = page.locator("#score-screen")
        expect(screen).to_be_visible()
        expect(screen.locator("[data-card]")).to_have_count(16)  # the table shows them now
        expect(screen).to_contain_text("ane distribue la main suivante.")
        expect(screen.get_by_role("button")).to_have_count(0)
    shoot(phone, "spectator-showdown-360x740")
    shoot(desk, "spectator-showdown-1280x800")
    ane.set_viewport_size({"width": 360, "height": 740})
    shoot(ane, "player-watchers-360x740")
    ane.set_viewport_size({"width": 1280, "height": 800})
    shoot(ane, "player-watchers-1280x800")

    # a spectator leaving is nothing to the game: the count goes down, no banner
    phone.close()
    expect(ane.locator("#watchers-count")).to_have_text("1 spectateur")
    expect(ane.locator("#away-banner")).to_be_hidden()
    for page in (*players, desk):
        assert_no_violation(page, page.url)
    assert_clean(axe_problems(desk, "spectator"))


def test_the_salle_shows_a_partie_a_la_une_with_regarder(
    cast, make_user, page_for, start_cast_table
):
    game = start_cast_table(7)
    visitor = watched(page_for(make_user("garazi")))
    visitor.set_viewport_size({"width": 360, "height": 740})
    visitor.goto("/salle/")
    expect(visitor.locator("#salle[data-pushed]")).to_have_count(1)  # the socket's first push
    featured = visitor.locator("#featured")
    expect(featured).to_contain_text("À la une")
    expect(featured).to_contain_text("main n° 1")
    featured.scroll_into_view_if_needed()
    shoot(visitor, "salle-a-la-une-360x740")
    visitor.set_viewport_size({"width": 1280, "height": 800})
    visitor.evaluate("window.scrollTo(0, 0)")
    expect(featured).to_be_in_viewport()  # the top of the right column
    shoot(visitor, "salle-a-la-une-1280x800")
    problems = axe_problems(visitor, "salle à la une")
    featured.get_by_role("link", name=f"Regarder la table {game.table_id}").click()
    expect(visitor).to_have_url(re.compile(f"/tables/{game.table_id}/regarder/$"))
    assert_clean(problems)
