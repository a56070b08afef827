"""The channel layer over several Redis servers: CHANNELS_REDIS_URLS names them, and every
message reaches the process it is for, whichever shard its name hashes to (core.channel_layer)."""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings

from core.channel_layer import ChannelLayer
from tests.helpers import CHANNELS_PREFIX
from tests.processes import redis_running

ROOT = Path(__file__).resolve().parents[2]


def channel_hosts(**env) -> list[str]:
    """The channel layer's host addresses as a fresh process with `env` sees them."""
    base = {k: v for k, v in os.environ.items() if k not in {"CHANNELS_REDIS_URLS", "REDIS_URL"}}
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps([h['address'] for h in "
        "settings.CHANNEL_LAYERS['default']['CONFIG']['hosts']]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "musweb.settings", "SECRET_KEY": "k" * 50, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def test_the_channel_layer_hosts_are_redis_url_unless_listed():
    assert channel_hosts(REDIS_URL="redis://10.0.0.9:6379/0") == ["redis://10.0.0.9:6379/0"]
    listed = " redis://10.0.0.5:6379/0, redis://10.0.0.6:6380/0 ,"
    assert channel_hosts(REDIS_URL="redis://10.0.0.9:6379/0", CHANNELS_REDIS_URLS=listed) == [
        "redis://10.0.0.5:6379/0",
        "redis://10.0.0.6:6380/0",
    ]


@pytest.fixture(scope="module")
def second_redis():
    """A second Redis server (pub/sub channels ignore database numbers: two servers it is)."""
    with redis_running() as server:
        yield server.url


def two_shard_layer(second: str) -> ChannelLayer:
    """A web process's layer over two shards: the test Redis and a second server."""
    hosts = [{"address": settings.REDIS_URL}, {"address": second}]
    return ChannelLayer(hosts=hosts, prefix=f"{CHANNELS_PREFIX}-shards")


def subscriptions(url: str) -> int:
    """The channels subscribed to on one server (this run's prefix only)."""
    return len(redis.Redis.from_url(url).pubsub_channels(f"{CHANNELS_PREFIX}-shards*"))


async def test_messages_to_sockets_and_groups_reach_them_over_both_shards(second_redis):
    """Each socket's channel and each group sits on the server its name hashes to; every send
    is published there, and both servers carry some of them."""
    processes = [two_shard_layer(second_redis) for _ in range(2)]
    sockets = [(layer, await layer.new_channel()) for layer in processes for _ in range(20)]
    for layer, channel in sockets:
        await layer.group_add(f"game-{len(channel) % 7}", channel)
    assert subscriptions(settings.REDIS_URL) > 0
    assert subscriptions(second_redis) > 0
    for number, (_, channel) in enumerate(sockets):
        await processes[number % 2].send(channel, {"type": "socket.replaced", "n": number})
    for number, (layer, channel) in enumerate(sockets):
        event = await asyncio.wait_for(layer.receive(channel), timeout=2)
        assert event["n"] == number
    for game in range(7):
        processes[0].group_send_blocking(f"game-{game}", {"type": "game.changed", "version": 3})
    for layer, channel in sockets:
        event = await asyncio.wait_for(layer.receive(channel), timeout=2)
        assert event == {"type": "game.changed", "version": 3}
    for layer in processes:
        await layer.flush()
