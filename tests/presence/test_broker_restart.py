"""The Celery worker and beat live through a restart of their broker.

Celery 5.7.0's worker died of it ("Unrecoverable error: AttributeError"), whenever it held a
task due later (a seat's deadline, a turn clock): on the site, Redis restarting would have
stopped every clock and every cancellation until someone restarted the worker (and `make run`,
whose honcho stops everything when one process exits, stopped the whole site). Celery is
pinned to 5.6.3 for this (pyproject.toml); this test is what tells when a release is safe.
What Redis held is lost with it (it keeps nothing on disk): the tasks due later are gone, and
beat's sweep, every SWEEP_SECONDS, is what cancels and times out in their place.
"""

import time

from musweb.celery import app
from tests import processes


def send(url: str, queue: str, name: str, **options) -> None:
    with app.connection_for_write(url) as connection:
        app.send_task(name, args=[0], queue=queue, connection=connection, **options)


def lines_with(stack, *words: str) -> int:
    return sum(all(w in line for w in words) for line in stack.worker_output().splitlines())


def wait_for_lines(stack, *words: str, count: int, timeout: float = 30.0) -> None:
    """Until `count` lines of the worker's log hold all `words`; the worker must not exit."""
    deadline = time.monotonic() + timeout
    while lines_with(stack, *words) < count:
        assert stack.worker.poll() is None, f"the worker exited:\n{stack.worker_output()}"
        assert time.monotonic() < deadline, f"{count} x {words}?\n{stack.worker_output()}"
        time.sleep(0.05)


def test_the_worker_holding_a_task_due_later_and_beat_live_through_a_redis_restart(
    transactional_db,
):
    with processes.redis_running() as broker:
        env = processes.server_env(CELERY_BROKER_URL=broker.url, LOG_LEVEL="INFO", SWEEP_SECONDS=1)
        queue = env["CELERY_QUEUE"]
        stack = processes.CeleryStack(env)
        try:
            stack.start_worker()
            stack.start_beat()
            # Due in a minute: the worker holds it unacknowledged, as it holds the clocks.
            send(broker.url, queue, "games.tasks.revanche_lapse", countdown=60)
            wait_for_lines(stack, "revanche_lapse", "received", count=1)

            broker.restart()
            wait_for_lines(stack, "Connected to redis://", count=2)
            time.sleep(1)  # where 5.7.0 died: closing the lost connection after reconnecting
            assert stack.worker.poll() is None, stack.worker_output()

            send(broker.url, queue, "games.tasks.revanche_lapse")  # and it still works
            wait_for_lines(stack, "revanche_lapse", "succeeded", count=1)
            sweeps = lines_with(stack, "sweep_abandoned", "received")
            wait_for_lines(stack, "sweep_abandoned", "received", count=sweeps + 2)  # beat too
            assert stack.beat.poll() is None
        finally:
            stack.close()
