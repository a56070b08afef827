"""A lost push heals: with a real daphne, a table socket that missed the "game.changed" of a
decision (its channel taken out of the game's group, so the push never reaches it) is sent the
new version by its web process's once-a-second check (games.push_healing)."""

import asyncio

import pytest
import websockets
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from games.broadcast import game_group
from games.models import SeatConnection
from games.services import play
from tests import processes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne():
    port = processes.free_port()
    server, _ = processes.start_daphne(port, processes.server_env(PUSH_HEALING_SECONDS=1))
    yield port
    processes.stop(server)


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@database_sync_to_async
def channel_of(user) -> str:
    return SeatConnection.objects.get(game_seat__user=user).channel_name


async def next_version_shown(socket, version: int, timeout: float) -> str:
    async with asyncio.timeout(timeout):
        while True:
            payload = await socket.recv()
            if f'data-version="{version}"' in payload:
                return payload


async def test_a_socket_that_missed_a_push_is_sent_the_new_version(daphne, started_game, cast):
    ane, bixente = cast[0], cast[1]
    socket = await websockets.connect(
        f"ws://127.0.0.1:{daphne}/ws/tables/{started_game.table_id}/",
        origin=f"http://127.0.0.1:{daphne}",
        additional_headers={"Cookie": await session_cookie(bixente)},
    )
    await next_version_shown(socket, 0, timeout=10)
    # The push of the next decision is lost for this socket: it is no longer in the group.
    await get_channel_layer().group_discard(game_group(started_game.pk), await channel_of(bixente))
    await database_sync_to_async(play.game_apply_action)(
        user=ane, game_id=started_game.pk, version=0, action={"type": "mus"}
    )
    healed = await next_version_shown(socket, 1, timeout=15)  # generous: a shared machine
    assert "ane : Mus" in healed.replace("&#x27;", "'")
    await socket.close()
