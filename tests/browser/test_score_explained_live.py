"""The explained score screen in Chromium, at a phone's and a laptop's size: every row's reason
is readable, nothing scrolls sideways, the previous hands open from the hand log, and a held
órdago says who won the partie. Screenshots under $SHOTS_DIR (default /tmp/shots13)/v3-*."""

import os
from pathlib import Path

import pytest

from games import engine
from games.models import Game

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots13"))
VIEWPORTS = [(360, 740), (1280, 800)]
#: What sticks out of the score screen, for the failure message.
WIDER = """
(function () {
  var box = document.querySelector("#score-screen").getBoundingClientRect();
  return [innerWidth, document.documentElement.scrollWidth, box.right].concat(
    Array.from(document.querySelectorAll("#score-screen *")).filter(function (el) {
      return el.getBoundingClientRect().right > box.right;
    }).map(function (el) { return el.tagName + "." + el.className; }));
})()
"""
SIDEWAYS = """
document.documentElement.scrollWidth > innerWidth
|| Array.from(document.querySelectorAll("#score-screen, #score-screen table, .past-hands table"))
     .some(function (el) { return el.scrollWidth > el.clientWidth; })
"""


#: The « Total : » line and the deal button: each inside the viewport, and the point at its
#: centre hits it (the sticky deal button once covered the total on a 1280x800 laptop).
TOTAL_AND_DEAL = """
Array.from(document.querySelectorAll(
  "#score-screen .score-screen__totals, #score-screen > form:has(> button) button"
)).map(function (el) {
  var r = el.getBoundingClientRect();
  var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    name: el.textContent.trim(),
    seen: r.top >= 0 && r.bottom <= innerHeight && !!hit && (el === hit || el.contains(hit)),
  };
})
"""


def play_out(state, script):
    while state["status"] == "playing":
        seat = engine.to_act(state)[0]
        kinds = {a["type"] for a in engine.legal_actions(state, seat)}
        action = script(state, seat, kinds) or {"type": "pass" if "pass" in kinds else "hold"}
        state = engine.apply(state, seat, action)
    return state


def store(game, state):
    """The game's state written as the services would leave it (the page reads the row)."""
    game.state = state
    game.version = state["version"]
    if state["status"] == "finished":
        game.status = Game.Status.FINISHED
        game.winning_team = state["winner"]
    game.save()


def bets(state, seat, kinds):
    lance = state["hand"]["lance"]
    if "bet" in kinds and lance in ("grand", "point", "jeu"):
        return {"type": "bet", "amount": 5 if lance == "grand" else 2}
    if "refuse" in kinds and lance == "jeu" and engine.team_of(seat) == 1:
        return {"type": "refuse"}
    return None


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_the_score_screen_explains_and_never_scrolls_sideways(
    width, height, start_cast_table, page_for, cast
):
    game = start_cast_table(7)
    state = engine.apply(game.state, 0, {"type": "cut"})
    state = play_out(state, bets)
    state = engine.apply(state, 0, {"type": "deal"})
    state = play_out(engine.apply(state, 1, {"type": "cut"}), bets)
    assert state["status"] == "hand_over" and state["hand_number"] == 2
    store(game, state)

    page = page_for(cast[0])
    page.set_viewport_size({"width": width, "height": height})
    page.goto(game.get_absolute_url())
    screen = page.locator("#score-screen")
    page.wait_for_timeout(500)  # the socket's first push replaces the regions once
    # the total and the host's deal button together, on the first screen and once scrolled
    first_screen = page.evaluate(TOTAL_AND_DEAL)
    assert len(first_screen) == 2 and all(item["seen"] for item in first_screen), first_screen
    screen.evaluate("(el) => el.scrollIntoView()")
    scrolled = page.evaluate(TOTAL_AND_DEAL)
    assert all(item["seen"] for item in scrolled), scrolled
    assert " contre " in screen.inner_text()
    assert not page.evaluate(SIDEWAYS)
    SHOTS.mkdir(parents=True, exist_ok=True)
    rows = page.locator("#score-screen .score-lances")
    rows.screenshot(path=str(SHOTS / f"v3-score-{width}.png"))
    page.screenshot(path=str(SHOTS / f"v3-score-page-{width}.png"), full_page=True)

    page.locator(".past-hands__summary").click()
    assert page.locator(".past-hand").first.is_visible()
    assert not page.evaluate(SIDEWAYS)
    page.locator(".past-hands").evaluate("(el) => el.scrollIntoView()")
    page.locator("#hand-log").screenshot(path=str(SHOTS / f"v3-past-hands-{width}.png"))


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_a_held_ordago_says_who_won_the_partie(width, height, start_cast_table, page_for, cast):
    game = start_cast_table(7)
    state = engine.apply(game.state, 0, {"type": "cut"})
    state = engine.apply(state, 0, {"type": "ordago"})
    state = engine.apply(state, 1, {"type": "hold"})
    assert state["status"] == "finished"
    store(game, state)
    page = page_for(cast[1])
    page.set_viewport_size({"width": width, "height": height})
    page.goto(game.get_absolute_url())
    page.wait_for_timeout(500)  # the socket's first push replaces the regions once
    words = "Nous gagnons la partie" if state["winner"] == 1 else "Eux gagnent la partie"
    headline = page.locator(".score-headline")
    assert headline.inner_text() == f"Órdago tenu au Grand : {words}"
    assert headline.is_visible()
    assert not page.evaluate(SIDEWAYS), page.evaluate(WIDER)
    page.locator("#score-screen").screenshot(path=str(SHOTS / f"v3-ordago-{width}.png"))


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_answering_after_the_partner_raised(width, height, start_cast_table, page_for, cast):
    game = start_cast_table(7)
    state = engine.apply(game.state, 0, {"type": "cut"})
    state = engine.apply(state, 0, {"type": "bet", "amount": 2})
    state = engine.apply(state, 1, {"type": "raise", "to": 5})
    store(game, state)
    page = page_for(cast[3])
    page.set_viewport_size({"width": width, "height": height})
    page.goto(game.get_absolute_url())
    page.wait_for_timeout(500)  # the socket's first push replaces the regions once
    panel = page.locator("#decision-panel")
    assert "a relancé à 5. Je tiens : vous suivez sa relance" in panel.inner_text()
    assert panel.get_by_role("button", name="Je ne tiens pas").count() == 0
    raise_to = panel.locator("#raise-to")
    assert raise_to.get_attribute("min") == "6" and raise_to.input_value() == "6"
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel.screenshot(path=str(SHOTS / f"v3-answer-{width}.png"))
