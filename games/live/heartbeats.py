"""The heartbeats of this web process's sockets, written together.

Each page sends a heartbeat every HEARTBEAT_SECONDS; with a thousand players that would be fifty
UPDATEs a second, each through a thread of its own. Here a heartbeat only marks its socket in
memory, and every HEARTBEAT_FLUSH_SECONDS one write records them all: the table sockets' and
this process's "alive" (`presence.server_alive`, which lets the sweep drop the sockets of a
process that died), the open tables the salle sockets' players sit at
(`salle.tables_seen_by`), and the players online (`sockets.users_seen`: one Redis write, where
each heartbeat had a thread hop and a Redis round trip of its own, about 1.5 ms of CPU). The
writes run on a thread of their own so that a busy render pool never delays them past
WEB_PROCESS_LIMIT_SECONDS.

One way only: a socket the sweep took for dead is told so by a "presence.lost" message on its
own channel (the consumer then records itself again); the writer never calls into a consumer.

One `Heartbeats` per process (`HEARTBEATS`); its loop starts with the first socket on the
running event loop.
"""

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games.live import sockets
from games.services import presence, salle

log = logging.getLogger(__name__)


def _write(heard: set[str], salle_users: set[int], online: set[int]) -> set[str]:
    if online:
        sockets.users_seen(online)
    if salle_users:
        salle.tables_seen_by(salle_users)
    return presence.server_alive(server=presence.server_id(), heard=heard)


_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="heartbeats")
_write_async = database_sync_to_async(_write, thread_sensitive=False, executor=_writer)


class Heartbeats:
    def __init__(self):
        self.heard: set[str] = set()
        self.salle_users: set[int] = set()
        self.online: set[int] = set()  # the users whose sockets spoke since the last flush
        self.watched: set[str] = set()
        self.loop_task: asyncio.Task | None = None

    def reset(self) -> None:
        """Forget every socket and the loop (tests: each test has its own event loop)."""
        if self.loop_task is not None and not self.loop_task.get_loop().is_closed():
            self.loop_task.cancel()
        self.__init__()

    def watch(self, channel_name: str) -> None:
        """A table socket with a SeatConnection row: it gets a "presence.lost" message if a
        flush finds its row gone (the sweep took the socket for dead)."""
        self.watched.add(channel_name)
        self._ensure_running()

    def forget(self, channel_name: str) -> None:
        self.watched.discard(channel_name)
        self.heard.discard(channel_name)

    def beat(self, channel_name: str) -> None:
        if channel_name in self.watched:
            self.heard.add(channel_name)

    def user_beat(self, user_id: int) -> None:
        """Any socket's heartbeat: its user is online (written at the next flush)."""
        self.online.add(user_id)
        self._ensure_running()

    def user_gone(self, user_id: int) -> None:
        """A socket of the user closed (sockets.user_left decides whether they are offline): a
        heartbeat not yet written must not mark them online again after it."""
        self.online.discard(user_id)

    def salle_beat(self, user_id: int) -> None:
        """A salle socket's heartbeat: its player's open table is being looked at."""
        self.salle_users.add(user_id)
        self._ensure_running()

    async def flush(self) -> None:
        """Write the heartbeats heard since the last flush, and this process's "alive"."""
        heard, self.heard = self.heard, set()
        salle_users, self.salle_users = self.salle_users, set()
        online, self.online = self.online, set()
        try:
            lost = await _write_async(heard, salle_users, online)
        except Exception:
            log.exception("heartbeats not written; trying again at the next flush")
            self.heard |= heard
            self.salle_users |= salle_users
            self.online |= online
            return
        layer = get_channel_layer()
        for channel_name in lost & self.watched:
            try:
                await layer.send(channel_name, {"type": "presence.lost"})
            except Exception:
                log.warning("socket %s not told its row is gone", channel_name, exc_info=True)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(settings.HEARTBEAT_FLUSH_SECONDS)
            await self.flush()

    def _ensure_running(self) -> None:
        loop = asyncio.get_running_loop()
        task = self.loop_task
        # A new event loop (tests run one per test) needs its own flushing task.
        if task is None or task.done() or task.get_loop() is not loop:
            self.loop_task = loop.create_task(self.run(), name="heartbeats")


HEARTBEATS = Heartbeats()
