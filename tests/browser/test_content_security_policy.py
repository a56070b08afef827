"""Every kind of page works under the Content-Security-Policy with nothing blocked: the salle,
a started table (its WebSocket included), the rules, the log-in form, and the
admin's own pages (their scripts and styles)."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

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


def test_the_players_pages_run_under_the_policy(cast, page_for, new_page, start_cast_table):
    game = start_cast_table(2026)
    ane, bixente = (watched(page_for(user)) for user in cast[:2])
    visit(ane, "/salle/")
    expect(ane.locator("#salle-live")).to_be_attached()
    visit(bixente, f"/tables/{game.table_id}/")
    visit(ane, f"/tables/{game.table_id}/")
    version = ane.locator("#decision-panel").get_attribute("data-version")
    # A decision posted by htmx, then pushed to bixente over the WebSocket: 'self' lets the
    # same-origin ws: through.
    ane.get_by_role("button", name="Mus", exact=True).click()
    expect(bixente.locator("#decision-panel")).not_to_have_attribute("data-version", version)
    expect(bixente.locator("#scoreboard meter")).to_have_count(2)
    for page in (ane, bixente):
        assert_no_violation(page, "after a decision")

    anonymous = watched(new_page())
    for url in ("/", "/regles/", "/comptes/connexion/"):
        visit(anonymous, url)


def test_the_admin_runs_under_the_policy(cast, make_user, page_for, start_cast_table):
    game = start_cast_table(7)
    staff = watched(page_for(make_user("gorka", is_staff=True, is_superuser=True)))
    visit(staff, "/admin/")
    visit(staff, f"/admin/games/game/{game.pk}/change/")
    expect(staff.locator("#game_form")).to_be_visible()
    visit(staff, f"/admin/games/game/{game.pk}/rejouer/")
    visit(staff, f"/admin/accounts/user/{cast[1].pk}/change/")
    # The admin's own scripts ran: its collapsible navigation sidebar toggles.
    staff.locator("#toggle-nav-sidebar").click()
    assert_no_violation(staff, "after using the admin's script")
