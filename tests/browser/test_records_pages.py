"""The records' pages in chromium at a phone's and a laptop's size: nothing wider than the
screen, no policy violation, the replay's ←/→ keys; screenshots in /tmp/shots/records/ to
look at."""

from pathlib import Path

import pytest

from games.engine.random_play import DEFAULT_WEIGHTS
from games.services import salle
from tests.browser.helpers import visit, watched
from tests.records.helpers import cancel_by_absence, play_out, start

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/records")
SIZES = {"phone": (360, 740), "laptop": (1280, 800)}


def test_the_records_pages_fit_and_obey_the_policy(cast, page_for, in_thread):
    long_play = dict(DEFAULT_WEIGHTS, ordago=2, ordago_vote=0, mus=90)
    game = in_thread(lambda: play_out(start(cast), seed=3, weights=long_play))
    for seed in (4, 5, 6, 7):  # five rated parties: everyone in the classement
        in_thread(lambda s=seed: play_out(start(cast), seed=s))
    in_thread(lambda: cancel_by_absence(start(cast), seat=1))
    ane, bixente, camille, dani = cast
    table = in_thread(salle.table_create, user=bixente, kings=8, min_completion=80)
    in_thread(salle.seat_take, user=dani, table_id=table.pk, number=1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page = watched(page_for(ane))
        page.set_viewport_size({"width": width, "height": height})
        for name, url in (
            ("partie", f"/parties/{game.pk}/?step=6"),
            ("profile", "/joueurs/ane/"),
            ("classement", "/classement/"),
            ("salle", "/salle/"),
        ):
            visit(page, url)
            if name == "salle":
                assert page.locator(".reputation").count() == 2
            if name == "classement":
                assert page.locator(".classement tbody tr").count() == 4
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (name, size, wide)
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
        visit(page, f"/parties/{game.pk}/?step=6")
        page.keyboard.press("ArrowRight")
        page.wait_for_url("**step=7**")
        page.keyboard.press("ArrowLeft")
        page.wait_for_url("**step=6**")
        assert page.locator(".replay-state").get_attribute("data-step") == "6"
