"""Helpers of the browser tests: pages watched for Content-Security-Policy violations, the
table sockets awaited."""

import time

from playwright.sync_api import expect

from games.engine import observation
from games.models import SeatConnection
from games.services import play

#: How long an action or an expect() waits for its condition (Playwright's own is 5 s): the
#: suite shares a busy machine, where a push can take several seconds to reach a page. A
#: condition met returns at once; only a failure waits this long. A page load, longer still.
WAIT_MS, NAVIGATION_MS = 20_000, 30_000

#: Short clocks for the browser tests: seconds per decision and of reserve, and between sweeps.
# The turn leaves the four pages of `four_pages` 9 s to open (a busy machine takes 3 to 8).
CLOCK_TURN_SECONDS, CLOCK_RESERVE_SECONDS, CLOCK_SWEEP_SECONDS = 14, 4, 1

#: every violation the page reports, in the order it happens
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(
    event.violatedDirective + " blocked " + (event.blockedURI || "inline")
    + " at " + event.sourceFile + ":" + event.lineNumber
  );
});
"""


def watched(page):
    """The page, recording CSP violations (events and console errors) from its first script."""
    page.add_init_script(RECORD_VIOLATIONS)
    page.console_errors = []

    def note(message):
        if "Content Security Policy" in message.text:
            page.console_errors.append(message.text)

    page.on("console", note)
    return page


def visit(page, url):
    response = page.goto(url)
    assert response.status < 500, url
    assert response.headers["content-security-policy"].startswith("default-src 'self'")
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)  # late violations: deferred scripts, htmx's first processing
    assert_no_violation(page, url)


def assert_no_violation(page, where):
    assert page.evaluate("window.__violations") == [], where
    assert page.console_errors == [], where


def wait_connected(game, users, since=None, timeout=30.0):
    """Until each user has a table socket recorded (opened after `since`, if given)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = SeatConnection.objects.filter(game_seat__game=game)
        if since is not None:
            rows = rows.filter(connected_at__gte=since)
        if set(rows.values_list("game_seat__user", flat=True)) >= {u.pk for u in users}:
            return
        time.sleep(0.1)
    raise AssertionError("the table sockets did not (re)connect in time")


# ---------------------------------------------------------------- what is on screen

#: For every card and control: its box, and whether the point at its centre hits it (nothing
#: above it, e.g. a sticky bar) and its whole box lies in the viewport.
MEASURE = """
(selector) => Array.from(document.querySelectorAll(selector)).map(function (el) {
  var r = el.getBoundingClientRect();
  var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    name: el.getAttribute("aria-label") || el.textContent.trim() || el.name || el.id,
    top: Math.round(r.top), bottom: Math.round(r.bottom),
    left: Math.round(r.left), right: Math.round(r.right),
    inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
    uncovered: !!hit && (el === hit || el.contains(hit) || hit.contains(el)),
  };
})
"""
SIDEWAYS = """
document.documentElement.scrollWidth > innerWidth
|| Array.from(document.querySelectorAll("#score-screen, #score-screen table"))
     .some(function (el) { return el.scrollWidth > el.clientWidth; })
"""
CARDS = "#my-hand [data-card]"
CONTROLS = (
    "#decision-panel button, #decision-panel input[type=number],"
    " #score-screen button, #score-screen input[type=number]"
)


def act(game, cast, in_thread, choose):
    """One decision taken through the services by the first seat that may act."""
    game.refresh_from_db()
    state = game.state
    for seat in range(4):
        legal = {a["type"]: a for a in observation(state, seat)["legal"]}
        if legal:
            action = choose(seat, legal, state)
            in_thread(
                play.game_apply_action,
                user=cast[seat],
                version=state["version"],
                action=action,
                game_id=game.pk,
            )
            return
    raise AssertionError("nobody may act")


def wait_for(page, game):
    game.refresh_from_db()
    expect(page.locator("#decision-panel")).to_have_attribute("data-version", str(game.version))
