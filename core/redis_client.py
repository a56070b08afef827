"""The site's synchronous Redis client (sockets per user, who is online, rate limits), and
what its best-effort callers count as Redis failing."""

from functools import cache

import redis
from django.conf import settings


@cache
def client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


# Under a burst of new connections (80 log-ins at the start of a bench) redis-py 8.1 raised
# AttributeError ('NoneType' object has no attribute 'readline', from the retry of a new
# connection's connect) and, in another run, OSError (Bad file descriptor): the salle page
# answered 500. The best-effort callers take either for Redis being down.
FAILURES = (redis.RedisError, AttributeError, OSError)
