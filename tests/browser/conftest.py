"""Browser tests: a real ASGI server (daphne, WebSockets included) on the test database, and
Debian's chromium driven by Playwright.

Fixtures
- ``asgi_server`` (session): daphne serving ``musweb.asgi:application`` on a free port, against
  pytest-django's test database and the test run's channel-layer prefix, so what a test writes
  through ``games.services`` (after commit) is pushed to the browsers, and what the browsers do
  is visible to the test's ORM. ``asgi_server.url`` is its base URL; its log is in
  ``asgi_server.log_path``. Started once, on first use.
- ``browser`` (session): headless chromium (``/usr/bin/chromium``; never downloaded).
- ``new_page()``: a fresh browser context (own cookies) and page, with ``base_url`` set, so
  ``page.goto("/salle/")`` works; closed after the test.
- ``page_for(user)``: like ``new_page()`` but already logged in as ``user`` (a session made with
  ``force_login``, so no sign-in form and no axes bookkeeping).
- ``start_cast_table(seed)``: the cast's table started with seeded decks; returns the game.
- ``in_thread(fn, *args, **kwargs)``: call a service from the test, e.g.
  ``in_thread(salle.seat_take, user=dani, table_id=t.pk, number=3)``. Playwright keeps an
  event loop in the test's thread, where the broadcast's ``async_to_sync`` cannot run; a plain
  thread can. Returns the result or raises the exception. Plain ORM reads and writes in the test
  itself are fine (see ``_orm_beside_playwright``).

The root conftest runs browser tests last (see pytest_collection_modifyitems there).
A browser test asks for ``transactional_db`` (the server reads committed rows only) and is
marked ``@pytest.mark.browser``. Example::

    @pytest.mark.browser
    def test_salle(transactional_db, cast, page_for):
        page = page_for(cast[0])
        page.goto("/salle/")
"""

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests import processes
from tests.browser.helpers import (
    CLOCK_RESERVE_SECONDS,
    CLOCK_SWEEP_SECONDS,
    CLOCK_TURN_SECONDS,
    NAVIGATION_MS,
    WAIT_MS,
)
from tests.helpers import other_sessions

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]


@dataclass
class AsgiServer:
    url: str
    process: object
    log_path: Path


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker):
    port = processes.free_port()
    process, log_path = processes.start_daphne(port, processes.server_env())
    try:
        yield AsgiServer(url=f"http://127.0.0.1:{port}", process=process, log_path=log_path)
    finally:
        processes.stop(process)


def wait_for_other_sessions_to_end(timeout=5.0) -> None:
    """Until no other process (the server handling the closed sockets) uses the test database:
    the flush that ends a transactional test would deadlock with its writes."""
    import time

    deadline = time.monotonic() + timeout
    while other_sessions() and time.monotonic() < deadline:
        time.sleep(0.05)


expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (see .ci/run)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _orm_beside_playwright(request, monkeypatch):
    """Playwright's sync API keeps an event loop in this thread; Django would then refuse ORM
    calls from the test itself. Allowed here, for browser tests only."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def in_thread():
    from django.db import connection

    def call(fn, *args, **kwargs):
        def run():
            try:
                return fn(*args, **kwargs)
            finally:
                connection.close()

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run).result(timeout=30)

    return call


@pytest.fixture
def start_cast_table(transactional_db, cast, in_thread):
    """start_cast_table(seed) -> the game of the cast's table (ane hosts, seats in cast order),
    started with two decks drawn from SeededShuffler(seed), ane first to speak."""
    from games.engine import SeededShuffler
    from games.engine.random_play import shuffled_deck
    from games.models import Game
    from games.services import salle

    def start(seed: int) -> Game:
        ane = cast[0]
        table = in_thread(salle.table_create, user=ane, kings=4)
        for number, user in enumerate(cast[1:], start=1):
            in_thread(salle.seat_take, user=user, table_id=table.pk, number=number)
        rng = SeededShuffler(seed)
        decks = [shuffled_deck(rng), shuffled_deck(rng)]
        in_thread(salle.table_start, user=ane, table_id=table.pk, decks=decks, first_mano=0)
        return Game.objects.get(table=table)

    return start


@pytest.fixture
def new_page(transactional_db, browser, asgi_server):
    """Asks for transactional_db itself, so the pages close (and the server writes what their
    closed sockets mean, games.services.presence) before the test's rows are flushed."""
    contexts = []

    def make():
        context = browser.new_context(base_url=asgi_server.url, locale="fr-FR")
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(NAVIGATION_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    if contexts:
        wait_for_other_sessions_to_end()


@pytest.fixture
def page_for(new_page, asgi_server):
    def make(user):
        client = Client()
        client.force_login(user)
        page = new_page()
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": asgi_server.url,
                }
            ]
        )
        return page

    return make


@pytest.fixture(scope="module")
def clock_worker(django_db_setup):
    """A real Celery worker and beat (tests.processes.CeleryStack) that play the
    turn clock's timed-out decisions (games.tasks.turn_time_out at the stored deadline, the
    sweep every CLOCK_SWEEP_SECONDS) and push them to the pages through the channel layer."""
    env = processes.server_env(SWEEP_SECONDS=CLOCK_SWEEP_SECONDS, LOG_LEVEL="INFO")
    with processes.celery_running(env) as stack:
        yield stack


@pytest.fixture
def short_clock(settings):
    """Every speed at CLOCK_TURN_SECONDS + CLOCK_RESERVE_SECONDS, the deal at CLOCK_TURN_SECONDS:
    the game's clock is written when the test process starts the table (games.services.clock
    copies the seconds into Game.clock, which the worker and the server then read)."""
    pair = (CLOCK_TURN_SECONDS, CLOCK_RESERVE_SECONDS)
    settings.TURN_CLOCKS = {"rapide": pair, "normal": pair, "lent": pair}
    settings.DEAL_SECONDS = CLOCK_TURN_SECONDS
    return pair
