"""Shared fixtures. Tests run against the real PostgreSQL and Redis (see the README).

The cast: four players, `ane`, `bixente`, `camille` and `dani`, all with the password
`PASSWORD`. `login(user)` gives a Django test client logged in as that user;
`open_table` is a 4-rois table hosted by ane (seat 0); `full_table` is an open table with the
four of them at seats 0 (ane), 1 (bixente), 2 (camille), 3 (dani), not started yet;
`started_game` is its partie, started with ane mano.
"""

import functools
import inspect
import os
import signal
import time

import pytest
from django.test import Client

from tests.helpers import (
    CELERY_QUEUE,
    CHANNELS_PREFIX,
    PASSWORD,
    RATELIMIT_PREFIX,
    other_sessions,
    terminate_other_sessions,
)


def pytest_configure(config):
    from django.conf import settings

    from musweb.celery import app

    layer = settings.CHANNEL_LAYERS["default"]
    settings.CHANNEL_LAYERS = {
        "default": {**layer, "CONFIG": {**layer["CONFIG"], "prefix": CHANNELS_PREFIX}}
    }
    settings.CELERY_TASK_DEFAULT_QUEUE = CELERY_QUEUE
    settings.RATELIMIT_PREFIX = RATELIMIT_PREFIX
    # The sockets' heartbeats reach the database within a fifth of a second, not one.
    settings.HEARTBEAT_FLUSH_SECONDS = 0.2
    # Tests play faster than any person: the decisions' limit is tested on its own
    # (tests/games/test_decision_limits.py sets the site's value back).
    settings.DECISIONS_PER_SECOND = 1000
    # Robots act at once (the pause is for people watching).
    settings.ROBOT_PAUSE_SECONDS = 0
    # Pages render {% static %} without a collectstatic first: no manifest of hashed names.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    app.conf.task_default_queue = CELERY_QUEUE
    # The reviews' queue is this run's too (no worker of a running site takes the tests' tasks).
    settings.REVIEW_QUEUE = f"{CELERY_QUEUE}-reviews"
    settings.CELERY_TASK_ROUTES = {"reviews.tasks.review_partie": {"queue": settings.REVIEW_QUEUE}}
    app.conf.task_routes = settings.CELERY_TASK_ROUTES
    flush_again_after_a_deadlock()


def flush_again_after_a_deadlock(attempts: int = 3) -> None:
    """A transactional test's flush (one TRUNCATE of every table) runs while the workers and
    servers some modules keep for all their tests may still hold a row of a table it has yet
    to lock: PostgreSQL then ends one of the two as a deadlock. When the flush is the one
    ended, it is tried again (the other side's transaction is over by then)."""
    from django.core.management import CommandError
    from django.test import TransactionTestCase
    from psycopg.errors import DeadlockDetected

    flush = TransactionTestCase._fixture_teardown

    def deadlocked(error: BaseException | None) -> bool:
        while error is not None and not isinstance(error, DeadlockDetected):
            error = error.__cause__
        return error is not None

    def _fixture_teardown(self):
        for attempt in range(1, attempts + 1):
            try:
                return flush(self)
            except CommandError as error:  # the flush command's, from the database's
                if attempt == attempts or not deadlocked(error):
                    raise

    TransactionTestCase._fixture_teardown = _fixture_teardown


def pytest_unconfigure(config):
    """Drop the run's queues (tasks scheduled by sockets with no worker to run them)."""
    import redis
    from django.conf import settings

    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
        for queue in (CELERY_QUEUE, f"{CELERY_QUEUE}-reviews"):
            client.delete(queue, f"_kombu.binding.{queue}")
    except redis.RedisError:
        pass


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright's sync API leaves an event loop running in the main thread
    for as long as the session-scoped browser lives, which async tests cannot share.
    Every async test gets `sockets_left_open_closed` (an async fixture: sync tests, the browser
    tests among them, must not get one), set up last so that it is torn down first."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    for item in items:
        if inspect.iscoroutinefunction(getattr(item, "obj", None)):
            item.fixturenames.append("sockets_left_open_closed")


@pytest.fixture
async def sockets_left_open_closed():
    """One failed socket test stays one failure: what it left open is closed on its own event
    loop, before the loop and the database rows go, and every pooled connection its threads
    took must be back (tests.sockets.close_left_open)."""
    from tests.sockets import OPENED, close_left_open, held_connections

    OPENED.clear()
    held_before = held_connections()  # the sync fixtures' connection, set up before this one
    yield
    await close_left_open(held_before)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel-layer instance per test: the cached one keeps asyncio locks bound to the
    event loop of an earlier async test (pytest-asyncio gives each test its own loop)."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
    yield
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)


@pytest.fixture(autouse=True)
def fresh_heartbeats():
    """No table socket of an earlier test is watched, and no flushing (lost-push checking,
    push fan-out) loop of its event loop is kept."""
    from games.live import consumers, loops  # noqa: F401 (the consumers' loops are made)

    loops.reset_all()
    yield
    loops.reset_all()


@pytest.fixture(autouse=True)
def site_language():
    """Every test starts in the site's language: a request through the test client leaves the
    language LocaleMiddleware chose active in the thread (nothing deactivates it), so a test
    after a Basque request rendered Basque where it expected French."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """No test inherits another's rate-limit counters."""
    from core import ratelimit

    ratelimit.forget_all()
    yield
    ratelimit.forget_all()


@pytest.fixture(autouse=True)
def fresh_game_snapshots():
    """The sockets' per-process game cache starts empty in every test."""
    from games.display import game_cache

    game_cache.forget_all()
    yield
    game_cache.forget_all()


@pytest.fixture(autouse=True)
def fresh_ended_replays():
    """The partie pages' kept rebuilds (games.display.partie) start empty in every test."""
    from games.display.partie import forget_ended_replays

    forget_ended_replays()
    yield
    forget_ended_replays()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """One test database per run (test_barajamos_<pid>, dropped at the end), so two `make test`
    in the same checkout do not drop each other's database."""
    from django.db import connections

    for alias in connections:
        settings_dict = connections[alias].settings_dict
        settings_dict.setdefault("TEST", {})["NAME"] = f"test_{settings_dict['NAME']}_{os.getpid()}"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, and before it drops the run's database: end the sessions other
    processes or threads still hold on it (a socket's render thread, a server handling a last
    disconnect), which would make the drop fail ("is being accessed by other users")."""
    yield
    with django_db_blocker.unblock():
        for _ in range(50):
            if not other_sessions():
                break
            terminate_other_sessions()
            time.sleep(0.1)


@pytest.fixture
def worker(celery_stack, transactional_db):
    """The package's Celery stack with its worker running, for this test only (the worker sees
    committed rows: a transactional database). It is stopped, warm (its task finished), before
    the test's rows are flushed, which this fixture's dependency orders. A sweep running
    through the flush deadlocked with its TRUNCATE, and a worker left running swept the rows
    of later tests that asked for none (tests/tournaments/test_services.py)."""
    if celery_stack.worker is None or celery_stack.worker.poll() is not None:
        celery_stack.start_worker()
    yield celery_stack
    celery_stack.stop_worker(signal.SIGTERM)


@functools.cache
def password_hash(password: str) -> str:
    """Hashed once per run: the real hasher takes a third of a second per call."""
    from django.contrib.auth.hashers import make_password

    return make_password(password)


@pytest.fixture
def make_user(django_user_model):
    """make_user("name", password=..., email=...) creates a user (default password PASSWORD)."""

    def make(username, *, password=PASSWORD, **extra):
        user = django_user_model(username=username, **extra)
        user.password = password_hash(password)
        user.save()
        return user

    return make


@pytest.fixture
def ane(make_user):
    return make_user("ane")


@pytest.fixture
def bixente(make_user):
    return make_user("bixente")


@pytest.fixture
def camille(make_user):
    return make_user("camille")


@pytest.fixture
def dani(make_user):
    return make_user("dani")


@pytest.fixture
def cast(ane, bixente, camille, dani):
    """The four players, in seat order for `full_table`."""
    return [ane, bixente, camille, dani]


@pytest.fixture
def login():
    """login(user) -> a test Client with that user's session (no log-in form, no throttling)."""

    def make(user):
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def open_table(ane):
    from games.models import Table
    from games.services import salle

    return salle.table_create(user=ane, kings=Table.Kings.FOUR)


@pytest.fixture
def full_table(cast, open_table):
    from games.services import salle

    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=open_table.pk, number=number)
    open_table.refresh_from_db()
    return open_table


@pytest.fixture
def started_game(full_table):
    """The cast's partie, started by ane with seat 0 (ane) mano, so that a test knows who
    speaks first; the deal stays random."""
    from tests.games.helpers import start_game

    return start_game(full_table, first_mano=0)
