"""The site in each language at a phone's and a laptop's size: the salle, the table in each
phase, the score screen and the rules page. Spanish and Basque words run longer than French:
no page scrolls sideways, no button's words overflow it, the cards and decisions stay on
screen. The screenshots (SHOTS_DIR) are for a person to look at."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import CARDS, CONTROLS, MEASURE, SIDEWAYS, act, wait_for

pytestmark = pytest.mark.browser

SIZES = [(360, 740), (1280, 800)]
SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots34"))

#: Buttons and links styled as buttons whose words do not fit their box (a cut word).
CUT = """
() => Array.from(document.querySelectorAll("button, .button, summary"))
  .filter(function (el) { return el.offsetParent !== null; })
  .filter(function (el) {
    return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  })
  .map(function (el) { return el.textContent.trim(); })
"""


def look(page, language, name, *, table=False, cards=True):
    """Both sizes: a screenshot each, and what would trip a player. `cards`: the viewer's
    hand under the table must be on screen too (not on the score screen, which shows it)."""
    failures = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(50)
        page.screenshot(path=str(SHOTS / f"{language}-{name}-{width}x{height}.png"))
        where = f"{language} {name} {width}x{height}"
        if page.evaluate("document.documentElement.scrollWidth > innerWidth"):
            failures.append(f"{where}: scrolls sideways")
        failures += [f"{where}: words overflow « {text} »" for text in page.evaluate(CUT)]
        if table:
            if page.evaluate(SIDEWAYS):
                failures.append(f"{where}: the score table scrolls sideways")
            mine = page.evaluate(MEASURE, CARDS) if cards else []
            for item in mine + page.evaluate(MEASURE, CONTROLS):
                if not (item["inside"] and item["uncovered"]):
                    failures.append(f"{where}: off screen {item}")
    return failures


@pytest.mark.parametrize("language", ["fr", "es", "eu", "en"])
def test_each_language_fits_the_screen(language, cast, page_for, start_cast_table, in_thread):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for user in cast:
        user.language = language
        user.save(update_fields=["language"])
    failures = []
    page = page_for(cast[0])  # ane: the host, mano and first to speak
    page.goto("/salle/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    failures += look(page, language, "salle")
    page.goto("/regles/")
    failures += look(page, language, "rules")

    game = start_cast_table(2026)
    page.goto(f"/tables/{game.table_id}/")
    wait_for(page, game)
    failures += look(page, language, "1-mus", table=True)
    for _ in range(4):
        act(game, cast, in_thread, lambda seat, legal, state: {"type": "mus"})
    wait_for(page, game)
    expect(page.locator("#my-hand input[type=checkbox]")).to_have_count(4)
    failures += look(page, language, "2-discard", table=True)

    def discard_one(seat, legal, state):
        return {"type": "discard", "cards": state["hand"]["cards"][seat][:1]}

    for _ in range(4):
        act(game, cast, in_thread, discard_one)
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "cut"})
    wait_for(page, game)
    failures += look(page, language, "3-bet", table=True)
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "pass"})
    act(game, cast, in_thread, lambda seat, legal, state: {"type": "bet", "amount": 2})
    wait_for(page, game)
    failures += look(page, language, "4-answer", table=True)

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
    # The score screen shows the viewer's four cards at its top: the hand below may be lower.
    failures += look(page, language, "5-score", table=True, cards=False)
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=str(SHOTS / f"{language}-5-score-360-full.png"), full_page=True)
    assert not failures, "\n".join(failures)
