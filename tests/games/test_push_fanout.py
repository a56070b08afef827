"""games.push_fanout: a decision reaches each web process once, whatever the number of its
sockets of the game, and its pushes there render in one hop into sync code."""

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings

from games import threads
from games.broadcast import game_processes_group
from games.push_fanout import FANOUT
from tests.games.test_socket_decisions import decide, opened
from tests.sockets import receive_version

pytestmark = pytest.mark.django_db(transaction=True)


async def group_members(game_id: int) -> int:
    """The processes subscribed to the game's process group, as Redis counts them."""
    name = get_channel_layer().group_channel_name(game_processes_group(game_id))
    [(_, count)] = redis.Redis.from_url(settings.REDIS_URL).pubsub_numsub(name)
    return count


async def test_the_process_is_one_member_of_the_game_whatever_its_sockets(started_game, cast):
    sockets = [await opened(user, started_game) for user in cast]
    assert await group_members(started_game.pk) == 1
    assert len(FANOUT.sockets[started_game.pk]) == 4
    for communicator in sockets[:3]:
        await communicator.disconnect()
    assert await group_members(started_game.pk) == 1
    await sockets[3].disconnect()
    assert await group_members(started_game.pk) == 0
    assert started_game.pk not in FANOUT.sockets


async def test_a_socket_decision_takes_one_hop_and_its_three_pushes_one(
    started_game, cast, monkeypatch
):
    hops = []
    original = threads.in_thread

    def counted(function):
        hops.append(function.__name__)
        return original(function)

    monkeypatch.setattr("games.consumers.in_thread", counted)
    monkeypatch.setattr("games.threads.in_thread", counted)
    sockets = [await opened(user, started_game) for user in cast]
    hops.clear()
    await sockets[0].send_to(text_data=decide({"version": "0", "type": "mus"}))
    for communicator in sockets:
        await receive_version(communicator, 1)
    assert hops == ["decide", "table_pushes"]
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_push_older_than_what_the_socket_shows_is_dropped(started_game, ane, bixente):
    mine, theirs = await opened(ane, started_game), await opened(bixente, started_game)
    await mine.send_to(text_data=decide({"version": "0", "type": "mus"}))
    await receive_version(mine, 1)
    await receive_version(theirs, 1)
    (socket,) = [s for s in FANOUT.sockets[started_game.pk] if s.scope["user"].pk == ane.pk]
    await socket.deliver(("<p>version 0</p>", 0))  # a render of version 0 arriving late
    assert await mine.receive_nothing(timeout=0.3)
    await FANOUT.game_changed(started_game.pk, 1)  # the same version again: nothing to send
    assert await mine.receive_nothing(timeout=0.3)
    assert await theirs.receive_nothing(timeout=0.3)
    await mine.disconnect()
    await theirs.disconnect()
