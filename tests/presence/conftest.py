"""Fixtures of the presence tests.

``celery_stack`` (for this package's tests, started on first use): a real Celery worker
(``celery -A musweb worker``, solo pool) and beat as subprocesses, on this run's test database
(DATABASE_URL), channel-layer prefix and queue (tests/conftest.py: CELERY_QUEUE on the shared
Redis), with a sweep every SWEEP_SECONDS. Its broadcasts reach the sockets of the test process.
``celery_stack.stop_worker()`` kills the worker (SIGKILL: nothing is acked or handed back),
``celery_stack.start_worker()`` starts a new one; the worker log is ``worker_log``.

``grace`` sets SEAT_GRACE_SECONDS (the test process computes the deadlines) to GRACE.
Tests that need committed rows visible to the worker use ``transactional_db``.
"""

import os
import signal
import tempfile
from pathlib import Path

import pytest

from tests import processes

# Seconds a seat waits (60 on the site) and between two sweeps (5 on the site). Longer ones
# for a measurement: PRESENCE_GRACE=60 PRESENCE_SWEEP=5 pytest -s -k measure tests/presence
GRACE = float(os.environ.get("PRESENCE_GRACE", "2"))
SWEEP = float(os.environ.get("PRESENCE_SWEEP", "1"))
# A web process silent this long is dead (15 on the site). The test process, whose sockets flush
# every 0.2 s while a test runs, stays well within it.
WEB_PROCESS_LIMIT = float(os.environ.get("PRESENCE_WEB_PROCESS_LIMIT", "3"))


class CeleryStack:
    def __init__(self, env: dict):
        self.env = env
        self.worker = self.beat = None
        self.worker_log = self.beat_log = None
        self.schedule = Path(tempfile.mkdtemp(prefix="barajamos-beat-")) / "schedule"

    def start_worker(self) -> None:
        args = ["celery", "-A", "musweb", "worker", "--pool=solo", "--loglevel=INFO"]
        args += [
            "--hostname",
            f"{self.env['CELERY_QUEUE']}@%h",
            "--queues",
            self.env["CELERY_QUEUE"],
        ]
        args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        self.worker, self.worker_log = processes.start(args, self.env, "worker")
        processes.wait_for_line(self.worker_log, " ready.", self.worker)

    def stop_worker(self, sig=signal.SIGKILL) -> None:
        if self.worker is not None:
            processes.stop(self.worker, sig)
            self.worker = None

    def start_beat(self) -> None:
        args = ["celery", "-A", "musweb", "beat", "--loglevel=INFO", "--max-interval=1"]
        args += ["--schedule", str(self.schedule)]
        self.beat, self.beat_log = processes.start(args, self.env, "beat")

    def worker_output(self) -> str:
        return self.worker_log.read_text(errors="replace") if self.worker_log else ""

    def close(self) -> None:
        self.stop_worker(signal.SIGTERM)
        if self.beat is not None:
            processes.stop(self.beat)


@pytest.fixture(scope="package")
def celery_stack(django_db_setup):
    env = processes.server_env(
        SWEEP_SECONDS=SWEEP,
        SEAT_GRACE_SECONDS=GRACE,
        WEB_PROCESS_LIMIT_SECONDS=WEB_PROCESS_LIMIT,
        LOG_LEVEL="INFO",
    )
    stack = CeleryStack(env)
    try:
        stack.start_beat()
        stack.start_worker()
        yield stack
    finally:
        stack.close()


@pytest.fixture
def worker(celery_stack):
    """The worker, running (started again if a test stopped it)."""
    if celery_stack.worker is None or celery_stack.worker.poll() is not None:
        celery_stack.start_worker()
    return celery_stack


@pytest.fixture
def grace(settings):
    settings.SEAT_GRACE_SECONDS = GRACE
    return GRACE
