"""One message per web process per decision: this process's table sockets of a game pushed
together.

With every table socket a member of its game's group, each decision reached each socket on its
own: dispatched to its consumer, rendered in a hop of its own. Here the process is the member:
the first table socket of a game in this process adds the process's own channel to the game's
process group (broadcast.game_processes_group), the last one gone removes it, and one
"game.changed" per process renders every local socket of that game behind the version at once
(the game taken once from games.display.game_cache) and sends each its own player's render: one
hop into a thread per process and decision, the game read once (or taken from the copy the
decision applied here left in the cache). The renders stay off the event loop: run in it they
cost the same CPU but held every other socket of the process waiting (measured: lost-push heals
tripled at 20 decisions/s, sockets more than 0.3 s behind).

The other events of a game (a presence, an ending, a revanche) still reach each socket through
its own membership of the game's group: they are rare, and each renders for its socket alone.

A decision up a socket of this process, when this process is the only one subscribed to the
game's process group, is not broadcast at all: its hop pushes every socket of the game there
is, and the message would only come back here to be dropped (its PUBLISH, and its receipt,
were a tenth of a socket decision's web CPU; bench.floor). Only Redis knows who is subscribed:
PUBLISH answers how many processes it reached, and one that reached this process alone lets
the next decisions go unsent (`unheard`, `published`) until another process says it listens
too: the first socket of a game in a process (a table split over two processes for a moment,
as while the proxy moves a table) makes it send "game.listening" to the game's process group,
and a process that hears it sends every decision again, each PUBLISH counting anew. A decision
made while that word is on its way is healed within a second there, as a lost message is; so
is every decision for at most ALONE_SECONDS if the word itself is lost, after which one is sent
again anyway. A decision that is not a socket's of this process (a POST, a robot's, the
clock's, another process's) is always sent.

A lost message is healed by this process's once-a-second check (games.live.push_healing), which
calls `game_changed` here for a game its sockets show behind: no message at all. A version this
process received and is still pushing (`pushing`) is late, not lost: left alone, so an
overloaded process is not given the same renders twice.

One `ProcessFanout` per process (`FANOUT`); it listens on the running event loop from the first
table socket (as games.live.heartbeats)."""

import asyncio
import logging
import time

from channels.layers import get_channel_layer

from games import broadcast
from games.broadcast import game_processes_group
from games.display import fragments
from games.live.threads import hop

log = logging.getLogger(__name__)

Rendered = tuple[str, int] | None

#: How long a PUBLISH that reached this process alone lets its game's next decisions go
#: unsent at most, if no process says it listens too (its "game.listening" lost).
ALONE_SECONDS = 10.0


class ProcessFanout:
    def __init__(self):
        self.sockets: dict[int, set] = {}  # game id -> this process's table consumers
        self.layer = None
        self.channel: str | None = None
        self.loop_task: asyncio.Task | None = None
        self.membership: dict[int, asyncio.Lock] = {}
        self.in_flight: dict[int, int] = {}  # game id -> the newest version being pushed
        # game id -> the version a decision applied here renders for this process's sockets
        # in its own hop (`decided`): its message, when it comes back, renders nothing more
        self.decided_here: dict[int, int] = {}
        # game id -> when a PUBLISH of its changes last reached this process and no other
        self.alone_since: dict[int, float] = {}

    def reset(self) -> None:
        """Forget every socket and the listener (tests: each test has its own event loop and
        channel layer)."""
        if self.loop_task is not None and not self.loop_task.get_loop().is_closed():
            self.loop_task.cancel()
        self.__init__()

    async def join(self, game_id: int, socket) -> None:
        """`socket` (a TableConsumer with `deliver` and `catch_up`) shows game `game_id`: from
        now on this process receives its game's changes."""
        await self._ensure_listening()
        async with self._membership_lock(game_id):
            members = self.sockets.setdefault(game_id, set())
            if not members:
                group = game_processes_group(game_id)
                await self.layer.group_add(group, self.channel)
                # A process that decides this game's moves alone hears that it is not (unheard)
                listening = {"type": "game.listening", "game_id": game_id, "by": self.channel}
                await self.layer.group_send(group, listening)
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
                await self.layer.group_discard(game_processes_group(game_id), self.channel)

    def peers(self, game_id: int, socket) -> list:
        """The users of the game's other sockets in this process (a decision of `socket`'s
        player renders their pushes in its own hop: `deciding`, `decided`)."""
        return [s.scope["user"] for s in self.sockets.get(game_id, ()) if s is not socket]

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

    async def decided(self, game_id: int, version: int, pushes: dict[int, Rendered]) -> None:
        """The hop of a decision that committed `version` ended: send its pushes to this
        process's other sockets of the game, then push as usual to any still behind (one that
        opened meanwhile, a failed render)."""
        ready = [s for s in self.sockets.get(game_id, ()) if s.scope["user"].pk in pushes]
        try:
            await asyncio.gather(
                *(s.deliver(pushes[s.scope["user"].pk]) for s in ready), return_exceptions=True
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
        if not ready:
            return
        users = {s.scope["user"].pk: s.scope["user"] for s in ready}
        rendered = await render_pushes(game_id, list(users.values()), version)
        await asyncio.gather(
            *(s.deliver(rendered.get(s.scope["user"].pk)) for s in ready), return_exceptions=True
        )

    def _membership_lock(self, game_id: int) -> asyncio.Lock:
        return self.membership.setdefault(game_id, asyncio.Lock())

    async def _ensure_listening(self) -> None:
        loop = asyncio.get_running_loop()
        layer = get_channel_layer()
        task = self.loop_task
        if task is not None and not task.done() and task.get_loop() is loop and layer is self.layer:
            return
        if task is not None and not task.get_loop().is_closed():
            task.cancel()
        self.__init__()
        self.layer = layer
        # The default prefix: channels-redis reads all of a process's channels with one BRPOP.
        self.channel = await layer.new_channel()
        self.loop_task = loop.create_task(self.listen(), name="push-fanout")

    async def listen(self) -> None:
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


async def render_pushes(game_id: int, users: list, version: int) -> dict[int, Rendered]:
    """`fragments.table_pushes` for these users, in one hop into a thread."""
    return await hop(fragments.table_pushes, game_id, users, min_version=version)


FANOUT = ProcessFanout()
broadcast.register_local_listeners(FANOUT)
