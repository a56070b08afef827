"""The ASGI application `python -m bench.floor` runs under daphne: a decision's input and output
on the site's stack with none of the site's own work (no engine, no render, no ORM query).

A table's four sockets connect to /floor/<table>/; a decision sent gets its answer and three
pushes back. FLOOR_LEVEL adds one piece of the site's path at a time (``socket``, ``hop``,
``database``, ``publish``: docs/bench.md). Settings: musweb.settings, as `make run` runs it.
"""

import asyncio
import gc
import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "musweb.settings")
django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402

from bench.floor import LEVELS, TABLE  # noqa: E402
from musweb.asgi import GC_YOUNG_THRESHOLD  # noqa: E402

LEVEL = os.environ.get("FLOOR_LEVEL", "socket")
PUSH_CHARS = int(os.environ.get("FLOOR_PUSH_CHARS", "15000"))
STATE_CHARS = int(os.environ.get("FLOOR_STATE_CHARS", "4000"))


def at_least(level: str) -> bool:
    return LEVELS.index(LEVEL) >= LEVELS.index(level)


def decide(table: int, version: int) -> int:
    """The thread's part of a decision at this level: returns the new version."""
    if not at_least("database"):
        connection.ensure_connection()  # a hop borrows a connection as the site's does
        return version + 1
    state = json.dumps({"version": version + 1, "log": "x" * STATE_CHARS})
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT version FROM {TABLE} WHERE id = %s FOR UPDATE", [table])
            cursor.execute(
                f"UPDATE {TABLE} SET version = version + 1, state = %s WHERE id = %s",
                [state, table],
            )
        if at_least("publish"):
            event = {"type": "game.changed", "game_id": table, "version": version + 1}
            layer = get_channel_layer()
            transaction.on_commit(
                lambda: layer.group_send_blocking(f"floor-{table}-processes", event)
            )
    return version + 1


decide_in_thread = database_sync_to_async(decide, thread_sensitive=False)


class Process:
    """This process's sockets per table, and (level publish) its channel in each table's group,
    whose messages it receives and drops."""

    def __init__(self):
        self.tables: dict[int, set] = {}
        self.channel: str | None = None
        self.listener: asyncio.Task | None = None

    async def join(self, table: int, socket) -> None:
        members = self.tables.setdefault(table, set())
        if at_least("publish") and not members:
            layer = get_channel_layer()
            if self.channel is None:
                self.channel = await layer.new_channel()
                self.listener = asyncio.create_task(self.listen(layer))
            await layer.group_add(f"floor-{table}-processes", self.channel)
        members.add(socket)

    def leave(self, table: int, socket) -> None:
        self.tables.get(table, set()).discard(socket)

    async def listen(self, layer) -> None:
        while True:
            await layer.receive(self.channel)  # its own decisions' echo: dropped


PROCESS = Process()
PUSH = "p" * PUSH_CHARS


class FloorConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        """As games.live.consumers.UserSocket dispatches: without Channels' hop into a thread to
        close old database connections before every message."""
        await getattr(self, get_handler_name(message))(message)

    async def connect(self):
        self.table = int(self.scope["url_route"]["kwargs"]["table"])
        await PROCESS.join(self.table, self)
        await self.accept()

    async def disconnect(self, code):
        PROCESS.leave(self.table, self)

    async def receive(self, text_data=None, bytes_data=None):
        version = json.loads(text_data)["v"]
        if at_least("hop"):
            version = await decide_in_thread(self.table, version)
        else:
            version += 1
        frame = f'{{"v": {version}}}{PUSH}'
        await self.send(text_data=frame)
        peers = [s for s in PROCESS.tables.get(self.table, ()) if s is not self]
        await asyncio.gather(*(s.send(text_data=frame) for s in peers))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("floor/<int:table>/", FloorConsumer.as_asgi())])}
)

# As musweb.asgi does after loading the site: the same collector settings.
gc.collect()
gc.freeze()
gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)
