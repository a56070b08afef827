"""WebSocket consumers: thin. Authenticate, join the groups, track presence, render on
"changed".

Every consumer also joins its user's group (``user-<id>``): a "user.kicked" event pushes a
redirect to the login page and closes the socket with code 4003.

The pages send ``{"type": "heartbeat"}`` every HEARTBEAT_SECONDS (static/js/live.js): the table
socket refreshes its SeatConnection, the salle socket its player's open table (games.presence,
games.services.tables_seen_by). Anything else sent up the socket is ignored: writes go over
HTTP."""

import asyncio
import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import presence, rendering, selectors, services
from games.broadcast import SALLE_GROUP, game_group, user_group
from games.heartbeats import HEARTBEATS

KICKED_CLOSE_CODE = 4003
# A salle socket renders at most once per PUSH_WINDOW seconds, plus the render running.
PUSH_WINDOW = 0.25

log = logging.getLogger(__name__)


def _render(function):
    """Run a rendering function (or a short database write) off the shared sync thread, so
    many sockets work side by side (each call opens and closes its own database connection)."""
    return database_sync_to_async(function, thread_sensitive=False)


def is_heartbeat(text_data) -> bool:
    try:
        message = json.loads(text_data or "")
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "heartbeat"


class UserSocket(AsyncWebsocketConsumer):
    """Base: a logged-in user's socket in some groups, always with the user's own group."""

    groups_joined: tuple[str, ...] = ()

    def authenticated_user(self):
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    async def join(self, *groups: str) -> None:
        self.groups_joined = (*groups, user_group(self.scope["user"].pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Only heartbeats are read; everything is written over HTTP."""
        if self.groups_joined and is_heartbeat(text_data):
            await self.heartbeat()

    async def heartbeat(self):
        """The page is alive (see the subclasses)."""

    async def user_kicked(self, event):
        await self.send(text_data=rendering.kicked_fragments(event.get("reason") or ""))
        await self.close(code=KICKED_CLOSE_CODE)


class SalleConsumer(UserSocket):
    """Pushes the #salle fragment (an htmx out-of-band swap) to one logged-in user: on connect,
    so a (re)connect always gets a full render, then after "salle changed" events.

    The pushes show the page of tables the player looks at: the socket address's ?page=, then
    the page the page's script reports after a Tables précédentes / suivantes link
    ({"type": "salle.page", "page": n, "nav": k}; pushes echo k, see static/js/salle.js).

    Coalesced: the first change renders at once; changes that come while that render runs or
    within PUSH_WINDOW after it make one more render at the end, never one per event. The
    tables that started meanwhile all go into that render, so a seated player's redirect to
    the table page is never lost."""

    page = 1
    nav = 0
    dirty = False
    pusher: asyncio.Task | None = None

    async def connect(self):
        if self.authenticated_user() is None:
            await self.close()
            return
        self.page = page_number(parse_qs(self.scope.get("query_string", b"").decode()).get("page"))
        self.started_table_ids: set[int] = set()
        await self.join(SALLE_GROUP)
        await self.accept()
        await self.tables_seen()
        self.push()

    async def tables_seen(self):
        await _render(services.tables_seen_by)([self.scope["user"].pk])

    async def heartbeat(self):
        """Marked in memory, written with the others once a second (games.heartbeats)."""
        HEARTBEATS.salle_beat(self.scope["user"].pk)

    async def receive(self, text_data=None, bytes_data=None):
        message = salle_page_message(text_data) if self.groups_joined else None
        if message is None:
            await super().receive(text_data=text_data, bytes_data=bytes_data)
            return
        self.page, self.nav = message
        self.push()  # the page got it over HTTP, but a push it drops meanwhile may be newer

    async def disconnect(self, code):
        self.stop_pushing()
        if self.groups_joined:
            await self.tables_seen()  # the 10 minutes of an unwatched table start now
        await super().disconnect(code)

    async def user_kicked(self, event):
        self.stop_pushing()  # no salle after the redirect to the login page
        await super().user_kicked(event)

    async def salle_changed(self, event):
        started = event.get("started_table_id")
        if started is not None:
            self.started_table_ids.add(started)
        self.push()

    def push(self):
        """A render is due: now if none runs, else once more when the running one (and its
        window) ends."""
        self.dirty = True
        if self.pusher is None or self.pusher.done():
            self.pusher = asyncio.create_task(self.push_while_dirty())

    def stop_pushing(self):
        if self.pusher is not None:
            self.pusher.cancel()
            self.pusher = None

    async def push_while_dirty(self):
        try:
            while self.dirty:
                self.dirty = False
                await self.send_salle()
                await asyncio.sleep(PUSH_WINDOW)  # changes meanwhile: one render after
        except Exception:  # a failed render: close, the page reconnects for a full render
            log.exception("salle push to user %s failed", self.scope["user"].pk)
            await self.close(code=1011)

    async def send_salle(self):
        page, started, self.started_table_ids = self.page, self.started_table_ids, set()
        try:
            html, shown = await _render(rendering.salle_fragment)(
                self.scope["user"], page=page, nav=self.nav, started_table_ids=started
            )
        except BaseException:
            self.started_table_ids |= started  # not sent: the next render carries them
            raise
        if self.page == page:  # fewer pages now: the pushes stay on the last one
            self.page = shown
        await self.send(text_data=html)


def page_number(values) -> int:
    """A page of the salle from a query string's values or a message's field (1 if none)."""
    value = values[0] if isinstance(values, list) and values else values
    try:
        page = int(value)
    except (TypeError, ValueError):
        return 1
    return page if page > 0 else 1


def salle_page_message(text_data) -> tuple[int, int] | None:
    """(page, nav) of a {"type": "salle.page"} message from the salle page, else None."""
    try:
        message = json.loads(text_data or "")
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("type") != "salle.page":
        return None
    nav = message.get("nav")
    return page_number(message.get("page")), nav if isinstance(nav, int) and nav >= 0 else 0


class TableConsumer(UserSocket):
    """One player's socket at the live table: every region of the table, rendered for this
    player's seat only, on connect (a full render, so a reconnect catches up), at every
    "game.changed" and "game.presence" (a seat away or back); a cancelled game sends the player
    to the salle. While the game is played the socket is one of its seat's SeatConnections."""

    game_id: int | None = None
    rendered_version = -1
    tracked = False  # a SeatConnection row stands for this socket
    closed = False

    async def connect(self):
        user = self.authenticated_user()
        table_id = self.scope["url_route"]["kwargs"]["table_id"]
        found = None
        if user is not None:
            found = await database_sync_to_async(selectors.game_seat_for_user)(
                user=user, table_id=table_id
            )
        if found is None:
            await self.close()
            return
        self.game_id, self.table_id = found[0], table_id
        await self.join(game_group(self.game_id))
        await self.accept()
        await self.track()
        await self.send_table()

    async def track(self):
        self.tracked = await _render(presence.seat_connect)(
            game_id=self.game_id, user=self.scope["user"], channel_name=self.channel_name
        )
        if self.tracked and self.closed:  # closed while recording (a re-recording)
            await _render(presence.seat_disconnect)(channel_name=self.channel_name)
        elif self.tracked:
            HEARTBEATS.watch(self.channel_name, on_lost=self.track)

    async def heartbeat(self):
        """Marked in memory; this process writes its sockets' heartbeats once a second
        (games.heartbeats), and calls `track` again if the sweep took this one for dead."""
        HEARTBEATS.beat(self.channel_name)

    async def disconnect(self, code):
        self.closed = True
        HEARTBEATS.forget(self.channel_name)
        if self.tracked:
            self.tracked = False
            await _render(presence.seat_disconnect)(channel_name=self.channel_name)
        await super().disconnect(code)

    async def game_presence(self, event):
        await self.send_table()

    async def game_changed(self, event):
        version = event.get("version", 0)
        if version > self.rendered_version:  # an older event: already shown
            await self.send_table(min_version=version)

    async def game_ended(self, event):
        if event.get("status") == "cancelled":
            html = rendering.game_ended_fragment(self.table_id, event.get("reason") or "")
            await self.send(text_data=html)
        else:
            await self.send_table()

    async def send_table(self, *, min_version: int | None = None):
        pushed = await _render(rendering.table_push)(
            self.game_id, self.scope["user"], min_version=min_version
        )
        if pushed is None:
            await self.close()
            return
        html, self.rendered_version = pushed
        await self.send(text_data=html)
