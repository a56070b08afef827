"""games.live.push_fanout: a decision reaches each web process once, whatever the number of its
sockets of the game, and its pushes there render in one hop into sync code: the decision's own
hop, when it was decided up a socket of this process."""

import asyncio
import time

import pytest
import redis
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from games.broadcast import game_processes_group
from games.live import push_fanout, threads
from games.live.push_fanout import FANOUT
from games.services import play
from tests.sockets import decide, opened, receive_version

pytestmark = pytest.mark.django_db(transaction=True)


def play_mus(game, user, committed=None):
    """`user` says mus at version 0, as a POST would (no socket of this process renders it);
    `committed(game)` runs once it is committed, before its broadcast (as games.decisions.apply
    runs its hook)."""
    if committed is None:
        return play.game_apply_action(game_id=game.pk, user=user, version=0, action={"type": "mus"})
    with transaction.atomic():
        locked = play.game_lock_to_play(game_id=game.pk)
        transaction.on_commit(lambda: committed(locked))
        return play.game_play_as(game=locked, user=user, version=0, action={"type": "mus"})


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


def count_hops(monkeypatch) -> list[str]:
    hops = []
    original = threads.in_thread

    def counted(function, language=None):
        hops.append(function.__name__)
        return original(function, language)

    monkeypatch.setattr("games.live.consumers.in_thread", counted)
    monkeypatch.setattr("games.live.threads.in_thread", counted)
    return hops


async def test_a_socket_decision_renders_the_three_pushes_in_its_own_hop(
    started_game, cast, monkeypatch
):
    hops = count_hops(monkeypatch)
    sockets = [await opened(user, started_game) for user in cast]
    hops.clear()
    await sockets[0].send_to(text_data=decide({"version": "0", "type": "mus"}))
    for communicator in sockets:
        await receive_version(communicator, 1)
    # the decision's broadcast came back to this process meanwhile: nothing more to render
    for communicator in sockets:
        assert await communicator.receive_nothing(timeout=0.3)
    assert hops == ["decide"]
    assert started_game.pk not in FANOUT.decided_here
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_posted_decision_is_pushed_in_one_hop(started_game, cast, monkeypatch):
    """A decision this process did not render for its sockets (a POST, another process's,
    a robot's): its broadcast renders the four pushes together."""
    hops = count_hops(monkeypatch)
    sockets = [await opened(user, started_game) for user in cast]
    hops.clear()
    await database_sync_to_async(play_mus)(started_game, cast[0])
    for communicator in sockets:
        await receive_version(communicator, 1)
        assert await communicator.receive_nothing(timeout=0.3)
    assert hops == ["table_pushes"]
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_decision_rendered_here_waits_for_its_hop_not_its_broadcast(started_game, cast):
    """While a decision's hop renders its version, the broadcast of that version renders
    nothing; if the hop brought no push for a socket (its render failed, the socket opened
    meanwhile), the socket is pushed the usual way when the hop ends."""
    sockets = [await opened(user, started_game) for user in cast]
    # marked as a decision's thread marks it: once committed, before its broadcast
    game = await database_sync_to_async(play_mus)(started_game, cast[0], FANOUT.deciding)
    assert FANOUT.pushing(game.pk, 1)
    for communicator in sockets:
        assert await communicator.receive_nothing(timeout=0.5)
    await FANOUT.decided(game.pk, game.version, {})
    for communicator in sockets:
        await receive_version(communicator, 1)
    assert game.pk not in FANOUT.decided_here
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


def count_broadcasts(monkeypatch) -> list[tuple[str, int | None]]:
    """Each "game.changed" sent to the channel layer (really sent: the spy calls through), and
    how many processes it reached."""
    from games import broadcast

    sent = []
    original = broadcast._send

    def counted(group, event):
        receivers = original(group, event)
        sent.append((event["type"], receivers))
        return receivers

    monkeypatch.setattr(broadcast, "_send", counted)
    return sent


async def say_mus(sockets, version):
    """The seat to act (mano first, in seat order) says mus up its socket at `version`; every
    socket shows the next version."""
    await sockets[version].send_to(text_data=decide({"version": str(version), "type": "mus"}))
    for communicator in sockets:
        await receive_version(communicator, version + 1)


async def test_a_socket_decision_heard_by_this_process_alone_is_not_broadcast(
    started_game, cast, monkeypatch
):
    """The game's sockets are all here: the first decision's PUBLISH finds this process alone,
    and the next decisions within ALONE_SECONDS are pushed by their own hop, not sent; then one
    is sent again, which checks who listens."""
    sent = count_broadcasts(monkeypatch)
    sockets = [await opened(user, started_game) for user in cast]
    await say_mus(sockets, 0)
    assert sent == [("game.changed", 1)]
    await say_mus(sockets, 1)
    await say_mus(sockets, 2)
    assert sent == [("game.changed", 1)]
    FANOUT.alone_since[started_game.pk] -= push_fanout.ALONE_SECONDS
    await say_mus(sockets, 3)
    assert sent == [("game.changed", 1)] * 2
    for communicator in sockets:  # each version pushed once, by its decision's hop
        assert await communicator.receive_nothing(timeout=0.3)
    for communicator in sockets:
        await communicator.disconnect()
    assert started_game.pk not in FANOUT.alone_since


async def test_another_process_listening_gets_every_decision_once_it_is_counted(
    started_game, cast, monkeypatch
):
    """Another process subscribes to the game and its word that it listens is lost: within
    ALONE_SECONDS of the last PUBLISH it is not sent the decisions (its sockets are healed,
    games.live.push_healing); the next PUBLISH counts it, and from then on every decision reaches
    it."""
    sent = count_broadcasts(monkeypatch)
    sockets = [await opened(user, started_game) for user in cast]
    await say_mus(sockets, 0)
    other, _ = subscribed(started_game)
    try:
        await say_mus(sockets, 1)
        assert sent == [("game.changed", 1)]
        FANOUT.alone_since[started_game.pk] -= push_fanout.ALONE_SECONDS
        await say_mus(sockets, 2)
        await say_mus(sockets, 3)
        assert sent == [("game.changed", 1), ("game.changed", 2), ("game.changed", 2)]
        assert [(e["type"], e["version"]) for e in heard(other, 2)] == [
            ("game.changed", 3),
            ("game.changed", 4),
        ]
        assert started_game.pk not in FANOUT.alone_since
    finally:
        other.close()
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_posted_decision_is_broadcast_even_when_this_process_listens_alone(
    started_game, cast, monkeypatch
):
    """Only a socket decision's own hop pushes this process's sockets: a POST (or a robot's,
    the clock's) is sent, and its broadcast pushes them."""
    sent = count_broadcasts(monkeypatch)
    sockets = [await opened(user, started_game) for user in cast]
    await say_mus(sockets, 0)
    assert started_game.pk in FANOUT.alone_since
    await database_sync_to_async(play.game_apply_action)(
        game_id=started_game.pk, user=cast[1], version=1, action={"type": "mus"}
    )
    for communicator in sockets:
        await receive_version(communicator, 2)
    assert sent == [("game.changed", 1)] * 2
    for communicator in sockets:
        await communicator.disconnect()


def subscribed(game) -> tuple[redis.client.PubSub, str]:
    """A subscriber to the game's process group, as another process's would be (it says
    nothing itself), and the group's channel name."""
    name = get_channel_layer().group_channel_name(game_processes_group(game.pk))
    other = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    other.subscribe(name)
    return other, name


def heard(pubsub, count: int, seconds: float = 3) -> list[dict]:
    """The next `count` events the subscriber hears (fewer if none come within `seconds`)."""
    events, deadline = [], time.monotonic() + seconds
    while len(events) < count and time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.2)  # None: its subscription's answer
        if message is not None:
            events.append(get_channel_layer().deserialize(message["data"]))
    return events


async def test_a_process_says_once_that_it_listens_to_a_game(started_game, cast):
    """Its first socket of the game makes it say so to the game's other processes; the next
    sockets of the game there say nothing more."""
    other, _ = subscribed(started_game)
    try:
        sockets = [await opened(user, started_game) for user in cast]
        events = heard(other, 2, seconds=1.5)
        assert [(e["type"], e["game_id"]) for e in events] == [("game.listening", started_game.pk)]
    finally:
        other.close()
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_process_that_says_it_listens_is_sent_the_next_decision(
    started_game, cast, monkeypatch
):
    sent = count_broadcasts(monkeypatch)
    sockets = [await opened(user, started_game) for user in cast]
    await say_mus(sockets, 0)
    assert started_game.pk in FANOUT.alone_since
    group = game_processes_group(started_game.pk)
    event = {"type": "game.listening", "game_id": started_game.pk, "by": "another-process"}
    await database_sync_to_async(get_channel_layer().group_send_blocking)(group, event)
    deadline = time.monotonic() + 3
    while started_game.pk in FANOUT.alone_since and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    await say_mus(sockets, 1)
    assert sent == [("game.changed", 1)] * 2
    for communicator in sockets:
        await communicator.disconnect()
