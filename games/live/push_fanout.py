"""One message per web process per decision: this process's table sockets of a game pushed
together. The process, not each socket, is the member of the game's process group; one
"game.changed" renders every local socket behind that version at once, in one hop into a thread,
the game read once. A socket's own decision renders the game's other local sockets in its hop,
and is not published at all while this process is the only one listening (`unheard`).

Rare events (a presence, an ending, a revanche) still reach each socket through the game's own
group. A push is in its reader's language, rendered once per (player, language) in use. A lost
message is healed by games.live.push_healing. One `ProcessFanout` per process (`FANOUT`); how
the pieces fit: docs/architecture.md, "The fan-out"; the languages: docs/languages.md."""

import asyncio
import logging
import time

from channels.layers import get_channel_layer

from games import broadcast
from games.broadcast import game_processes_group
from games.display import fragments
from games.live.loops import ProcessLoop, process_loop
from games.live.threads import hop, in_thread

log = logging.getLogger(__name__)

Rendered = tuple[str, int] | None
Reader = tuple[object, str]  # a socket's user and its language
Key = tuple[int, str]  # its user's id and its language: one render each

#: The audiences of a game's sockets: its players (each their own seat's render), its
#: spectators (one public render for all: docs/spectators.md) and the salles that show it
#: « À la une » (one render of its live part for all). A socket says which it is.
PLAYER, PUBLIC, FEATURED = "player", "public", "featured"

#: How long a PUBLISH that reached this process alone lets its game's next decisions go
#: unsent at most, if no process says it listens too (its "game.listening" lost).
ALONE_SECONDS = 10.0


class ProcessFanout(ProcessLoop):
    name = "push-fanout"

    def __init__(self):
        super().__init__()
        self.sockets: dict[int, set] = {}  # game id -> this process's table consumers
        self.layer = None
        self.channel: str | None = None
        self.membership: dict[int, asyncio.Lock] = {}
        self.in_flight: dict[int, int] = {}  # game id -> the newest version being pushed
        # game id -> the version a decision applied here renders for this process's sockets
        # in its own hop (`decided`): its message, when it comes back, renders nothing more
        self.decided_here: dict[int, int] = {}
        # game id -> when a PUBLISH of its changes last reached this process and no other
        self.alone_since: dict[int, float] = {}

    async def join(self, game_id: int, socket) -> None:
        """`socket` (a TableConsumer or a WatchConsumer: `audience`, `deliver`, `catch_up`)
        shows game `game_id`: from now on this process receives its game's changes."""
        await self._ensure_listening()
        async with self._membership_lock(game_id):
            members = self.sockets.setdefault(game_id, set())
            if not members:
                group = game_processes_group(game_id)
                await broadcast.join(group, self.channel, self.layer)
                await broadcast.process_listening(game_id, self.channel, self.layer)
            members.add(socket)

    async def leave(self, game_id: int, socket) -> None:
        if self.layer is None:
            return
        async with self._membership_lock(game_id):
            members = self.sockets.get(game_id)
            if members is None or socket not in members:
                return
            members.discard(socket)
            if not members:
                del self.sockets[game_id]
                self.alone_since.pop(game_id, None)
                await broadcast.leave(game_processes_group(game_id), self.channel, self.layer)

    def peers(self, game_id: int, socket) -> list[Reader]:
        """The readers (user, language) of the game's other players' sockets in this process
        (a decision of `socket`'s player renders their pushes in its own hop: `deciding`,
        `decided`); the spectators' sockets are pushed after it, with one public render per
        language (`game_changed`)."""
        return [
            reader(s)
            for s in self.sockets.get(game_id, ())
            if s is not socket and s.audience == PLAYER
        ]

    def deciding(self, game) -> None:
        """Called from a decision's thread once it is committed, before its broadcast: the
        decision's hop renders `game.version` for this process's sockets of the game."""
        self.decided_here[game.pk] = max(self.decided_here.get(game.pk, -1), game.version)

    def unheard(self, game_id: int, version: int) -> bool:
        """Called from a decision's thread after its commit: whether its "game.changed" would
        reach no process but this one, whose hop pushes `version` to the game's sockets here
        (`deciding`), as the last PUBLISH of the game, less than ALONE_SECONDS ago, found."""
        if self.decided_here.get(game_id) != version or not self.sockets.get(game_id):
            return False
        since = self.alone_since.get(game_id)
        return since is not None and time.monotonic() - since < ALONE_SECONDS

    def published(self, game_id: int, receivers: int) -> None:
        """A "game.changed" of the game reached `receivers` processes: this one alone (it is
        subscribed once it holds a socket of the game: `join`), or others too."""
        if receivers == 1 and self.sockets.get(game_id):
            self.alone_since[game_id] = time.monotonic()
        else:
            self.alone_since.pop(game_id, None)

    async def decided(self, game_id: int, version: int, pushes: dict[Key, Rendered]) -> None:
        """The hop of a decision that committed `version` ended: send its pushes to this
        process's other sockets of the game, then push as usual to any still behind (one that
        opened meanwhile, a failed render)."""
        ready = [
            s for s in self.sockets.get(game_id, ()) if s.audience == PLAYER and key(s) in pushes
        ]
        try:
            await asyncio.gather(
                *(s.deliver(pushes[key(s)]) for s in ready), return_exceptions=True
            )
        finally:  # only now: its message, if it comes meanwhile, finds them up to date
            if self.decided_here.get(game_id) == version:
                del self.decided_here[game_id]
        await self._pushed(game_id, version)

    async def game_changed(self, game_id: int, version: int) -> None:
        """Render the new version for every socket of the game behind it, at once, and send
        each its own render. A socket in the middle of its own decision (or of any render)
        catches up after it, rendering alone only if it still lacks the version."""
        behind = [s for s in self.sockets.get(game_id, ()) if s.rendered_version < version]
        ready = [s for s in behind if not s.busy()]
        for socket in behind:
            if socket.busy():
                asyncio.create_task(socket.catch_up(version))
        players = [s for s in ready if s.audience == PLAYER]
        if players:
            # one render per (player, language): two tabs of one reader share it
            readers = {key(s): reader(s) for s in players}
            rendered = await render_pushes(game_id, list(readers.values()), version)
            await asyncio.gather(
                *(s.deliver(rendered.get(key(s))) for s in players), return_exceptions=True
            )
        for audience, render in (
            (PUBLIC, fragments.public_push),
            (FEATURED, fragments.featured_push),
        ):
            by_language: dict[str, list] = {}
            for s in ready:
                if s.audience == audience:
                    by_language.setdefault(s.language, []).append(s)
            for language, alike in by_language.items():
                # one render for every such socket of the game in this process and language
                shown = await in_thread(render, language)(game_id, min_version=version)
                await asyncio.gather(*(s.deliver(shown) for s in alike), return_exceptions=True)

    def _membership_lock(self, game_id: int) -> asyncio.Lock:
        return self.membership.setdefault(game_id, asyncio.Lock())

    async def _ensure_listening(self) -> None:
        layer = get_channel_layer()
        if self.running_here() and layer is self.layer:
            return
        self.reset()
        self.layer = layer
        # The default prefix: channels-redis reads all of a process's channels with one BRPOP.
        self.channel = await layer.new_channel()
        broadcast.register_local_listeners(self)
        self.ensure_running()

    async def run(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("push fan-out: receive failed; listening again")
                await asyncio.sleep(0.5)
                continue
            kind, game_id = message.get("type"), message.get("game_id")
            if kind == "game.changed":
                version = message.get("version", 0)
                if self.decided_here.get(game_id, -1) < version:
                    asyncio.create_task(self._pushed(game_id, version))
            elif kind == "game.listening" and message.get("by") != self.channel:
                self.alone_since.pop(game_id, None)

    async def heal(self, game_id: int, version: int) -> None:
        """Push `version` again to this process's sockets of the game still behind it (its
        message was lost: games.live.push_healing)."""
        asyncio.create_task(self._pushed(game_id, version))

    def pushing(self, game_id: int, version: int) -> bool:
        """Whether `version` (or a later one) of the game is being pushed by this process."""
        newest = max(self.in_flight.get(game_id, -1), self.decided_here.get(game_id, -1))
        return newest >= version

    async def _pushed(self, game_id: int, version: int) -> None:
        self.in_flight[game_id] = max(self.in_flight.get(game_id, -1), version)
        try:
            await self.game_changed(game_id, version)
        except Exception:  # the sockets behind are healed (games.live.push_healing)
            log.exception("push fan-out of game %s version %s failed", game_id, version)
        finally:
            if self.in_flight.get(game_id) == version:
                del self.in_flight[game_id]


def reader(socket) -> Reader:
    """A socket's reader: its user, and the language they read (consumers' `language`)."""
    return socket.scope["user"], socket.language


def key(socket) -> Key:
    return socket.scope["user"].pk, socket.language


async def render_pushes(game_id: int, readers: list[Reader], version: int) -> dict[Key, Rendered]:
    """`fragments.table_pushes` for these readers, each in their language, in one hop into a
    thread."""
    return await hop(fragments.table_pushes, game_id, readers, min_version=version)


FANOUT = process_loop(ProcessFanout())
