"""Every kind of page works under the Content-Security-Policy with nothing blocked: the salle,
a started table (its WebSocket included), the rules, the log-in form, and the
admin's own pages (their scripts and styles)."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import assert_no_violation, visit, watched

pytestmark = pytest.mark.browser


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
