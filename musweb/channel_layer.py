"""The channel layer: channels-redis' RedisChannelLayer, sharded correctly over several Redis.

With several hosts, channels-redis picks a host by a consistent hash of the name: a group by its
name, a process-specific channel ("specific.<process>!<socket>") by its process part, the
"specific.<process>!" key the process receives from. But `send()` to one socket's channel
hashes the WHOLE name (channels-redis 4.3.0; django/channels#1492), so with two hosts about
half of those messages land on a shard the process never reads, and expire there: a replaced
socket not told, a lost presence not reported, a lost push not healed. Hashing the process part
everywhere puts every message where its process reads. With one host nothing changes."""

from channels_redis.core import RedisChannelLayer


class ShardedRedisChannelLayer(RedisChannelLayer):
    def consistent_hash(self, value):
        name = value.decode("utf8") if isinstance(value, bytes) else value
        return super().consistent_hash(self.non_local_name(name))
