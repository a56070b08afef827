"""Leaving and coming back over the real WebSocket stack, with a real Celery worker and beat
(tests/presence/conftest.py) on Redis: the countdown task, the sweep, a worker that dies.
The seat waits GRACE seconds here (60 on the site); the sweep runs every SWEEP seconds.

The cancellation times printed here (closed socket -> the others sent to the salle) are
measurements, never asserted on beyond a generous bound."""

import asyncio
import json
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import tasks
from games.models import Game, GameAction, GameSeat, SeatConnection, Table
from tests.presence.helpers import GRACE, SWEEP, logged, task_line
from tests.processes import wait_for_line
from tests.sockets import next_push, rendered_socket, table_path

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

AWAY = "dani a perdu la connexion — place gardée"
HEARTBEAT = json.dumps({"type": "heartbeat"})


async def seated(game, users):
    """One connected table socket per user, its first (full) render read."""
    return [await rendered_socket(table_path(game.table_id), user) for user in users]


def sent_to_salle(payload):
    return "data-redirect=" in payload


@database_sync_to_async
def status_of(game):
    return Game.objects.get(pk=game.pk).status


@database_sync_to_async
def end_rows(game):
    return list(GameAction.objects.filter(game=game, kind="end").values_list("payload", flat=True))


async def close_all(sockets):
    for communicator in sockets:
        await communicator.disconnect()


async def test_away_then_back_before_the_deadline_is_not_cancelled(
    worker, grace, started_game, cast
):
    ane, bixente, camille, dani = cast
    sockets = await seated(started_game, cast)
    await sockets[3].disconnect()
    assert AWAY in await next_push(sockets[0], lambda p: "tseat__presence" in p, timeout=2)
    await asyncio.sleep(GRACE / 3)
    back = (await seated(started_game, [dani]))[0]
    assert AWAY not in await next_push(sockets[0], lambda p: "tseat__presence" in p, timeout=2)
    await asyncio.sleep(GRACE + 2 * SWEEP)  # past the first deadline, the task and a sweep
    assert await status_of(started_game) == Game.Status.PLAYING
    assert await sockets[0].receive_nothing(timeout=0.2)
    await close_all([*sockets[:3], back])


async def test_measure_away_past_the_deadline_sends_the_others_to_the_salle(
    worker, grace, started_game, cast
):
    sockets = await seated(started_game, cast)
    closed = time.monotonic()
    await sockets[3].disconnect()
    others = sockets[:3]
    for communicator in others:
        payload = await next_push(communicator, sent_to_salle, timeout=GRACE + 10)
        elapsed = time.monotonic() - closed
        assert "La partie a été annulée : dani n'a pas rejoint la table à temps." in payload
        assert f'data-redirect="/tables/{started_game.table_id}/"' in payload
    print(
        f"\nclosed socket -> others sent to the salle, worker alive: {elapsed:.2f} s "
        f"(grace {GRACE:g} s)"
    )
    assert await status_of(started_game) == Game.Status.CANCELLED
    assert await end_rows(started_game) == [
        {"status": "cancelled", "reason": {"code": "abandoned", "name": "dani"}, "by": None}
    ]
    await close_all(others)


async def test_two_tabs_one_closed_no_countdown(worker, grace, started_game, cast):
    dani = cast[3]
    sockets = await seated(started_game, [*cast, dani])
    await sockets[3].disconnect()  # dani's first tab
    assert await sockets[0].receive_nothing(timeout=GRACE + 2 * SWEEP)
    seat = await database_sync_to_async(GameSeat.objects.get)(game=started_game, user=dani)
    assert seat.deadline is None
    assert await status_of(started_game) == Game.Status.PLAYING
    await close_all([*sockets[:3], sockets[4]])


async def test_the_worker_stopped_during_the_countdown_the_sweep_still_cancels(
    worker, grace, started_game, cast
):
    sockets = await seated(started_game, cast)
    closed = time.monotonic()
    await sockets[3].disconnect()
    await asyncio.sleep(0.5)  # the worker has taken the countdown task (unacked, in memory)
    worker.stop_worker()  # SIGKILL: the task is lost until Redis' visibility timeout (1 h)
    await asyncio.sleep(GRACE + 2 * SWEEP)
    assert await status_of(started_game) == Game.Status.PLAYING  # nobody to cancel it
    restarted = time.monotonic()
    await database_sync_to_async(worker.start_worker)()
    payload = await next_push(sockets[0], sent_to_salle, timeout=10 + 3 * SWEEP)
    done = time.monotonic()
    assert "dani n'a pas rejoint la table à temps." in payload
    print(
        f"\nclosed socket -> others sent to the salle, worker killed: {done - closed:.2f} s "
        f"(grace {GRACE:g} s; the worker was down {restarted - closed:.2f} s of it; "
        f"{done - restarted:.2f} s from its restart, sweep every {SWEEP:g} s)"
    )
    # The sweep did it, not the lost task (the log reaches the file a moment later).
    wait_for_line(worker.worker_log, "'abandoned': 1", worker.worker, timeout=5)
    assert len(await end_rows(started_game)) == 1
    await close_all(sockets[:3])


async def test_measure_worker_killed_and_restarted_during_the_countdown(
    worker, settings, started_game, cast
):
    """The worker holding the countdown task dies and comes back (a supervisor's restart)
    before the deadline: the task is lost, the sweep cancels within one period of it."""
    # A worker takes 1.5 to 3 s to start on a loaded machine: a grace it surely fits in.
    grace = settings.SEAT_GRACE_SECONDS = 3 * GRACE
    sockets = await seated(started_game, cast)
    closed = time.monotonic()
    await sockets[3].disconnect()
    await asyncio.sleep(0.3)
    worker.stop_worker()
    await database_sync_to_async(worker.start_worker)()
    assert time.monotonic() - closed < grace, "the worker took longer than the grace to start"
    await next_push(sockets[0], sent_to_salle, timeout=grace + 3 * SWEEP + 5)
    elapsed = time.monotonic() - closed
    print(
        f"\nclosed socket -> others sent to the salle, worker killed and restarted within the "
        f"grace: {elapsed:.2f} s (grace {grace:g} s, sweep every {SWEEP:g} s)"
    )
    wait_for_line(worker.worker_log, "'abandoned': 1", worker.worker, timeout=5)
    assert elapsed < grace + SWEEP + 2
    await close_all(sockets[:3])


async def test_the_task_run_twice_or_late_one_cancellation_no_error(
    worker, settings, started_game, cast
):
    settings.SEAT_GRACE_SECONDS = 3600  # no countdown task due during this test
    dani = cast[3]
    sockets = await seated(started_game, cast)
    await sockets[3].disconnect()

    @database_sync_to_async
    def deadline_passed():
        seat = GameSeat.objects.get(game=started_game, user=dani)
        seat.deadline = timezone.now() - timedelta(seconds=1)
        seat.save(update_fields=["deadline"])
        return seat

    seat = await deadline_passed()
    since = len(worker.worker_output())
    for _ in range(3):
        await database_sync_to_async(tasks.cancel_if_abandoned.delay)(seat.pk, seat.presence_epoch)
    await next_push(sockets[0], sent_to_salle, timeout=30)
    ran = task_line("games.tasks.cancel_if_abandoned", "succeeded")
    runs = await logged(worker, ran, since=since, count=3)  # the three runs...
    sweep = task_line("games.tasks.sweep_abandoned", "succeeded")
    await logged(worker, sweep, since=since + len(runs))  # ...and a sweep after them
    assert len(await end_rows(started_game)) == 1
    output = worker.worker_output()
    assert "Traceback" not in output and "ERROR" not in output
    await close_all(sockets[:3])


async def test_a_silent_socket_counts_as_gone_and_a_heartbeat_brings_it_back(
    worker, grace, started_game, cast
):
    sockets = await seated(started_game, cast)
    await sockets[3].send_to(text_data=HEARTBEAT)
    await asyncio.sleep(0.3)

    @database_sync_to_async
    def silence_dani():
        an_hour_ago = timezone.now() - timedelta(hours=1)
        return SeatConnection.objects.filter(game_seat__user=cast[3]).update(last_seen=an_hour_ago)

    assert await silence_dani() == 1
    assert AWAY in await next_push(sockets[0], lambda p: "tseat__presence" in p, timeout=3 * SWEEP)
    await sockets[3].send_to(text_data=HEARTBEAT)  # the link was only slow
    assert AWAY not in await next_push(sockets[0], lambda p: "tseat__presence" in p, timeout=2)
    await asyncio.sleep(GRACE + 2 * SWEEP)
    assert await status_of(started_game) == Game.Status.PLAYING
    await close_all(sockets)


async def test_the_sweep_cancels_an_idle_game(worker, started_game, cast):
    sockets = await seated(started_game, cast[:1])
    idle_since = timezone.now() - timedelta(minutes=31)
    await database_sync_to_async(Game.objects.filter(pk=started_game.pk).update)(
        last_action_at=idle_since
    )
    payload = await next_push(sockets[0], sent_to_salle, timeout=5 * SWEEP + 5)
    assert "personne n'a joué pendant 30 minutes." in payload
    assert await status_of(started_game) == Game.Status.CANCELLED
    await close_all(sockets)


async def test_the_sweep_closes_an_unwatched_open_table(worker, open_table):
    unseen_since = timezone.now() - timedelta(minutes=11)
    await database_sync_to_async(Table.objects.filter(pk=open_table.pk).update)(
        last_seen=unseen_since
    )

    @database_sync_to_async
    def table_status():
        return Table.objects.get(pk=open_table.pk).status

    deadline = time.monotonic() + 5 * SWEEP + 5
    while await table_status() == Table.Status.OPEN and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert await table_status() == Table.Status.CLOSED
