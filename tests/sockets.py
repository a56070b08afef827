"""Opening the site's sockets in tests, through the real stack (musweb.asgi.application: the
origin check, session auth, the Redis channel layer), so that a test sees what a browser would.
Shared by the socket tests of games, presence and moderation."""

import asyncio
import contextlib
import html
import json
import re
import time

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client

from musweb.asgi import application

#: the Origin header of a page of the site (the test client's host), which the sockets accept
ORIGIN = (b"origin", b"http://testserver")
SALLE_PATH = "/ws/salle/"


class Communicator(WebsocketCommunicator):
    """A WebsocketCommunicator that `close_left_open` disconnects if its test did not, and whose
    receive timeouts leave its consumer running."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        OPENED.append(self)

    async def receive_output(self, timeout=1):
        """The next message from the consumer, as asgiref's, except on a timeout: asgiref's
        cancels the consumer wherever it is, often in the middle of a render whose thread then
        never gave its connection back to the pool (a test process has 20), so one timeout
        became timeouts in the tests after it. Here the consumer goes on, and is disconnected
        like any other socket."""
        if self.future.done():
            self.future.result()
        message = asyncio.ensure_future(self.output_queue.get())
        await asyncio.wait({message, self.future}, timeout=timeout, return_when="FIRST_COMPLETED")
        if message.done():
            return message.result()
        message.cancel()
        if self.future.done():
            self.future.result()
        raise TimeoutError


#: this test's sockets, in opening order
OPENED: list[Communicator] = []


async def close_left_open(held_before: int = 0, timeout: float = 5.0) -> None:
    """Disconnect the sockets a test left open (it failed before its own disconnects), then
    let everything the test started on its event loop end while the loop still runs, and
    check that every pooled connection its threads took is back, `held_before` being those
    out before it (the sync fixtures'): else the tests after it would wait on an empty pool,
    and the failure, this test's, is said here.

    Otherwise the loop closed under live consumers: none ran its disconnect (presence rows,
    groups), and renders or writes still in flight ran on in threads that outlived the loop."""
    from games.live import loops

    sockets, OPENED[:] = list(OPENED), []
    for communicator in sockets:
        if not communicator.future.done():
            with contextlib.suppress(Exception):
                await communicator.disconnect(timeout=1)
    loops.reset_all()  # the fan-out's listener never ends of itself
    with contextlib.suppress(Exception):  # nor does the pub/sub layer's receiving task
        await get_channel_layer().flush()
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    if others:
        _, late = await asyncio.wait(others, timeout=timeout)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
    # the renders and writes still running in the default executor's threads: each gives its
    # connection back to the pool when it ends
    await asyncio.get_running_loop().shutdown_default_executor(timeout=timeout)
    deadline = time.monotonic() + 6 * timeout  # a render of a busy machine still giving back
    while held_connections() > held_before and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    held = held_connections() - held_before
    assert held <= 0, f"{held} pooled database connection(s) still held after the test"


def held_connections() -> int:
    """How many of the process's pooled database connections are out of the pool (taken, or
    being opened for a taker), from psycopg_pool's stats."""
    from django.db import connection

    pool = connection.pool
    if pool is None or pool.closed:
        return 0
    stats = pool.get_stats()
    return stats["pool_size"] - stats.get("pool_available", 0)


def table_path(table_id) -> str:
    return f"/ws/tables/{table_id}/"


@database_sync_to_async
def logged_in(user) -> Client:
    """A test client with a session of `user` (no log-in form, so no throttling)."""
    client = Client()
    client.force_login(user)
    return client


def cookie(client: Client) -> tuple[bytes, bytes]:
    """The Cookie header that carries `client`'s session to a socket."""
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def session_cookie(user) -> tuple[bytes, bytes]:
    """A Cookie header of a new session of `user`."""
    return cookie(await logged_in(user))


async def connect(user=None, *, origin=ORIGIN, path=SALLE_PATH):
    """(communicator, connected): a socket of `user` (anonymous if None) opened from `origin`
    (no Origin header if None)."""
    headers = [origin] if origin else []
    if user is not None:
        headers.append(await session_cookie(user))
    communicator = Communicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def connect_table(user, table_id):
    return await connect(user, path=table_path(table_id))


async def rendered_socket(path, user, timeout=5):
    """A connected socket of `user` whose first push, the full render every connect sends,
    has been read, so that the test's next receive is a change."""
    communicator, connected = await connect(user, path=path)
    assert connected
    await communicator.receive_from(timeout=timeout)
    return communicator


async def receive_version(communicator, version, timeout=5):
    """The next table push showing `version` (older ones, if any, are skipped)."""
    while True:
        payload = await communicator.receive_from(timeout=timeout)
        if f'data-version="{version}"' in payload:
            return payload


async def next_push(communicator, predicate, timeout):
    """The first push (unescaped) that satisfies `predicate`, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such push in time"
        payload = html.unescape(await communicator.receive_from(timeout=left))
        if predicate(payload):
            return payload


TURN_CLOCK = re.compile(r'<p class="tclock[^"]*"[^>]*>.*?</p>', re.S)


def without_clocks(payload: str) -> str:
    """A push with its turn clocks taken out: they hold the server's time, so two renders of the
    same version differ there and nowhere else."""
    return TURN_CLOCK.sub("", payload)


def decide(fields) -> str:
    return json.dumps({"type": "decide", "fields": fields})


async def opened(user, game):
    communicator, connected = await connect_table(user, game.table_id)
    assert connected
    await receive_version(communicator, game.version)
    return communicator
