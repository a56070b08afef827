"""Fixtures of the tournaments' tests.

``celery_stack`` (started on first use, for this package): a real Celery worker and beat as
subprocesses on this run's database and queue (tests/processes.py), with the sweeps every
SWEEP seconds and no pause between two Swiss rounds. Tests that use it need committed rows
(``transactional_db``)."""

import pytest

from tests import processes

SWEEP = 1.0


@pytest.fixture(scope="package")
def celery_stack(django_db_setup):
    env = processes.server_env(
        SWEEP_SECONDS=SWEEP, TOURNAMENT_ROUND_PAUSE_SECONDS=0, LOG_LEVEL="INFO"
    )
    with processes.celery_running(env) as stack:
        yield stack


@pytest.fixture
def worker(celery_stack):
    """The worker, running (started again if a test stopped it)."""
    if celery_stack.worker is None or celery_stack.worker.poll() is not None:
        celery_stack.start_worker()
    return celery_stack
