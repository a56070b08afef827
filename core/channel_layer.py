"""The channel layer: channels-redis' Redis pub/sub layer, sharded over CHANNELS_REDIS_URLS.

Why pub/sub rather than channels-redis' default layer: with the default one, every group send
ran a Lua script per receiving process and every process polled its list with BZPOPMIN and
cleaned a backup key after each message: about a quarter of a web process's CPU per decision
(py-spy, 20 tables at 20 decisions/s, docs/capacity.md). With pub/sub a group send is one
PUBLISH, and Redis pushes it to the processes subscribed to the group.

What pub/sub gives up: a message is not stored. One sent to a process that is not subscribed at
that instant (a socket reconnecting, a process restarting) is gone. The site never counted on
the store: a socket's connect always renders the whole table, a lost push heals within a second
(games.live.push_healing), presence lives in database rows written by heartbeats.

Sharding: each group and each socket's channel is on the Redis server its whole name hashes to,
the same hash to subscribe and to publish, so every message is published where its subscriber
listens (the default layer hashed a socket's channel two ways: django/channels#1492).
"""

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash, decode_hosts


class ChannelLayer(RedisPubSubChannelLayer):
    """The pub/sub layer, plus a group send for sync code that needs no event loop."""

    def __init__(self, hosts=None, **kwargs):
        super().__init__(hosts=hosts, **kwargs)
        # redis-py connects at the first command, from whichever thread sends first.
        self._blocking_clients = [_blocking_client(host) for host in decode_hosts(hosts)]

    def group_send_blocking(self, group: str, message: dict) -> int:
        """`group_send` from sync code (a decision's thread after its commit, a Celery task):
        the same PUBLISH on the same shard as the async one, without `async_to_sync`, which
        woke the web process's event loop for each send (or made a Celery task an event loop
        and a Redis connection per send). Returns how many processes it reached (Redis counts
        the connections subscribed to the group: one per process)."""
        name = self.group_channel_name(group)
        clients = self._blocking_clients
        return clients[_consistent_hash(name, len(clients))].publish(name, self.serialize(message))

    def group_channel_name(self, group: str) -> str:
        # channels_redis.pubsub.RedisPubSubLoopLayer._get_group_channel_name (4.3.0); a test
        # (tests/site/test_channel_layer.py) fails if the two ever differ.
        return f"{self._kwargs.get('prefix', 'asgi')}__group__{group}"

    def local_group_members(self, group: str) -> set[str]:
        """This process's channels in a group, for the running event loop (pub/sub keeps a
        group's members in each process; Redis knows only the processes subscribed)."""
        return set(self._get_layer().groups.get(self.group_channel_name(group), ()))


def _blocking_client(host: dict) -> redis.Redis:
    # A sender waits at most 2 s for a Redis that does not answer (broadcast._send logs it).
    options = {"socket_timeout": 2, "socket_connect_timeout": 2}
    options.update((key, value) for key, value in host.items() if key != "address")
    return redis.Redis.from_url(host["address"], **options)
