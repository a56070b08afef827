"""Each user's open sockets, per kind (salle, table), counted in Redis across web processes.

Every salle socket renders on every change of the salle: one account holding a hundred of them
slowed everyone's pushes. A user keeps at most SOCKETS_PER_USER sockets of a kind; a new one
closes the oldest (which tells its page it was opened elsewhere) rather than being refused.
That is kind to a player who opened one tab too many, and it heals by itself: a socket whose
web process died without closing it stays listed, but it is the oldest and goes first.

Kept in a sorted set per user and kind (channel name -> opening time) under the channel layer's
prefix; the set expires a day after its last opening. Redis being down allows every socket.
"""

import logging
import time
from functools import cache

import redis
from django.conf import settings

log = logging.getLogger(__name__)

KEPT_SECONDS = 24 * 3600


@cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def _key(kind: str, user_id: int) -> str:
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}:sockets:{kind}:{user_id}"


def socket_opened(*, kind: str, user_id: int, channel_name: str) -> list[str]:
    """Record an open socket; returns the channel names of the user's oldest sockets of that
    kind past SOCKETS_PER_USER (no longer listed: the caller closes them)."""
    key = _key(kind, user_id)
    keep = max(settings.SOCKETS_PER_USER, 1)
    try:
        pipe = _client().pipeline()
        pipe.zadd(key, {channel_name: time.time()})
        pipe.expire(key, KEPT_SECONDS)
        pipe.zrange(key, 0, -(keep + 1))
        pipe.zremrangebyrank(key, 0, -(keep + 1))
        *_, oldest, _ = pipe.execute()
    except redis.RedisError:
        log.warning("sockets of user %s not counted: Redis unavailable", user_id)
        return []
    return [name.decode() for name in oldest]


def socket_closed(*, kind: str, user_id: int, channel_name: str) -> None:
    try:
        _client().zrem(_key(kind, user_id), channel_name)
    except redis.RedisError:
        log.warning("socket of user %s not forgotten: Redis unavailable", user_id)


def open_sockets(*, kind: str, user_id: int) -> list[str]:
    """The user's listed sockets of that kind, oldest first."""
    return [name.decode() for name in _client().zrange(_key(kind, user_id), 0, -1)]
