"""Lost pushes heal: the versions this web process's table sockets show, checked together.

A push can be lost (the channel layer restarting, a group message expired under load, a Redis
shard failing over): the socket then shows an old version until the next change, which for a
player waiting on the others may never come. Every PUSH_HEALING_SECONDS, ONE query reads the
version of every game this process's table sockets show; a socket behind at two checks in a
row, at the same version (so healed within two periods; a push merely on its way is not sent
twice) is sent "game.changed" on its own channel, as the lost push would have been, and renders
the version it missed.

One `ShownVersions` per process (`SHOWN`); its loop starts with the first table socket on the
running event loop (as games.heartbeats)."""

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games import selectors

log = logging.getLogger(__name__)

_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-healing")
_versions_async = database_sync_to_async(
    selectors.game_versions, thread_sensitive=False, executor=_reader
)


class ShownVersions:
    def __init__(self):
        self.sockets: dict[str, tuple[int, int]] = {}  # channel name -> (game id, version shown)
        self.suspects: dict[str, tuple[int, int]] = {}  # those behind at the last check
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
        self.suspects.pop(channel_name, None)

    def behind(self, versions: dict[int, int]) -> list[tuple[str, int, int]]:
        """(channel name, game id, version) of each socket older than its game's `versions`
        at this check AND the previous one, still at the same version: a push merely on its
        way (a busy process) is not sent twice, which would add load when there is the most."""
        now_behind = {
            channel_name: (game_id, shown)
            for channel_name, (game_id, shown) in list(self.sockets.items())
            if versions.get(game_id, shown) > shown
        }
        lost = [
            (channel_name, game_id, versions[game_id])
            for channel_name, (game_id, shown) in now_behind.items()
            if self.suspects.get(channel_name) == (game_id, shown)
        ]
        self.suspects = now_behind
        return lost

    async def check(self) -> None:
        game_ids = {game_id for game_id, _ in self.sockets.values()}
        if not game_ids:
            return
        try:
            versions = await _versions_async(game_ids)
        except Exception:
            log.exception("versions of the shown games not read; trying again")
            return
        layer = get_channel_layer()
        for channel_name, game_id, version in self.behind(versions):
            event = {"type": "game.changed", "game_id": game_id, "version": version}
            try:
                await layer.send(channel_name, event)
            except Exception:
                log.warning("socket %s not sent its missed version", channel_name, exc_info=True)

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
