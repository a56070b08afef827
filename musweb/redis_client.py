"""The site's synchronous Redis client (sockets per user, who is online, rate limits), and
what its best-effort callers count as Redis failing."""

from functools import cache

import redis
from django.conf import settings


@cache
def client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


# redis-py 8.1 once raised AttributeError ('NoneType' object has no attribute 'readline') from
# the retry of a new connection's connect, under a burst of new connections (80 log-ins at the
# start of a bench): the salle page answered 500. Its callers take it for Redis being down.
FAILURES = (redis.RedisError, AttributeError)
