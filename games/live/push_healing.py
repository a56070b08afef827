"""Lost pushes heal: the channel layer stores nothing, so a push lost while Redis restarts or a
message expires would leave a socket on an old version until the next change, which for a
player waiting on the others may never come. Every PUSH_HEALING_SECONDS one query reads the
versions of the games this process's sockets show; a socket behind a version older than
PUSH_HEALING_GRACE_SECONDS is pushed again through the fan-out. A younger version, or one this
process is still pushing, is left to its push: healing it would add renders where the load is.

One `ShownVersions` per process (`SHOWN`)."""

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games import selectors
from games.live.loops import PeriodicLoop, process_loop
from games.live.push_fanout import FANOUT

log = logging.getLogger(__name__)

_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-healing")
_versions_async = database_sync_to_async(
    selectors.game_versions, thread_sensitive=False, executor=_reader
)


class ShownVersions(PeriodicLoop):
    name = "push-healing"
    period_setting = "PUSH_HEALING_SECONDS"

    def __init__(self):
        super().__init__()
        self.sockets: dict[str, tuple[int, int]] = {}  # channel name -> (game id, version shown)

    def shown(self, channel_name: str, game_id: int, version: int) -> None:
        """The socket `channel_name` now shows `version` of game `game_id`."""
        self.sockets[channel_name] = (game_id, version)
        self.ensure_running()

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

    async def tick(self) -> None:
        await self.check()

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


SHOWN = process_loop(ShownVersions())
