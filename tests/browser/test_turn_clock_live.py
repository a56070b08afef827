"""The turn clock in four real browsers: everyone sees the clock of the player to act count
down, its last seconds marked, and the decision the site makes when it runs out, « temps
écoulé », played by a real Celery worker at the stored deadline.

Measured (printed with -s): the delay between a clock's end and the timed-out decision on all
four pages, with the worker alive and with the worker killed (the beat's sweep on a new worker
plays it)."""

import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import CLOCK_SWEEP_SECONDS, CLOCK_TURN_SECONDS
from tests.processes import wait_for_line

pytestmark = pytest.mark.browser

#: Set to a folder to keep screenshots of the table with a running clock (phone and desktop).
SHOTS = os.environ.get("TURN_CLOCK_SHOTS")

#: Notes the page's time when its hand log first says « temps écoulé ».
WATCH_TIMED_OUT = """() => {
  window.timedOutAt = null;
  const look = () => {
    const log = document.getElementById("hand-log");
    if (!window.timedOutAt && log && log.textContent.includes("temps écoulé")) {
      window.timedOutAt = Date.now();
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true});
  look();
}"""


#: Notes what the page's running clock showed once its turn's seconds were spent: the reserve
#: running, then its last seconds marked (the label's text, and whether it was on screen).
#: Noted as it happens, so that four pages checked one after the other on a busy machine need
#: not all be looked at within the reserve's last seconds.
WATCH_URGENT = """() => {
  window.clockSeen = {reserve: false, urgent: false, label: null, labelShown: false};
  const look = () => {
    const running = document.querySelector("#table-seats .tclock--running");
    if (!running) { return; }
    const seen = window.clockSeen;
    if (running.classList.contains("tclock--reserve")) { seen.reserve = true; }
    if (running.classList.contains("tclock--urgent") && !seen.urgent) {
      const label = running.querySelector("[data-clock-urgent]");
      seen.urgent = true;
      seen.label = label ? label.textContent.trim() : null;
      seen.labelShown = Boolean(label && label.checkVisibility());
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
  look();
}"""


def until(page, script: str, timeout_s: float):
    """The value of `script` in `page` once truthy, polled (the site's CSP refuses
    wait_for_function's eval), within `timeout_s` seconds."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(script)
        if value or time.monotonic() > deadline:
            return value
        page.wait_for_timeout(100)


@pytest.fixture
def four_pages(short_clock, clock_worker, asgi_server, browser, start_cast_table, cast, page_for):
    """The cast's table started (ane to speak) with the short clock, open in four pages; and
    ane's first deadline (ms)."""
    if clock_worker.worker is None:
        clock_worker.start_worker()
    clock_worker.log_offset = len(clock_worker.worker_output())  # this game's tasks after it
    game = start_cast_table(14)
    deadline = game.clock["seats"][0]["deadline"]
    pages = []
    for user in cast:
        page = page_for(user)
        page.goto(f"/tables/{game.table_id}/")
        pages.append(page)
    for page in pages:
        expect(page.locator("#table-seats .tclock--running")).to_have_count(1)
    assert time.time() * 1000 < deadline - 5000, "the pages took too long to open"
    return game, pages, deadline


def seconds(text: str) -> int:
    minutes, secs = text.strip().split(":")
    return int(minutes) * 60 + int(secs)


def wait_timed_out(pages, deadline_ms: int) -> list[int]:
    """Until all four hand logs say « temps écoulé »; each page's delay after the deadline, ms."""
    delays = []
    for page in pages:
        expect(page.locator("#hand-log")).to_contain_text("temps écoulé", timeout=40000)
        delays.append(page.evaluate("() => window.timedOutAt") - deadline_ms)
    return delays


def test_all_four_see_the_clock_count_down_then_the_decision_made_for_the_late_player(
    four_pages, cast
):
    game, pages, deadline = four_pages
    for page in pages:
        page.evaluate(WATCH_TIMED_OUT)
        page.evaluate(WATCH_URGENT)
    # Ane's seat (the first to speak) carries the running clock on every page; the reserves
    # of all four are shown; ane also has it in her panel.
    for page in pages:
        ane_seat = page.locator(".tseat:has(.tseat__name strong:text-is('ane'))")
        expect(ane_seat.locator(".tclock--running")).to_have_count(1)
        expect(page.locator("#table-seats .tclock__reserve")).to_have_count(4)
    expect(pages[0].locator("#decision-panel .tclock--running")).to_have_count(1)
    for page in pages[1:]:
        expect(page.locator("#decision-panel .tclock")).to_have_count(0)

    turn = pages[2].locator("#table-seats .tclock--running [data-clock-turn]")
    shown = turn.inner_text()
    first = seconds(shown)
    assert 1 <= first <= CLOCK_TURN_SECONDS
    expect(turn).not_to_have_text(shown)  # the next second, however late it is drawn
    assert seconds(turn.inner_text()) < first

    # The decision time spent, the reserve runs and its last seconds are marked, for all four
    # (as each page noted it: the clock has moved on by the time the last page is read).
    delays = wait_timed_out(pages, deadline)
    for page in pages:
        seen = until(page, "() => window.clockSeen.urgent && window.clockSeen", 5)
        assert seen == {
            "reserve": True,
            "urgent": True,
            "label": "dernières secondes !",
            "labelShown": True,
        }, seen
    print(f"\nclock end -> decision on the four pages (worker alive): {delays} ms")
    for page in pages:
        assert "ane : " in page.locator("#hand-log").inner_text().lower()
        expect(page.locator(".bubble--timed-out")).to_have_count(1)
    game.refresh_from_db()
    assert game.version >= 1 and game.state["hand"]["words"][0]["type"] == "cut"
    assert game.clock["timed_out"][0]["seat"] == 0


def test_with_the_worker_killed_the_sweep_of_a_new_worker_plays_the_decision(
    four_pages, clock_worker
):
    game, pages, deadline = four_pages
    for page in pages:
        page.evaluate(WATCH_TIMED_OUT)
    # it holds the task due at the deadline (taken: unacked, held until its eta)
    taken = "games.tasks.turn_time_out["
    deadline_s = time.monotonic() + 30
    while time.monotonic() < deadline_s:
        if taken in clock_worker.worker_output()[clock_worker.log_offset :]:
            break
        pages[0].wait_for_timeout(50)  # (Playwright's loop runs meanwhile)
    else:
        raise AssertionError(f"the worker never took the task:\n{clock_worker.worker_output()}")
    clock_worker.stop_worker()
    # A new worker, started before the deadline; the killed one's task is not handed back
    # (Redis redelivers it only after its visibility timeout): the sweep must play it.
    clock_worker.start_worker()
    delays = wait_timed_out(pages, deadline)
    print(f"\nclock end -> decision on the four pages (worker killed): {delays} ms")
    # the sweep played it (its count in the worker's log); the delay within a generous bound
    wait_for_line(clock_worker.worker_log, "'timed_out': 1", clock_worker.worker)
    assert max(delays) < (CLOCK_SWEEP_SECONDS + 10) * 1000
    game.refresh_from_db()
    assert len([e for e in game.clock["timed_out"] if e["seat"] == 0]) == 1


def test_the_running_clock_is_on_screen_on_a_phone_and_a_desktop(four_pages, tmp_path):
    """The player to act sees their clock without scrolling, and so does their partner; the
    screenshots (TURN_CLOCK_SHOTS names a folder to keep them) are for a person to look at."""
    game, pages, _ = four_pages
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    for name, (width, height) in (("phone", (360, 740)), ("desktop", (1280, 800))):
        for who, page in (("ane", pages[0]), ("camille", pages[2])):
            page.set_viewport_size({"width": width, "height": height})
            clock = page.locator(".tclock--running").first
            expect(clock).to_be_visible()
            box = clock.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
                name,
                who,
                box,
            )
            page.screenshot(path=folder / f"clock-{name}-{who}.png", full_page=True)
