"""The channel layer on the real Redis, under a burst."""

import asyncio

from channels.layers import get_channel_layer


async def received(layer, channel):
    """The next event of a channel (a dropped one would make this wait for ever)."""
    return await asyncio.wait_for(layer.receive(channel), timeout=2)


async def test_a_burst_of_group_sends_is_not_refused_for_want_of_connections():
    """300 sends at the same instant all arrive (redis-py 8's pool refuses a 101st connection
    at once: with a connection per send, a burst of moves lost their "changed" events)."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("burst", channel)
    sends = [layer.group_send("burst", {"type": "game.changed", "version": n}) for n in range(300)]
    results = await asyncio.gather(*sends, return_exceptions=True)
    assert [r for r in results if isinstance(r, Exception)] == []
    events = [await received(layer, channel) for _ in range(300)]
    assert sorted(event["version"] for event in events) == list(range(300))
    await layer.group_discard("burst", channel)


async def test_a_process_behind_on_its_events_loses_none_of_them():
    """300 events pending for a process's sockets (a receive loop a few seconds behind) all
    arrive in order, none dropped (channels-redis' default layer dropped past its capacity)."""
    layer = get_channel_layer()
    sockets = [await layer.new_channel() for _ in range(3)]
    for channel in sockets:
        await layer.group_add("behind", channel)
    for n in range(300):
        await layer.group_send("behind", {"type": "game.changed", "version": n})
    for channel in sockets:
        versions = [(await received(layer, channel))["version"] for _ in range(300)]
        assert versions == list(range(300))
    for channel in sockets:
        await layer.group_discard("behind", channel)


async def test_a_group_send_from_sync_code_reaches_the_group():
    """broadcast._send publishes without an event loop (ChannelLayer.group_send_blocking):
    on the very channel the async layer subscribes a group to."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("from-sync", channel)
    await asyncio.to_thread(layer.group_send_blocking, "from-sync", {"type": "salle.changed"})
    assert await received(layer, channel) == {"type": "salle.changed"}
    await layer.group_discard("from-sync", channel)
