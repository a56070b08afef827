"""Fixtures of the tournaments' tests.

``celery_stack`` (started on first use, for this package): a real Celery beat, and a worker
for each test that asks for it with ``worker`` (tests/conftest.py), as subprocesses on this
run's database and queue (tests/processes.py), with the sweeps every SWEEP seconds and no pause
between two Swiss rounds."""

import pytest

from tests import processes

SWEEP = 1.0


@pytest.fixture(scope="package")
def celery_stack(django_db_setup):
    env = processes.server_env(
        SWEEP_SECONDS=SWEEP, TOURNAMENT_ROUND_PAUSE_SECONDS=0, LOG_LEVEL="INFO"
    )
    with processes.celery_running(env, worker=False) as stack:
        yield stack
