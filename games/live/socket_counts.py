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
from collections.abc import Collection

from django.conf import settings

from core.redis_client import FAILURES, client

log = logging.getLogger(__name__)

KEPT_SECONDS = 24 * 3600


def _key(kind: str, user_id: int) -> str:
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}:sockets:{kind}:{user_id}"


def socket_opened(*, kind: str, user_id: int, channel_name: str) -> list[str]:
    """Record an open socket; returns the channel names of the user's oldest sockets of that
    kind past SOCKETS_PER_USER (no longer listed: the caller closes them)."""
    key = _key(kind, user_id)
    keep = max(settings.SOCKETS_PER_USER, 1)
    try:
        pipe = client().pipeline()
        pipe.zadd(key, {channel_name: time.time()})
        pipe.expire(key, KEPT_SECONDS)
        pipe.zrange(key, 0, -(keep + 1))
        pipe.zremrangebyrank(key, 0, -(keep + 1))
        *_, oldest, _ = pipe.execute()
    except FAILURES:
        log.warning("sockets of user %s not counted: Redis unavailable", user_id)
        return []
    return [name.decode() for name in oldest]


def socket_closed(*, kind: str, user_id: int, channel_name: str) -> None:
    try:
        client().zrem(_key(kind, user_id), channel_name)
    except FAILURES:
        log.warning("socket of user %s not forgotten: Redis unavailable", user_id)


def open_sockets(*, kind: str, user_id: int) -> list[str]:
    """The user's listed sockets of that kind, oldest first."""
    names: list[bytes] = client().zrange(_key(kind, user_id), 0, -1)  # type: ignore[assignment]
    return [name.decode() for name in names]


# Who is online: one sorted set, user id -> the last time one of their sockets opened or sent a
# heartbeat. A user silent past HEARTBEAT_LIMIT_SECONDS is no longer counted; a user whose last
# socket closes leaves it at once. Counting is a ZREMRANGEBYSCORE and a ZCARD.


def _online_key() -> str:
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}:online"


def user_seen(user_id: int, *, now: float | None = None) -> None:
    users_seen([user_id], now=now)


def users_seen(user_ids: Collection[int], *, now: float | None = None) -> None:
    """These users are online now: one write for all (a web process's heartbeats of the last
    second, games.live.heartbeats)."""
    seen = now or time.time()
    try:
        pipe = client().pipeline()
        pipe.zadd(_online_key(), {str(user_id): seen for user_id in user_ids})
        pipe.expire(_online_key(), KEPT_SECONDS)
        pipe.execute()
    except FAILURES:
        log.warning("%s users not marked online: Redis unavailable", len(user_ids))


def user_left(user_id: int) -> None:
    """One of the user's sockets closed: if it was their last of any kind, they are offline."""
    try:
        redis = client()
        if not any(redis.zcard(_key(kind, user_id)) for kind in ("salle", "table")):
            redis.zrem(_online_key(), str(user_id))
    except FAILURES:
        log.warning("user %s not marked offline: Redis unavailable", user_id)


def online_count(*, now: float | None = None) -> int:
    """Players with a salle or table socket that spoke within HEARTBEAT_LIMIT_SECONDS; None
    counted (0) when Redis is down."""
    since = (now or time.time()) - settings.HEARTBEAT_LIMIT_SECONDS
    try:
        pipe = client().pipeline()
        pipe.zremrangebyscore(_online_key(), "-inf", f"({since}")
        pipe.zcard(_online_key())
        _, count = pipe.execute()
    except FAILURES:
        log.warning("online players not counted: Redis unavailable")
        return 0
    return int(count)
