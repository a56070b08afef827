"""The channel layer on the real Redis, under a burst."""

import asyncio

from channels.layers import get_channel_layer


async def test_a_burst_of_group_sends_is_not_refused_for_want_of_connections():
    """redis-py 8's pool holds 100 connections by default and refuses the 101st at once: a
    burst of moves lost their "changed" events (make bench). 300 sends at the same instant."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("burst", channel)
    sends = [layer.group_send("burst", {"type": "game.changed", "version": n}) for n in range(300)]
    results = await asyncio.gather(*sends, return_exceptions=True)
    assert [r for r in results if isinstance(r, Exception)] == []
    received = [await layer.receive(channel) for _ in range(100)]  # the channel holds 100
    assert len(received) == 100
    await layer.group_discard("burst", channel)
