"""Your move is always on screen: in every phase of a hand, the player's four cards and every
decision button sit inside the viewport without scrolling, at a phone's, a tablet's and a
laptop's size, and nothing covers them (the sticky panel least of all); the score table never
scrolls sideways."""

import os
import re
import time
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import (
    CARDS,
    CONTROLS,
    MEASURE,
    SIDEWAYS,
    act,
    wait_connected,
    wait_for,
)

pytestmark = pytest.mark.browser

VIEWPORTS = [(360, 740), (390, 844), (768, 1024), (1280, 800)]
SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots13"))


def check_on_screen(page, phase, measures):
    """Every card and control of the viewer inside the viewport and uncovered, at each size."""
    failures = []
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(50)
        cards = page.evaluate(MEASURE, CARDS)
        controls = page.evaluate(MEASURE, CONTROLS)
        page.screenshot(path=str(SHOTS / f"v2-{phase}-{width}x{height}.png"))
        if phase == "score":
            shot = SHOTS / f"v2-{phase}-{width}x{height}-full.png"
            page.screenshot(path=str(shot), full_page=True)
        assert controls, f"{phase}: no control"
        lowest = max(c["bottom"] for c in controls)
        measures.append(
            f"{phase:9} {width}x{height}: cards top y={min((c['top'] for c in cards), default=-1)}"
            f", lowest control bottom y={lowest}"
        )
        if page.evaluate(SIDEWAYS):
            failures.append(f"{phase} {width}x{height}: scrolls sideways")
        for item in cards + controls:
            if not (item["inside"] and item["uncovered"]):
                failures.append(f"{phase} {width}x{height}: {item}")
    return failures


@pytest.fixture
def ane_page(cast, page_for, start_cast_table):
    SHOTS.mkdir(parents=True, exist_ok=True)
    game = start_cast_table(2026)
    page = page_for(cast[0])  # ane: the host, mano and first to speak
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"/tables/{game.table_id}/")
    return game, page


def test_cards_and_every_decision_are_on_screen_in_every_phase(ane_page, cast, in_thread):
    game, page = ane_page
    measures: list[str] = []
    failures = []

    # the mus question
    expect(page.locator("#decision-panel")).to_contain_text("Mus ou couper ?")
    failures += check_on_screen(page, "mus", measures)

    # the discard: four "mus", then the cards are checkboxes
    for _ in range(4):
        act(game, cast, in_thread, lambda seat, legal, state: {"type": "mus"})
    wait_for(page, game)
    expect(page.locator("#my-hand input[type=checkbox]")).to_have_count(4)
    failures += check_on_screen(page, "discard", measures)

    # everyone changes one card, then ane cuts: the grand opens with ane to speak
    def discard_one(seat, legal, state):
        return {"type": "discard", "cards": state["hand"]["cards"][seat][:1]}

    for _ in range(4):
        act(game, cast, in_thread, discard_one)
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "cut"})
    wait_for(page, game)
    expect(page.locator("#decision-panel").get_by_role("button", name="Órdago")).to_be_visible()
    failures += check_on_screen(page, "bet", measures)

    # ane passes, bixente bets 2: ane answers
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "pass"})
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "bet", "amount": 2})
    wait_for(page, game)
    expect(page.locator("#decision-panel").get_by_role("button", name="Je tiens")).to_be_visible()
    failures += check_on_screen(page, "answer", measures)

    # the rest of the hand: holds and passes, to the score screen with ane's deal button
    def calm(seat, legal, state):
        for kind in ("hold", "pass", "declare"):
            if kind in legal:
                return {"type": kind}
        raise AssertionError(legal)

    for _ in range(60):
        game.refresh_from_db()
        if game.state["phase"] == "hand_over" or game.status != Game.Status.PLAYING:
            break
        act(game, cast, in_thread, calm)
    wait_for(page, game)
    expect(page.locator("#score-screen").get_by_role("button")).to_be_visible()
    failures += check_on_screen(page, "score", measures)

    print("\n" + "\n".join(measures))
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------- your turn, outside the page

#: Counts the notes played (Web Audio oscillators) and stands in for the Notification API, with
#: a page that can be "hidden": what the test can observe of sounds and notifications.
FAKE_ATTENTION = """
window.__notes = 0;
var make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__notes += 1;
  return make.call(this);
};
window.__hidden = false;
Object.defineProperty(document, "hidden", { get: function () { return window.__hidden; } });
window.__asked = 0;
window.__notifications = [];
function FakeNotification(title, options) {
  window.__notifications.push({ title: title, body: options.body });
  this.close = function () {};
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = function () {
  window.__asked += 1;
  FakeNotification.permission = "granted";
  return Promise.resolve("granted");
};
window.Notification = FakeNotification;
"""


@pytest.fixture
def bixente_page(cast, page_for, start_cast_table):
    game = start_cast_table(2026)
    page = page_for(cast[1])  # bixente speaks second
    page.add_init_script(FAKE_ATTENTION)
    page.goto(f"/tables/{game.table_id}/")
    return game, page


def say_mus(game, cast, in_thread):
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "mus"})


def test_the_title_says_when_it_is_your_turn(bixente_page, cast, in_thread, page_for):
    game, page = bixente_page
    number = game.table_id
    expect(page).to_have_title(f"Table {number} · Barajamos")
    ane = page_for(cast[0])
    ane.goto(f"/tables/{number}/")
    expect(ane).to_have_title(f"● À vous — Table {number}")

    say_mus(game, cast, in_thread)  # ane: now bixente's turn
    expect(page).to_have_title(f"● À vous — Table {number}")
    expect(ane).to_have_title(f"Table {number} · Barajamos")


def test_sounds_are_off_until_turned_on_and_the_choice_is_remembered(bixente_page, cast, in_thread):
    game, page = bixente_page
    sounds = page.locator("#attention [data-sounds]")
    expect(sounds).to_have_attribute("aria-pressed", "false")
    say_mus(game, cast, in_thread)  # bixente's turn: silence
    expect(page).to_have_title(re.compile("À vous"))
    assert page.evaluate("window.__notes") == 0

    sounds.click()
    expect(sounds).to_have_attribute("aria-pressed", "true")
    reloaded = timezone.now()
    page.reload()
    expect(sounds).to_have_attribute("aria-pressed", "true")
    # the turns below are pushed to the reloaded page's socket: it must be open first
    wait_connected(game, [cast[1]], since=reloaded)
    assert page.evaluate("window.__notes") == 0  # a reload is not a new turn
    for _ in range(3):  # bixente, camille, dani: mus; then the four choose their discards
        say_mus(game, cast, in_thread)
    expect(page.locator("#my-hand input[type=checkbox]")).to_have_count(4)
    # Polled here, not by wait_for_function: the page's CSP refuses the eval that polls it.
    deadline = time.monotonic() + 10
    while page.evaluate("window.__notes") == 0 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert page.evaluate("window.__notes") > 0


def test_a_notification_when_the_tab_is_hidden_asked_for_on_a_click(bixente_page, cast, in_thread):
    game, page = bixente_page
    number = game.table_id
    notify = page.locator("#attention [data-notify]")
    expect(notify).to_be_visible()
    assert page.evaluate("window.__asked") == 0  # never asked without a click
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__asked") == 1

    page.evaluate("window.__hidden = true")
    say_mus(game, cast, in_thread)  # bixente's turn while the tab is hidden
    expect(page).to_have_title(re.compile("À vous"))
    assert page.evaluate("window.__notifications") == [
        {"title": f"● À vous — Table {number}", "body": "C’est à vous de décider."}
    ]
