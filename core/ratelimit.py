"""Rate limits shared by every web process: fixed windows counted in Redis.

A `Limit` allows `count` hits per `seconds` for one key (an IP, a user id, a user name). Counters
live in Redis (REDIS_URL) under RATELIMIT_PREFIX, so all web processes share them and a restart
keeps them; each expires with its window. `exceeded` only looks (a check before costly work, such
as hashing a password); `hit` counts one and says whether the limit is now passed.

Redis being down must not lock everybody out: every call then allows (and logs once per call).
"""

import hashlib
import logging
from dataclasses import dataclass

from django.conf import settings

from core.redis_client import FAILURES, client

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int

    def redis_key(self, key: str) -> str:
        # Hashed: a key may be a user name of any length or characters.
        digest = hashlib.blake2b(str(key).encode(), digest_size=16).hexdigest()
        return f"{settings.RATELIMIT_PREFIX}:{self.name}:{digest}"


def hit(limit: Limit, key: str) -> bool:
    """Count one hit for `key`; True when this hit passes the limit (the caller refuses)."""
    name = limit.redis_key(key)
    try:
        pipe = client().pipeline()
        pipe.incr(name)
        pipe.expire(name, limit.seconds, nx=True)
        count, _ = pipe.execute()
    except FAILURES:
        log.warning("rate limit %s: Redis unavailable, allowing", limit.name)
        return False
    return count > limit.count


def exceeded(limit: Limit, key: str) -> bool:
    """True when `key` has already used up its hits in the current window (nothing counted)."""
    try:
        count = client().get(limit.redis_key(key))
    except FAILURES:
        log.warning("rate limit %s: Redis unavailable, allowing", limit.name)
        return False
    return count is not None and int(count) >= limit.count


def retry_after(limit: Limit, key: str) -> int:
    """Seconds until `key`'s window ends (at least 1)."""
    try:
        ttl = client().ttl(limit.redis_key(key))
    except FAILURES:
        return 1
    return max(int(ttl), 1)


def reset(limit: Limit, key: str) -> None:
    """Forget `key`'s hits (e.g. after a successful log-in)."""
    try:
        client().delete(limit.redis_key(key))
    except FAILURES:
        log.warning("rate limit %s: Redis unavailable, not reset", limit.name)


def forget_all() -> int:
    """Delete every counter under RATELIMIT_PREFIX (tests); returns how many."""
    redis = client()
    names = list(redis.scan_iter(match=f"{settings.RATELIMIT_PREFIX}:*", count=500))
    if names:
        redis.delete(*names)
    return len(names)
