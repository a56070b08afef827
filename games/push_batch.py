"""The pushes of one game version in this web process, rendered in ONE hop into sync code.

At each decision the "game.changed" of the game reaches each of its sockets in this process a
few hundred microseconds apart (the channel layer hands this process's messages over one by
one). Each socket rendering on its own would cost a hop into a thread per socket, and the
thread hand-offs and wake-ups of the event loop were a large part of a push's CPU. Here the
first socket opens a batch for (game, version), the others of that version join it during
BATCH_WINDOW_SECONDS, and one call renders them all (the game loaded once, from
games.display.game_cache); each socket then sends its own player's render.
"""

import asyncio
from collections.abc import Awaitable, Callable

from games.display import fragments

BATCH_WINDOW_SECONDS = 0.002

Rendered = tuple[str, int] | None
Hop = Callable[..., Awaitable[dict[int, Rendered]]]


class _Batch:
    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.users: dict[int, object] = {}
        self.result: asyncio.Future = loop.create_future()


_open: dict[tuple[int, int], _Batch] = {}


async def table_push(hop: Hop, game_id: int, user, *, min_version: int) -> Rendered:
    """What `fragments.table_push` returns for `user`, rendered with the other sockets of this
    process that wait for the same version; `hop` runs `fragments.table_pushes` in a thread."""
    loop = asyncio.get_running_loop()
    key = (game_id, min_version)
    batch = _open.get(key)
    if batch is None or batch.loop is not loop:
        batch = _open[key] = _Batch(loop)
        loop.call_later(BATCH_WINDOW_SECONDS, _start, hop, key, batch, game_id, min_version)
    batch.users[user.pk] = user
    # shielded: a socket that closes meanwhile must not cancel the others' render
    rendered = await asyncio.shield(batch.result)
    return rendered.get(user.pk)


def _start(hop: Hop, key, batch: _Batch, game_id: int, min_version: int) -> None:
    if _open.get(key) is batch:
        del _open[key]
    users = list(batch.users.values())

    async def render() -> None:
        try:
            rendered = await hop(fragments.table_pushes, game_id, users, min_version=min_version)
        except BaseException as error:  # every waiting socket fails as it would have alone
            if not batch.result.done():
                batch.result.set_exception(error)
            if isinstance(error, asyncio.CancelledError):
                raise
            return
        batch.result.set_result(rendered)

    batch.loop.create_task(render())
