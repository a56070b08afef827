"""Robots in a real browser: the host places and takes back a robot in the salle; « Jouer contre
les robots » opens the table at once and one hand is played against three robots, whose
decisions a real Celery worker makes (ROBOT_PAUSE_SECONDS 0), to the score screen, where each
robot is marked « robot ».

ROBOTS_SHOTS=/some/folder keeps screenshots (phone 360×740 and desktop 1280×800) of the salle
with robot seats, the practice table and its score screen."""

import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from games import engine
from games.display import answers
from games.models import Game, Table

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("ROBOTS_SHOTS")
SIZES = {"phone": (360, 740), "desktop": (1280, 800)}


def shoot(page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}/{name}-{size}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_host_places_and_takes_back_a_robot(transactional_db, ane, page_for):
    page = page_for(ane)
    page.goto("/salle/")
    page.get_by_role("button", name="Ouvrir la table").click()
    expect(page.get_by_role("button", name="Placer un robot à la place 2")).to_be_visible()
    page.get_by_label("Niveau du robot à la place 2").select_option(label="Débutant")
    page.get_by_role("button", name="Placer un robot à la place 2").click()
    page.get_by_role("button", name="Placer un robot à la place 4").click()
    seat = page.locator(".my-table .seat[data-seat='1']")
    expect(seat.locator(".badge-robot")).to_have_text("robot · Débutant")
    expect(page.locator(".my-table .seat[data-seat='3'] .badge-robot")).to_have_text(
        "robot · Expert"
    )
    expect(page.locator(".my-table .badge-robot")).to_have_count(2)
    shoot(page, "salle-robots")
    page.get_by_role("button", name="Retirer le robot").first.click()
    expect(page.locator(".my-table .badge-robot")).to_have_count(1)
    expect(page.get_by_role("button", name="Placer un robot à la place 2")).to_be_visible()


def test_a_chosen_level_stays_chosen_when_a_push_redraws_the_salle(
    transactional_db, ane, bixente, page_for, in_thread
):
    from games.services import salle

    page = page_for(ane)
    page.goto("/salle/")
    expect(page.locator("#salle")).to_have_attribute("data-pushed", "1")
    page.get_by_role("button", name="Ouvrir la table").click()
    level = page.get_by_label("Niveau du robot à la place 2")
    level.select_option(label="Débutant")
    table = Table.objects.get(host=ane)
    in_thread(salle.seat_take, user=bixente, table_id=table.pk, number=3)  # a push to ane
    expect(page.locator(".my-table .seat[data-seat='3'] .player")).to_contain_text("bixente")
    expect(page.get_by_label("Niveau du robot à la place 2")).to_have_value("debutant")


@pytest.fixture
def robot_worker(clock_worker):
    if clock_worker.worker is None:
        clock_worker.start_worker()
    return clock_worker


def choose(page, state) -> None:
    """Ane's decision, the one the clock would make, clicked as a player would; when the panel
    does not offer it (her partner held: refusing no longer changes the team's answer), the
    first answer it offers."""
    action = engine.timeout_action(state, 0)
    shown, _note = answers.answer_choices(engine.observation(state, 0), 0, "")
    if action["type"] not in {item["type"] for item in shown}:
        action = {"type": shown[0]["type"]}
    if action["type"] == "discard":
        for code in action["cards"]:
            page.locator(f"#my-hand input[name='cards'][value='{code}']").check()
        page.locator("#discard-form button[type='submit']").click()
        return
    form = page.locator(f"#decision-panel form:has(input[name='type'][value='{action['type']}'])")
    click_through_pushes(form.locator("button[type='submit']").first)


def click_through_pushes(button) -> None:
    """Click, again if a push re-rendered the panel under the pointer each time (the locator
    finds the new button; on a loaded machine pushes may land during several tries)."""
    for _ in range(3):
        try:
            button.click(timeout=4000)
            return
        except PlaywrightTimeoutError:
            continue
    button.click(timeout=4000)


def panel_caught_up(page, table, timeout: float = 5.0) -> Game:
    """The game, once the decision panel shows its current version."""
    deadline = time.monotonic() + timeout
    panel_version = page.locator("#decision-panel input[name='version']").first
    while True:
        game = Game.objects.get(table=table)
        if panel_version.count() and panel_version.input_value() == str(game.version):
            return game
        assert time.monotonic() < deadline, "the panel did not catch up with the game"
        time.sleep(0.1)


def wait_version_past(table, version: int, timeout: float = 5.0) -> bool:
    """Until the game has moved past `version` (the click reached the server); False if it did
    not within `timeout` (a push redrew the button as it was clicked: the caller tries again,
    within the hand's own deadline)."""
    deadline = time.monotonic() + timeout
    while Game.objects.get(table=table).version <= version:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_one_hand_against_three_robots(robot_worker, ane, page_for):
    page = page_for(ane)
    page.goto("/salle/")
    shoot(page, "salle-practice")
    form = page.locator("form.practice-table")
    form.get_by_label("Mus · 4 rois").check()
    form.get_by_label("Niveau des robots").select_option(label="Confirmé")
    form.get_by_role("button", name="Jouer contre les robots").click()
    # htmx's HX-Redirect and the salle socket's push of the started table both go there
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=10000)
    expect(page.locator("#table-seats")).to_be_visible()
    table = Table.objects.get(host=ane)
    assert table.status == Table.Status.PLAYING
    expect(page.locator("#table-seats .badge-robot")).to_have_count(3)
    expect(page.locator("#table-seats .badge-robot").first).to_have_text("robot · Confirmé")
    shoot(page, "practice-table")
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the hand did not end"
        game = Game.objects.get(table=table)
        state = game.state
        if state["status"] != "playing":
            break
        if 0 in engine.to_act(state):
            # robots of the simultaneous discard may move the game on meanwhile: decide on
            # the version the page shows once it shows the game's latest
            game = panel_caught_up(page, table)
            if game.state["status"] == "playing" and 0 in engine.to_act(game.state):
                try:
                    choose(page, game.state)
                except PlaywrightTimeoutError:
                    # ane's robot partner answered the team's envite first: no button left
                    if Game.objects.get(table=table).version == game.version:
                        raise
                    continue
                wait_version_past(table, game.version)
        else:
            time.sleep(0.2)
    score = page.locator("#score-screen")
    expect(score).to_be_visible(timeout=10000)
    game = Game.objects.get(table=table)
    shown = 3 if game.state["hand"].get("hands_shown") else 0
    expect(score.locator(".shown-hand .badge-robot")).to_have_count(shown)
    expect(page.locator("#table-seats .badge-robot")).to_have_count(3)
    expect(page.locator("#away-banner")).to_be_hidden()
    shoot(page, "score-screen")
    game = Game.objects.get(table=table)
    # the hand is over, or it ended the partie (an órdago held: the robots' choice too)
    assert (game.status, game.state["status"]) in (
        (Game.Status.PLAYING, "hand_over"),
        (Game.Status.FINISHED, "finished"),
    )
    assert not game.clock["timed_out"]
