""" "Annuler le classement" in chromium: a moderator voids a finished partie from its admin
page (the reason page at a laptop's and a phone's size), then its player sees the notice on
the partie page. Screenshots in /tmp/shots/correction/ to look at."""

from pathlib import Path

import pytest
from django.contrib.auth.models import Permission

from moderation.models import StaffAction
from records.models import RatingVoid
from tests.browser.helpers import visit, watched
from tests.records.helpers import play_out, start

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/correction")
SIZES = {"phone": (360, 740), "laptop": (1280, 800)}


def test_a_moderator_voids_a_partie_and_its_players_see_it(cast, make_user, page_for, in_thread):
    game = in_thread(lambda: play_out(start(cast), seed=3))

    def moderator():
        user = make_user("mikel", is_staff=True)
        user.user_permissions.add(Permission.objects.get(codename="can_moderate"))
        return user

    mikel = in_thread(moderator)
    SHOTS.mkdir(parents=True, exist_ok=True)
    admin_page = f"/admin/games/game/{game.pk}/change/"
    for size, (width, height) in SIZES.items():
        page = watched(page_for(mikel))
        page.set_viewport_size({"width": width, "height": height})
        visit(page, admin_page)
        page.get_by_role("button", name="Annuler le classement").click()
        page.wait_for_load_state("load")
        assert page.locator('textarea[name="reason"]').is_visible()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, (size, wide)
        page.screenshot(path=str(SHOTS / f"admin-reason-{size}.png"), full_page=True)
        if size == "laptop":
            page.fill('textarea[name="reason"]', "Entente entre les quatre joueurs")
            page.get_by_role("button", name="Annuler le classement de la partie").click()
            page.wait_for_url(f"**{admin_page}")
            page.screenshot(path=str(SHOTS / f"admin-voided-{size}.png"), full_page=True)
            assert page.get_by_role("button", name="Rétablir le classement").is_visible()
    assert in_thread(lambda: RatingVoid.objects.filter(game=game).exists())
    assert in_thread(lambda: StaffAction.objects.get().reason) == "Entente entre les quatre joueurs"
    for size, (width, height) in SIZES.items():
        page = watched(page_for(cast[0]))
        page.set_viewport_size({"width": width, "height": height})
        visit(page, f"/parties/{game.pk}/")
        notice = page.locator(".partie-void")
        assert notice.is_visible()
        assert "Classement annulé par la modération" in notice.inner_text()
        assert "Entente" not in page.content()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, (size, wide)
        page.screenshot(path=str(SHOTS / f"partie-{size}.png"))
        visit(page, "/joueurs/ane/")
        page.screenshot(path=str(SHOTS / f"profile-{size}.png"), full_page=True)
