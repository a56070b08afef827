"""Fixtures of the presence tests.

``celery_stack`` (for this package's tests, started on first use): a real Celery beat, and a
worker (``celery -A musweb worker``, solo pool) for each test that asks for it with ``worker``
(tests/conftest.py), as subprocesses, on this run's test database
(DATABASE_URL), channel-layer prefix and queue (tests/conftest.py: CELERY_QUEUE on the shared
Redis), with a sweep every SWEEP_SECONDS. Its broadcasts reach the sockets of the test process.
``celery_stack.stop_worker()`` kills the worker (SIGKILL: nothing is acked or handed back),
``celery_stack.start_worker()`` starts a new one; the worker log is ``worker_log``.

``grace`` sets SEAT_GRACE_SECONDS (the test process computes the deadlines) to GRACE.
Tests that need committed rows visible to the worker use ``transactional_db``.
"""

import pytest

from tests import processes
from tests.presence.helpers import GRACE, SWEEP, WEB_PROCESS_LIMIT


@pytest.fixture(scope="package")
def celery_stack(django_db_setup):
    env = processes.server_env(
        SWEEP_SECONDS=SWEEP,
        SEAT_GRACE_SECONDS=GRACE,
        WEB_PROCESS_LIMIT_SECONDS=WEB_PROCESS_LIMIT,
        LOG_LEVEL="INFO",
    )
    with processes.celery_running(env, worker=False) as stack:
        yield stack


@pytest.fixture
def grace(settings):
    settings.SEAT_GRACE_SECONDS = GRACE
    return GRACE
