"""A lost push heals: with a real daphne, a table socket whose process missed the "game.changed"
of a decision (the event dropped before Redis, so the message never reaches it) is pushed the
new version by its web process's once-a-second check (games.live.push_healing), at the first check
that finds the version older than the grace; a version younger than the grace, or still being
pushed, is left to its push; the check is one query whatever the number of games."""

import asyncio
import time
from datetime import timedelta

import pytest
import websockets
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games import broadcast, selectors
from games.live.push_fanout import ProcessFanout
from games.live.push_healing import ShownVersions
from games.models import Game
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


def lose_the_pushes_of(game_id: int, monkeypatch) -> None:
    """The game's "game.changed" events sent from this process never reach Redis (as if the
    message were lost on the way): the daphne's process hears nothing of the next decision."""
    send = broadcast._send
    lost = broadcast.game_processes_group(game_id)
    monkeypatch.setattr(
        broadcast, "_send", lambda group, event: None if group == lost else send(group, event)
    )


async def next_version_shown(socket, version: int, timeout: float) -> str:
    async with asyncio.timeout(timeout):
        while True:
            payload = await socket.recv()
            if f'data-version="{version}"' in payload:
                return payload


async def test_a_socket_that_missed_a_push_is_sent_the_new_version(
    daphne, started_game, cast, monkeypatch
):
    ane, bixente = cast[0], cast[1]
    socket = await websockets.connect(
        f"ws://127.0.0.1:{daphne}/ws/tables/{started_game.table_id}/",
        origin=f"http://127.0.0.1:{daphne}",
        additional_headers={"Cookie": await session_cookie(bixente)},
    )
    await next_version_shown(socket, 0, timeout=10)
    # The push of the next decision is lost for this socket's process: no longer in the group.
    lose_the_pushes_of(started_game.pk, monkeypatch)
    await database_sync_to_async(play.game_apply_action)(
        user=ane, game_id=started_game.pk, version=0, action={"type": "mus"}
    )
    applied = time.monotonic()
    healed = await next_version_shown(socket, 1, timeout=15)  # generous: a shared machine
    assert "ane : Mus" in healed.replace("&#x27;", "'")
    print(f"\nlost push healed after {time.monotonic() - applied:.2f} s (check every 1 s)")
    await socket.close()


def shown_at(sockets: dict[str, tuple[int, int]]) -> ShownVersions:
    shown = ShownVersions()
    shown.sockets.update(sockets)
    return shown


def test_a_socket_behind_an_older_version_is_healed_at_the_first_check():
    now = timezone.now()
    shown = shown_at({"a": (7, 3), "b": (7, 4), "c": (8, 2)})
    versions = {7: (4, now - timedelta(seconds=0.5)), 8: (2, now - timedelta(seconds=9))}
    assert shown.behind(versions, now=now, grace=0.3) == [("a", 7, 4)]


def test_a_version_younger_than_the_grace_is_left_to_its_push():
    now = timezone.now()
    shown = shown_at({"a": (7, 3)})
    assert shown.behind({7: (4, now - timedelta(seconds=0.1))}, now=now, grace=0.3) == []
    later = now + timedelta(seconds=1)  # the next check: still behind, now past the grace
    assert shown.behind({7: (4, now - timedelta(seconds=0.1))}, now=later, grace=0.3) == [
        ("a", 7, 4)
    ]


def test_a_version_this_process_is_still_pushing_is_not_lost():
    fanout = ProcessFanout()
    fanout.in_flight[7] = 4
    assert fanout.pushing(7, 4) and fanout.pushing(7, 3)
    assert not fanout.pushing(7, 5) and not fanout.pushing(8, 1)


def test_a_game_gone_from_the_read_heals_nothing():
    shown = shown_at({"a": (7, 3)})
    assert shown.behind({}, now=timezone.now(), grace=0.3) == []


def test_the_versions_of_the_shown_games_are_one_query(started_game, django_assert_num_queries):
    Game.objects.filter(pk=started_game.pk).update(version=5)
    with django_assert_num_queries(1):
        versions = selectors.game_versions({started_game.pk, started_game.pk + 1000})
    version, written = versions[started_game.pk]
    assert version == 5 and written <= timezone.now()
    assert list(versions) == [started_game.pk]
