"""What the tests share beside their fixtures (tests/conftest.py): the cast's names and
password, this run's own channel-layer prefix, Celery queue and rate-limit prefix, and the
test database's other sessions. A module of its own, since no test module imports another
(conftest included)."""

import os

CAST = ("ane", "bixente", "camille", "dani")
PASSWORD = "Txistu-eta-mus-2026"
# One channel-layer prefix (and one test database) per test run, so tests never talk to a
# `make run` on the same Redis; the browser tests' server uses the same prefix.
CHANNELS_PREFIX = f"test-{os.getpid()}"
# Likewise one Celery queue per run: what the sockets schedule never reaches a `make run` worker,
# and the test workers (tests/presence/conftest.py) consume only this run's tasks.
CELERY_QUEUE = f"barajamos-test-{os.getpid()}"
# And its own rate-limit counters (core.ratelimit), emptied before every test.
RATELIMIT_PREFIX = f"ratelimit-test-{os.getpid()}"


def other_sessions() -> list[int]:
    """The backends, other than this thread's, connected to the test database."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [pid for (pid,) in cursor.fetchall()]


def terminate_other_sessions() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
