"""The turn clock with a real Celery worker and beat (tests/presence/conftest.py) on Redis:
the check task queued on commit decides for a silent seat, the sweep does when the worker that
held the task was killed, three misses in a row cancel the partie. Clocks of a second or two
here (30 s + 2 min on the site); the sweep runs every SWEEP seconds.

The delays printed (a clock's end -> the decision pushed to all four sockets) are measurements,
asserted on only within generous bounds: which of the task or the sweep decided is read in the
worker's log. Clocks leave the sockets time to connect on a busy machine, and the tests wait
for what they check (a line in the log, a push), never a fixed delay."""

import asyncio
import re
import time

import pytest
from celery import current_app
from channels.db import database_sync_to_async

from games import vocabulary
from games.models import Game, GameAction
from games.services import clock
from tests.games.helpers import start_game
from tests.presence.helpers import SWEEP, logged
from tests.processes import wait_for_line
from tests.sockets import next_push, receive_version, rendered_socket, table_path

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def clocked(settings, full_table, *, turn: float, reserve: float):
    """The cast's partie at the Normal speed of `turn` + `reserve` seconds (copied into the
    game's clock: the worker needs no such setting)."""
    settings.TURN_CLOCKS = {**settings.TURN_CLOCKS, "normal": (turn, reserve)}
    return start_game(full_table)


async def seated(game, users):
    return [await rendered_socket(table_path(game.table_id), user) for user in users]


async def close_all(sockets):
    for communicator in sockets:
        await communicator.disconnect()


@database_sync_to_async
def plays(game):
    rows = GameAction.objects.filter(game=game, kind="play").order_by("seq")
    return [(row.seat, row.payload) for row in rows]


@database_sync_to_async
def fresh(game):
    return Game.objects.get(pk=game.pk)


TASK_DECIDED = re.compile(r"games\.tasks\.turn_time_out\[[^]]+\] succeeded in [^:]+: 1\b")
TASK_RAN = re.compile(r"games\.tasks\.turn_time_out\[[^]]+\] succeeded")
TASK_TAKEN = re.compile(r"games\.tasks\.turn_time_out\[[^]]+\] received")
SWEEP_RAN = re.compile(r"games\.tasks\.sweep_abandoned\[[^]]+\] succeeded")


async def delays_to_all_four(sockets, deadline_ms: int, version: int, timeout: float):
    """Seconds from the clock's end to the push of `version` on each socket."""
    delays = []
    for communicator in sockets:
        await receive_version(communicator, version, timeout=timeout)
        delays.append(time.time() - deadline_ms / 1000)
    return delays


async def test_measure_a_silent_seat_is_played_for_by_the_task(worker, settings, full_table, cast):
    since = len(worker.worker_output())
    game = await database_sync_to_async(clocked)(settings, full_table, turn=4, reserve=1)
    sockets = await seated(game, cast)
    deadline = game.clock["seats"][0]["deadline"]
    delays = await delays_to_all_four(sockets, deadline, 1, timeout=30)
    print(
        f"\nclock's end -> the decision pushed to all four, worker alive: "
        f"{min(delays) * 1000:.0f}-{max(delays) * 1000:.0f} ms"
    )
    assert await plays(game) == [(0, {"type": "cut"})]
    game = await fresh(game)
    assert game.clock["timed_out"] == [{"hand": 1, "seat": 0, "words": 0, "type": "cut"}]
    text = await logged(worker, TASK_DECIDED, since=since)  # the task decided, not the sweep
    assert "'timed_out': 1" not in text
    assert max(delays) < 10
    await close_all(sockets)


async def test_measure_the_worker_killed_while_a_clock_runs_the_sweep_plays_it(
    worker, settings, full_table, cast
):
    """The worker holding the check task dies and a new one starts (a supervisor's restart)
    before the clock's end: the task is lost, the sweep decides within one period of it."""
    since = len(worker.worker_output())
    game = await database_sync_to_async(clocked)(settings, full_table, turn=15, reserve=1)
    sockets = await seated(game, cast)
    await logged(worker, TASK_TAKEN, since=since)  # taken: unacked, held until its eta
    worker.stop_worker()  # SIGKILL: the task is lost until Redis' visibility timeout (1 h)
    await database_sync_to_async(worker.start_worker)()
    deadline = game.clock["seats"][0]["deadline"]
    assert time.time() < deadline / 1000, "the worker took longer than the clock to start"
    left = deadline / 1000 - time.time()
    delays = await delays_to_all_four(sockets, deadline, 1, timeout=left + 20 + 3 * SWEEP)
    print(
        f"\nclock's end -> the decision pushed to all four, worker killed (sweep every "
        f"{SWEEP:g} s): {min(delays) * 1000:.0f}-{max(delays) * 1000:.0f} ms"
    )
    assert await plays(game) == [(0, {"type": "cut"})]
    await asyncio.to_thread(wait_for_line, worker.worker_log, "'timed_out': 1", worker.worker)
    assert max(delays) < SWEEP + 10
    await close_all(sockets)


async def test_the_task_run_three_times_decides_once(worker, settings, full_table, cast):
    # the next decision (ane at Grand, 10 s) stays in time while the test watches
    since = len(worker.worker_output())
    game = await database_sync_to_async(clocked)(settings, full_table, turn=10, reserve=0.5)
    deadline = game.clock["seats"][0]["deadline"]
    for _ in range(2):  # two more beside the one queued when the partie started
        await database_sync_to_async(current_app.send_task)(
            "games.tasks.turn_time_out", args=(game.pk, deadline), eta=clock.to_datetime(deadline)
        )
    sockets = await seated(game, cast[:1])
    await receive_version(sockets[0], 1, timeout=30)
    output = await logged(worker, TASK_RAN, since=since, count=3)  # the three runs...
    ran = len(output)
    await logged(worker, SWEEP_RAN, since=since + ran)  # ...and a sweep after them
    assert time.time() < (await fresh(game)).clock["seats"][0]["deadline"] / 1000
    assert await plays(game) == [(0, {"type": "cut"})]
    assert len(TASK_DECIDED.findall(output)) == 1
    output = worker.worker_output()
    assert "Traceback" not in output and "ERROR" not in output
    await close_all(sockets)


async def test_three_misses_in_a_row_cancel_the_partie_for_all_four(
    worker, settings, full_table, cast
):
    # ane's first clock (turn and reserve) lets the four sockets connect before it ends
    game = await database_sync_to_async(clocked)(settings, full_table, turn=0.5, reserve=4)
    sockets = await seated(game, cast)
    reason = vocabulary.ABSENT_AT_TABLE % {"name": cast[0].username, "count": 3}
    for communicator in sockets:
        payload = await next_push(communicator, lambda p: "data-redirect=" in p, timeout=90)
        assert reason in payload
    # ane cut, then everyone passed at Grand, then ane was silent at Petit once more
    assert [(s, a["type"]) for s, a in await plays(game)] == [
        (0, "cut"),
        (0, "pass"),
        (1, "pass"),
        (2, "pass"),
        (3, "pass"),
    ]
    game = await fresh(game)
    assert game.status == Game.Status.CANCELLED and game.end_reason_text == reason
    assert game.turn_deadline is None
    await close_all(sockets)
