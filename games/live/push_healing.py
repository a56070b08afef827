"""Lost pushes heal: the versions this web process's table sockets show, checked together.

A push can be lost (the channel layer restarting, a group message expired under load, a Redis
shard failing over): the socket then shows an old version until the next change, which for a
player waiting on the others may never come. Every PUSH_HEALING_SECONDS, ONE query reads the
version of every game this process's table sockets show, and when the game was last written; a
game with a socket behind a version older than PUSH_HEALING_GRACE_SECONDS is pushed again in
this process (games.live.push_fanout, as its lost message would have: no message sent), and its
sockets render the version they missed: healed within one period plus the grace. A version
younger than the grace is left to its push, which may still be on its way; so is a version this
process received and is still pushing (a busy process): pushing it twice would add load where
there is the most. (A socket renders a version once: whichever comes second is dropped.)

The grace compares the database's `Game.updated` (written by the process that applied the
decision) with this process's clock: machines keep their clocks within milliseconds (NTP); a
skew only moves the heal by that much.

One `ShownVersions` per process (`SHOWN`); its loop starts with the first table socket on the
running event loop (as games.live.heartbeats)."""

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games import selectors
from games.live.push_fanout import FANOUT

log = logging.getLogger(__name__)

_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-healing")
_versions_async = database_sync_to_async(
    selectors.game_versions, thread_sensitive=False, executor=_reader
)


class ShownVersions:
    def __init__(self):
        self.sockets: dict[str, tuple[int, int]] = {}  # channel name -> (game id, version shown)
        self.loop_task: asyncio.Task | None = None

    def reset(self) -> None:
        """Forget every socket and the loop (tests: each test has its own event loop)."""
        if self.loop_task is not None and not self.loop_task.get_loop().is_closed():
            self.loop_task.cancel()
        self.__init__()

    def shown(self, channel_name: str, game_id: int, version: int) -> None:
        """The socket `channel_name` now shows `version` of game `game_id`."""
        self.sockets[channel_name] = (game_id, version)
        self._ensure_running()

    def forget(self, channel_name: str) -> None:
        self.sockets.pop(channel_name, None)

    def behind(
        self, versions: dict[int, tuple[int, datetime]], *, now: datetime, grace: float
    ) -> list[tuple[str, int, int]]:
        """(channel name, game id, version) of each socket older than its game's version in
        `versions` ({game id: (version, written at)}), when that version was written more than
        `grace` seconds before `now`: a younger one's push may still be on its way."""
        written_before = now - timedelta(seconds=grace)
        return [
            (channel_name, game_id, versions[game_id][0])
            for channel_name, (game_id, shown) in list(self.sockets.items())
            if game_id in versions
            and versions[game_id][0] > shown
            and versions[game_id][1] <= written_before
        ]

    async def check(self) -> None:
        game_ids = {game_id for game_id, _ in self.sockets.values()}
        if not game_ids:
            return
        try:
            versions = await _versions_async(game_ids)
        except Exception:
            log.exception("versions of the shown games not read; trying again")
            return
        lost = self.behind(versions, now=timezone.now(), grace=settings.PUSH_HEALING_GRACE_SECONDS)
        games = {game_id: version for _, game_id, version in lost}
        for game_id, version in games.items():
            if not FANOUT.pushing(game_id, version):
                await FANOUT.heal(game_id, version)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(settings.PUSH_HEALING_SECONDS)
            await self.check()

    def _ensure_running(self) -> None:
        loop = asyncio.get_running_loop()
        task = self.loop_task
        if task is None or task.done() or task.get_loop() is not loop:
            self.loop_task = loop.create_task(self.run(), name="push-healing")


SHOWN = ShownVersions()
