"""« Revoir avec le robot », « Trouvez mieux », « Conseil » and « Aide » in chromium at a
phone's and a laptop's size: nothing wider than the screen, no policy violation, no serious
axe finding; the progress polls until the review is there; « Aide » is remembered across a
reload. Screenshots in /tmp/shots/review/ to look at."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.engine import review as analysis
from games.engine.random_play import DEFAULT_WEIGHTS
from games.models import Game
from games.services import robots, salle
from reviews import services
from tests.browser.axe import assert_clean, axe_problems
from tests.browser.helpers import WAIT_MS, visit, watched
from tests.records.helpers import play_out, start

pytestmark = pytest.mark.browser

LONG_PLAY = dict(DEFAULT_WEIGHTS, ordago=2, ordago_vote=0, mus=90)

SHOTS = Path("/tmp/shots/review")
SIZES = {"phone": (360, 740), "laptop": (1280, 800)}


WIDEST = """() => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 3).map((e) => e.tagName + "." + e.className + " " + e.getBoundingClientRect().right)
  .concat([document.documentElement.clientWidth, window.innerWidth])"""


def fits(page, width, name):
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, (name, wide, page.evaluate(WIDEST))


def test_the_review_pages_fit_and_are_accessible(cast, page_for, in_thread, monkeypatch):
    monkeypatch.setattr(analysis, "SAMPLES", 4)
    game = in_thread(lambda: play_out(start(cast), seed=3, weights=LONG_PLAY))
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    page = watched(page_for(cast[0]))
    page.set_viewport_size({"width": 360, "height": 740})
    visit(page, f"/parties/{game.pk}/revue/")
    expect(page.locator("#review-progress")).to_be_visible()
    page.screenshot(path=str(SHOTS / "progress-phone.png"), full_page=True)
    problems += axe_problems(page, "revue en cours")
    in_thread(services.review_partie, game_id=game.pk)
    # the poll sees it ready and the page reloads with the review
    expect(page.locator(".review-summary")).to_be_visible(timeout=WAIT_MS)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for name, url in (
            ("review", f"/parties/{game.pk}/revue/"),
            ("trouvez", f"/parties/{game.pk}/revue/?mode=trouvez"),
            ("trouvez-answer", f"/parties/{game.pk}/revue/?mode=trouvez&n=1&choix=0"),
        ):
            # a full-page shot of a tall page leaves chromium at its default size: set it again
            page.set_viewport_size({"width": width, "height": height})
            visit(page, url)
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=name != "review")
            fits(page, width, f"{name}-{size}")
            problems += axe_problems(page, f"{name} {size}")
    assert_clean(problems)


def test_conseil_and_aide_at_a_practice_table(make_user, page_for, in_thread):
    eva = make_user("eva")

    def practice():
        table = salle.table_create(user=eva, kings=4)
        robots.robots_fill(user=eva, table_id=table.pk)
        salle.table_start(user=eva, table_id=table.pk, first_mano=0)
        return Game.objects.get(table=table)

    game = in_thread(practice)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for size, (width, height) in SIZES.items():
        page = watched(page_for(eva))
        page.set_viewport_size({"width": width, "height": height})
        visit(page, f"/tables/{game.table_id}/")
        aide = page.locator("[data-aide-toggle]")
        expect(aide).to_be_visible(timeout=WAIT_MS)
        if aide.get_attribute("aria-pressed") != "true":
            aide.click()
        expect(page.locator("#tpanel-help")).to_be_visible()
        page.get_by_role("button", name="Conseil").click()  # up the table's socket
        expect(page.locator(".tpanel__advice-line")).to_be_visible(timeout=WAIT_MS)
        fits(page, width, f"table-{size}")
        page.screenshot(path=str(SHOTS / f"conseil-aide-{size}.png"), full_page=True)
        problems += axe_problems(page, f"conseil {size}")
        page.reload()
        expect(page.locator("#tpanel-help")).to_be_visible(timeout=WAIT_MS)  # remembered
        expect(page.locator("[data-aide-toggle]")).to_have_attribute("aria-pressed", "true")
        page.locator("[data-aide-toggle]").click()
        expect(page.locator("#tpanel-help")).to_be_hidden()
    assert_clean(problems)
