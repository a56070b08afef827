"""A web process killed with its sockets open (SIGKILL: no close is ever sent), with a real
daphne, worker and beat. The sweep finds the process silent past WEB_PROCESS_LIMIT and drops
its sockets; the seat's countdown starts from when the process was last alive, so the partie
is cancelled GRACE seconds after the player was lost, not GRACE seconds after the site noticed.

The time printed (kill -> cancelled) is a measurement: at the site's values,
PRESENCE_GRACE=60 PRESENCE_SWEEP=5 PRESENCE_WEB_PROCESS_LIMIT=15 pytest -s -k killed
tests/presence/test_web_process.py."""

import asyncio
import signal
import time

import pytest
import websockets
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games.models import Game, GameSeat, SeatConnection
from tests import processes
from tests.presence.helpers import GRACE, SWEEP, WEB_PROCESS_LIMIT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture
def daphne():
    port = processes.free_port()
    env = processes.server_env(
        SEAT_GRACE_SECONDS=GRACE,
        WEB_PROCESS_LIMIT_SECONDS=WEB_PROCESS_LIMIT,
        HEARTBEAT_FLUSH_SECONDS=0.2,
    )
    server, _ = processes.start_daphne(port, env)
    yield server, port
    processes.stop(server)


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@database_sync_to_async
def connection_server(user):
    return list(
        SeatConnection.objects.filter(game_seat__user=user).values_list("server", flat=True)
    )


@database_sync_to_async
def game_and_seat(game, user):
    return Game.objects.get(pk=game.pk), GameSeat.objects.get(game=game, user=user)


async def test_measure_a_killed_web_process_seat_is_cancelled_grace_after_it_died(
    worker, daphne, started_game, cast
):
    server, port = daphne
    dani = cast[3]
    socket = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/tables/{started_game.table_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": await session_cookie(dani)},
    )
    assert 'id="my-hand"' in await asyncio.wait_for(socket.recv(), timeout=10)
    [server_id] = await connection_server(dani)
    assert server_id  # the row names daphne's process

    await asyncio.to_thread(processes.stop, server, signal.SIGKILL)
    killed, started = timezone.now(), time.monotonic()
    limit = max(GRACE, WEB_PROCESS_LIMIT + SWEEP) + 2 * SWEEP + 5
    while (found := await game_and_seat(started_game, dani))[0].status == Game.Status.PLAYING:
        assert time.monotonic() - started < limit, "not cancelled in time"
        await asyncio.sleep(0.05)
    elapsed = time.monotonic() - started
    finished, seat = found
    print(f"\nweb process killed -> partie cancelled: {elapsed:.2f} s (grace {GRACE:g} s)")
    assert finished.status == Game.Status.CANCELLED
    assert "dani" in finished.end_reason_text
    # The countdown started from the process's last "alive" (every 0.2 s), not from the sweep.
    assert abs((seat.away_since - killed).total_seconds()) < 1.0
    assert not await connection_server(dani)
    await socket.close()
