"""Leaving and coming back in real browsers: the others see the countdown tick, the player who
comes back finds the same seat and cards; a restarted web process loses nothing."""

import re
import time

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests import processes
from tests.browser.helpers import WAIT_MS, wait_connected

pytestmark = pytest.mark.browser

AWAY = re.compile(r"dani a perdu la connexion — place gardée (\d):(\d\d)")


@pytest.fixture
def started(start_cast_table):
    return start_cast_table(55)


def my_cards(page) -> list[str]:
    cards = page.locator("#my-hand [data-card]")
    expect(cards).to_have_count(4)
    return [cards.nth(i).get_attribute("data-card") for i in range(4)]


def seconds_shown(page) -> int:
    text = page.locator("#table-seats").inner_text()
    found = AWAY.search(text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_a_page_closes_the_others_see_the_countdown_the_player_comes_back(started, cast, page_for):
    ane, _, _, dani = cast
    url = f"/tables/{started.table_id}/"
    watcher, leaver = page_for(ane), page_for(dani)
    watcher.goto(url)
    leaver.goto(url)
    cards = my_cards(leaver)
    wait_connected(started, [ane, dani])

    leaver.close()
    seats = watcher.locator("#table-seats")
    expect(seats).to_contain_text(AWAY, timeout=10000)
    first = seconds_shown(watcher)
    assert 55 <= first <= 60
    # It ticks on the page (nothing is pushed meanwhile); polled, as a loaded machine may run
    # the page's one-second timer late.
    ticked = time.monotonic() + 8
    while seconds_shown(watcher) > first - 2 and time.monotonic() < ticked:
        time.sleep(0.2)
    assert seconds_shown(watcher) <= first - 2

    back = page_for(dani)
    back.goto(url)
    assert my_cards(back) == cards
    expect(seats).not_to_contain_text("a perdu la connexion", timeout=10000)
    started.refresh_from_db()
    assert started.status == Game.Status.PLAYING and started.version == 0


def test_the_web_process_restarts_the_pages_reconnect_and_play_on(started, cast, browser):
    ane, bixente = cast[:2]
    port = processes.free_port()
    url = f"http://127.0.0.1:{port}"
    env = processes.server_env()
    server, log_path = processes.start_daphne(port, env)
    try:
        pages = []
        for user in (ane, bixente):
            client = Client()
            client.force_login(user)
            context = browser.new_context(base_url=url, locale="fr-FR")
            context.set_default_timeout(WAIT_MS)
            cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}
            context.add_cookies([cookie])
            page = context.new_page()
            page.goto(f"/tables/{started.table_id}/")
            pages.append(page)
        cards = my_cards(pages[0])
        wait_connected(started, [ane, bixente])

        processes.stop(server)
        restarted = timezone.now()
        server, log_path = processes.start_daphne(port, env)
        wait_connected(started, [ane, bixente], since=restarted)

        pages[0].locator("#decision-panel").get_by_role("button", name="Mus").click()
        for page in pages:
            expect(page.locator("#decision-panel")).to_have_attribute("data-version", "1")
        assert my_cards(pages[0]) == cards
        started.refresh_from_db()
        assert started.version == 1 and started.status == Game.Status.PLAYING
        for page in pages:
            page.context.close()
    finally:
        processes.stop(server)
