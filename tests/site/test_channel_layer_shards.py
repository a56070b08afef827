"""The channel layer over several Redis servers: CHANNELS_REDIS_URLS names them, and every
message reaches the process it is for, whichever shard its name hashes to (musweb.channel_layer).
Two databases of the test Redis stand for two servers: two keyspaces that share nothing."""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from musweb.channel_layer import ShardedRedisChannelLayer
from tests.conftest import CHANNELS_PREFIX

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


def two_shard_layer() -> ShardedRedisChannelLayer:
    """A web process's layer over two shards (the test Redis's databases 14 and 15)."""
    server = settings.REDIS_URL.rsplit("/", 1)[0]
    hosts = [{"address": f"{server}/{db}", "socket_timeout": 30} for db in (14, 15)]
    return ShardedRedisChannelLayer(hosts=hosts, prefix=f"{CHANNELS_PREFIX}-shards")


async def test_a_message_to_one_socket_reaches_it_whichever_shard_its_name_hashes_to():
    """channels-redis 4.3 hashed the whole name of a socket's channel to send to it, but the
    process part to receive: with two shards about half of 40 sends would never arrive."""
    layer = two_shard_layer()
    sockets = [await layer.new_channel() for _ in range(40)]
    for number, channel in enumerate(sockets):
        await layer.send(channel, {"type": "socket.replaced", "n": number})
    for number, channel in enumerate(sockets):
        event = await asyncio.wait_for(layer.receive(channel), timeout=2)
        assert event["n"] == number
    await layer.flush()


async def test_a_group_spread_over_processes_on_both_shards_is_all_reached():
    processes = [two_shard_layer()]  # processes (random prefixes) until both shards receive
    while len({layer.consistent_hash(layer.client_prefix + "!") for layer in processes}) < 2:
        processes.append(two_shard_layer())
    sockets = [(layer, await layer.new_channel()) for layer in processes]
    for layer, channel in sockets:
        await layer.group_add("game-1", channel)
    await processes[0].group_send("game-1", {"type": "game.changed", "version": 3})
    for layer, channel in sockets:
        event = await asyncio.wait_for(layer.receive(channel), timeout=2)
        assert event["version"] == 3
    await processes[0].flush()
