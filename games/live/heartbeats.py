"""The heartbeats of this web process's sockets, written together: a heartbeat only marks its
socket in memory, and every HEARTBEAT_FLUSH_SECONDS one write records them all (the table
sockets', this process's "alive", the salle sockets' open tables, the players online), instead
of a write and a thread hop per heartbeat. The writes run on a thread of their own, so a busy
render pool never delays them past WEB_PROCESS_LIMIT_SECONDS.

One way only: a socket the sweep took for dead is told so by a "presence.lost" message on its
own channel; the writer never calls into a consumer. One `Heartbeats` per process (`HEARTBEATS`)."""

import logging
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async

from games import broadcast
from games.live import socket_counts
from games.live.loops import PeriodicLoop, process_loop
from games.services import presence, salle

log = logging.getLogger(__name__)


def _write(heard: set[str], salle_users: set[int], online: set[int]) -> set[str]:
    if online:
        socket_counts.users_seen(online)
    if salle_users:
        salle.tables_seen_by(salle_users)
    return presence.server_alive(server=presence.server_id(), heard=heard)


_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="heartbeats")
_write_async = database_sync_to_async(_write, thread_sensitive=False, executor=_writer)


class Heartbeats(PeriodicLoop):
    name = "heartbeats"
    period_setting = "HEARTBEAT_FLUSH_SECONDS"

    def __init__(self):
        super().__init__()
        self.heard: set[str] = set()
        self.salle_users: set[int] = set()
        self.online: set[int] = set()  # the users whose sockets spoke since the last flush
        self.watched: set[str] = set()

    def watch(self, channel_name: str) -> None:
        """A table socket with a SeatConnection row: it gets a "presence.lost" message if a
        flush finds its row gone (the sweep took the socket for dead)."""
        self.watched.add(channel_name)
        self.ensure_running()

    def forget(self, channel_name: str) -> None:
        self.watched.discard(channel_name)
        self.heard.discard(channel_name)

    def beat(self, channel_name: str) -> None:
        if channel_name in self.watched:
            self.heard.add(channel_name)

    def user_beat(self, user_id: int) -> None:
        """Any socket's heartbeat: its user is online (written at the next flush)."""
        self.online.add(user_id)
        self.ensure_running()

    def user_gone(self, user_id: int) -> None:
        """A socket of the user closed (socket_counts.user_left decides whether they are offline): a
        heartbeat not yet written must not mark them online again after it."""
        self.online.discard(user_id)

    def salle_beat(self, user_id: int) -> None:
        """A salle socket's heartbeat: its player's open table is being looked at."""
        self.salle_users.add(user_id)
        self.ensure_running()

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
        for channel_name in lost & self.watched:
            try:
                await broadcast.presence_lost(channel_name)
            except Exception:
                log.warning("socket %s not told its row is gone", channel_name, exc_info=True)

    async def tick(self) -> None:
        await self.flush()


HEARTBEATS = process_loop(Heartbeats())
