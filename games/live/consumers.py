"""WebSocket consumers, thin: authenticate, join the groups, track presence, render on a change.
Writes go over HTTP, but a decision at the table may come up its socket (games.decisions, the
same path as the POST); anything else a page sends but its heartbeat is ignored, and a message
too long or binary closes the socket.

Every socket joins its user's group: a kick (4003), a session ended elsewhere (4001) or one
socket too many for the user (4002, games.live.socket_counts) closes it with a code its page reads.
Whatever a handler raises, the socket's cleanup (groups, presence, the count of sockets) runs
and the socket closes (1011: the page reconnects for a full render)."""

import asyncio
import functools
import json
import logging
import time
from typing import NoReturn
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy

from core import ratelimit, translations
from games import broadcast, decisions, hinting, selectors, signals, talk
from games.broadcast import SALLE_GROUP, game_group, user_group
from games.display import fragments
from games.display import talk as talk_display
from games.live import push_fanout, sessions_watch, socket_counts
from games.live.heartbeats import HEARTBEATS
from games.live.push_fanout import FANOUT
from games.live.push_healing import SHOWN
from games.live.threads import in_thread
from games.services import presence, salle

TOO_FAST_CLOSE_CODE = 4008  # a socket that kept sending decisions past the limit
KICKED_CLOSE_CODE = 4003
REPLACED_CLOSE_CODE = 4002
SESSION_ENDED_CLOSE_CODE = 4001
FAILED_CLOSE_CODE = 1011  # the htmx ws extension reconnects after it
TOO_BIG_CLOSE_CODE = 1009
UNSUPPORTED_CLOSE_CODE = 1003
# The pages send messages of about 60 characters; parsing is refused well before a long one.
MAX_MESSAGE_CHARS = 1024
REPLACED = gettext_lazy(
    "Cette page a été ouverte ailleurs (un autre onglet ou appareil) : elle n’est plus à jour."
)
SESSION_ENDED = gettext_lazy("Votre session a pris fin.")
TOO_FAST = gettext_lazy("Trop de décisions.")
REVANCHE_STARTED = gettext_lazy("La revanche commence !")
WATCHING = gettext_lazy("Vous regardez cette partie : vous ne pouvez pas y jouer.")
# A page asks for a salle render ({"type": "salle.page"}) once per Tables précédentes /
# suivantes link; past this, per user, the page is noted but no render is forced.
SALLE_PAGE_RENDERS = ratelimit.Limit("salle-page-render", count=5, seconds=1)
# A salle socket renders at most once per PUSH_WINDOW seconds, plus the render running.
PUSH_WINDOW = 0.25

log = logging.getLogger(__name__)
monotonic_now = time.monotonic  # the sockets' decision windows (a test freezes it)


def parse_message(text_data) -> dict | None:
    """A message from the page: a JSON object, else None (ignored)."""
    try:
        message = json.loads(text_data or "")
    except (ValueError, RecursionError):
        return None
    return message if isinstance(message, dict) else None


def leave_fragments(*, redirect_to: str, message: str) -> str:
    """The table page's #flash and the salle page's #salle with `message`: both pages follow
    a non-empty `redirect_to` (static/js/table.js, salle.js) and stay put on an empty one."""
    salle = render_to_string(
        "games/salle.html#salle-redirect", {"redirect_to": redirect_to, "message": message}
    )
    return fragments.leave_fragment(redirect_to=redirect_to, message=message) + salle


class UserSocket(AsyncWebsocketConsumer):
    """Base: a logged-in user's socket in some groups, always with the user's own group."""

    kind = ""  # the kind of socket counted per user (games.live.socket_counts)
    groups_joined: tuple[str, ...] = ()
    cleaned_up = False

    def authenticated_user(self):
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    @functools.cached_property
    def language(self) -> str:
        """The language this socket's reader reads, as their pages (docs/languages.md)."""
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in self.scope.get("headers", ())
        }
        return translations.reader_language(self.scope.get("user"), headers)

    def page_path(self) -> str:
        """Where the page goes when the user's session may have ended: a session still valid
        shows that page again, an ended one leads to the login page."""
        raise NotImplementedError

    async def join(self, *groups: str) -> None:
        """Join the groups and count this socket; the user's oldest past the limit close."""
        user_id = self.scope["user"].pk
        self.groups_joined = (*groups, user_group(user_id))
        for group in self.groups_joined:
            await broadcast.join(group, self.channel_name)
        oldest = await asyncio.to_thread(
            socket_counts.socket_opened,
            kind=self.kind,
            user_id=user_id,
            channel_name=self.channel_name,
        )
        for channel_name in oldest:
            await broadcast.socket_replaced(channel_name)
        await asyncio.to_thread(socket_counts.user_seen, user_id)

    async def dispatch(self, message):
        """Run a handler; if it raises, log it, close the socket and still clean up.

        Channels' own dispatch first hops into a thread to close old database connections,
        for every message (a heartbeat, a push): 2.3 % of a web process's CPU in the event
        loop alone under load. Every database access of these sockets already goes through
        database_sync_to_async (games.live.threads), which closes them before and after."""
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            name, user_id = type(self).__name__, self.user_id()
            log.exception("%s of user %s: %s failed", name, user_id, message.get("type"))
            await self.end(FAILED_CLOSE_CODE)

    def user_id(self):
        user = self.scope.get("user")
        return getattr(user, "pk", None)

    async def end(self, code: int, reason: str = "") -> NoReturn:
        """Close the socket, clean up now (not when the server reports the close: a client may
        never answer) and stop the consumer."""
        try:
            await self.close(code=code, reason=reason or None)
        except Exception:
            log.warning("%s of user %s: close failed", type(self).__name__, self.user_id())
        try:
            await self.disconnect(code)
        except Exception:
            log.exception("%s of user %s: cleanup failed", type(self).__name__, self.user_id())
        raise StopConsumer

    async def disconnect(self, code):
        """Clean up once, however the socket ended: `release` (the subclasses'), then the
        groups and the count of sockets, even if `release` raised."""
        if self.cleaned_up:
            return
        self.cleaned_up = True
        try:
            await self.release()
        finally:
            await self.leave()

    async def release(self):
        """The subclasses' cleanup (presence, pushes)."""

    async def leave(self):
        for group in self.groups_joined:
            await broadcast.leave(group, self.channel_name)
        if self.groups_joined:
            HEARTBEATS.user_gone(self.scope["user"].pk)
            await asyncio.to_thread(
                socket_counts.socket_closed,
                kind=self.kind,
                user_id=self.scope["user"].pk,
                channel_name=self.channel_name,
            )
            await asyncio.to_thread(socket_counts.user_left, self.scope["user"].pk)

    async def receive(self, text_data=None, bytes_data=None):
        """Only small JSON messages are read: heartbeats here, and what the subclasses'
        `on_message` knows; everything is written over HTTP."""
        if not self.groups_joined:
            return
        if text_data is None:
            await self.end(UNSUPPORTED_CLOSE_CODE, "Messages texte seulement.")
        elif len(text_data) > MAX_MESSAGE_CHARS:
            await self.end(TOO_BIG_CLOSE_CODE, "Message trop long.")
        message = parse_message(text_data)
        if message is not None:
            await self.on_message(message)

    async def on_message(self, message: dict):
        if message.get("type") == "heartbeat":
            HEARTBEATS.user_beat(self.scope["user"].pk)  # online: written within a second
            await self.heartbeat()

    async def heartbeat(self):
        """The page is alive (see the subclasses)."""

    async def user_phrase(self, event):
        """A phrase said at an open table before its partie (docs/phrases.md): not shown on
        this socket's page."""

    def players_phrase_role(self, event) -> str | None:
        """How a seated player reads a phrase: their own as its speaker, another's as a player,
        None for a speaker they muted."""
        user_id = self.scope["user"].pk
        if user_id in event.get("muted_by", ()):
            return None
        mine = event["phrase"].get("user_id") == user_id
        return talk_display.SPEAKER if mine else talk_display.PLAYER

    async def send_phrase(self, phrase: dict, role: str):
        """One phrase, rendered in this socket's reader's language (games.display.talk)."""
        html = await in_thread(talk_display.said_fragment, self.language)(phrase, role)
        async with self.send_lock:
            if not getattr(self, "closed", False):
                await self.send(text_data=html)

    async def user_kicked(self, event):
        with translation.override(self.language):
            html = fragments.kicked_fragments(event.get("reason") or "")
        await self.send(text_data=html)
        await self.end(KICKED_CLOSE_CODE)

    async def socket_replaced(self, event):
        """The user opened one socket too many of this kind elsewhere: this, the oldest,
        closes; its page stays, with the reason (no redirect: it would close the newer one)."""
        with translation.override(self.language):
            html = leave_fragments(redirect_to="", message=REPLACED)
        await self.send(text_data=html)
        await self.end(REPLACED_CLOSE_CODE)

    async def user_sessions(self, event):
        """A session of this user ended, or the user changed: close if this socket's did.
        The page reloads: a session still valid (this browser's new one after a password
        change) shows it again, an ended one leads to the login page."""
        session_key = self.scope["session"].session_key
        ended = event.get("ended_session_key")
        if ended is None or ended != session_key:
            valid = await database_sync_to_async(sessions_watch.session_still_valid)(
                session_key=session_key, user_id=self.scope["user"].pk
            )
            if valid:
                return
        with translation.override(self.language):
            html = leave_fragments(redirect_to=self.page_path(), message=SESSION_ENDED)
        await self.send(text_data=html)
        await self.end(SESSION_ENDED_CLOSE_CODE)


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

    kind = "salle"
    audience = push_fanout.FEATURED  # it follows the partie shown « À la une » (`follow`)
    page = 1
    nav = 0
    dirty = False
    pusher: asyncio.Task | None = None
    featured_id: int | None = None
    rendered_version = -1  # of the partie « À la une »
    change: str | None = None  # the last salle change heard and not yet rendered

    async def connect(self):
        if self.authenticated_user() is None:
            await self.close()
            return
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.page = page_number(query.get("page"))
        # The table the page showed the player waiting at: started before this socket joined
        # the group (its push missed), the first render still sends the page there.
        waiting = page_number(query.get("waiting"), default=None)
        self.started_table_ids: set[int] = {waiting} if waiting is not None else set()
        await self.join(SALLE_GROUP)
        await self.accept()
        await self.tables_seen()
        self.push()

    def page_path(self) -> str:
        return reverse("games:salle")

    async def tables_seen(self):
        await in_thread(salle.tables_seen_by)([self.scope["user"].pk])

    async def heartbeat(self):
        """Marked in memory, written with the others once a second (games.live.heartbeats)."""
        HEARTBEATS.salle_beat(self.scope["user"].pk)

    async def on_message(self, message: dict):
        page = salle_page_message(message)
        if page is None:
            await super().on_message(message)
            return
        self.page, self.nav = page
        # The page got it over HTTP, but a push it drops meanwhile may be newer. Past the limit
        # the next change renders the page noted here.
        user_id = self.scope["user"].pk
        if not await asyncio.to_thread(ratelimit.hit, SALLE_PAGE_RENDERS, user_id):
            self.push()

    async def release(self):
        self.stop_pushing()
        await self.follow(None)
        if self.groups_joined:
            await self.tables_seen()  # the 10 minutes of an unwatched table start now

    async def user_phrase(self, event):
        """A phrase said at this player's open table, before the partie (docs/phrases.md):
        appended to the talk section of « Votre table » unless its speaker is muted."""
        role = self.players_phrase_role(event)
        if role is not None:
            html = await in_thread(talk_display.said_fragment, self.language)(event["phrase"], role)
            await self.send(text_data=html)

    async def user_kicked(self, event):
        self.stop_pushing()  # no salle after the redirect to the login page
        await super().user_kicked(event)

    async def salle_changed(self, event):
        started = event.get("started_table_id")
        if started is not None:
            self.started_table_ids.add(started)
        self.change = event.get("change")
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
        """This socket's salle: after a change, what every salle of the process shows alike is
        that change's (read and rendered once per language: games.display.salle_shared); on
        connect or a page asked for, all of it read for this render."""
        page, started, self.started_table_ids = self.page, self.started_table_ids, set()
        change, self.change = self.change, None
        featured: list[int | None] = []
        try:
            html, shown = await in_thread(fragments.salle_fragment, self.language)(
                self.scope["user"],
                fragments.SalleAsked(page, self.nav, started, change),
                reputations=signals.reputations,
                featured=featured,
            )
        except BaseException:
            self.started_table_ids |= started  # not sent: the next render carries them
            raise
        if self.page == page:  # fewer pages now: the pushes stay on the last one
            self.page = shown
        await self.send(text_data=html)
        await self.follow(featured[0] if featured else None)

    async def follow(self, game_id: int | None) -> None:
        """Receive the live part of « À la une » for the partie `game_id` shows (None: none),
        through the fan-out (one render per decision for every salle of this process)."""
        if game_id == self.featured_id:
            return
        if self.featured_id is not None:
            await FANOUT.leave(self.featured_id, self)
        self.featured_id, self.rendered_version = game_id, -1
        if game_id is not None:
            await FANOUT.join(game_id, self)

    def busy(self) -> bool:
        return False

    async def catch_up(self, version: int) -> None:
        if self.featured_id is not None and version > self.rendered_version:
            pushed = await in_thread(fragments.featured_push, self.language)(
                self.featured_id, min_version=version
            )
            await self.deliver(pushed)

    async def deliver(self, pushed) -> None:
        """The live part of « À la une », unless this socket showed that version already."""
        if pushed is None or self.cleaned_up or pushed[1] <= self.rendered_version:
            return
        self.rendered_version = pushed[1]
        await self.send(text_data=pushed[0])


def page_number(values, default: int | None = 1) -> int | None:
    """A page of the salle (or a table id) from a query string's values or a message's field
    (`default` if none, or not a positive number)."""
    value = values[0] if isinstance(values, list) and values else values
    try:
        page = int(value)
    except (TypeError, ValueError):
        return default
    return page if page > 0 else default


def salle_page_message(message: dict) -> tuple[int, int] | None:
    """(page, nav) of a {"type": "salle.page"} message from the salle page, else None."""
    if message.get("type") != "salle.page":
        return None
    nav = message.get("nav")
    return page_number(message.get("page")), nav if isinstance(nav, int) and nav >= 0 else 0


class TableConsumer(UserSocket):
    """One player's socket at the live table: every region of the table, rendered for this
    player's seat only, on connect (a full render, so a reconnect catches up), at every
    "game.changed" and "game.presence" (a seat away or back); a cancelled game sends the player
    to the salle. While the game is played the socket is one of its seat's SeatConnections."""

    kind = "table"
    audience = push_fanout.PLAYER
    game_id: int | None = None
    rendered_version = -1
    tracked = False  # a SeatConnection row stands for this socket
    closed = False
    fanned_out = False  # a member of games.live.push_fanout
    # This socket's decisions in the current second (from `window_start`), and the refusals
    # it got for going over the limit (games.decisions.too_fast).
    window_start = 0.0
    window_decisions = 0
    refusals = 0

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
        # One render or decision at a time: a push rendered before a decision's answer must
        # not be sent after it (games.live.push_fanout pushes from outside this consumer's loop).
        self.send_lock = asyncio.Lock()
        await self.join(game_group(self.game_id))
        await FANOUT.join(self.game_id, self)
        self.fanned_out = True
        await self.accept()
        await self.track()
        await self.send_table()

    def page_path(self) -> str:
        return reverse("games:table", args=[self.table_id])

    async def game_watchers(self, event):
        """Someone began or stopped watching: this player's page redraws who watches."""
        await self.send_watchers()

    async def send_watchers(self):
        html = await in_thread(fragments.watchers_fragment, self.language)(self.game_id)
        async with self.send_lock:
            if not self.closed:
                await self.send(text_data=html)

    async def track(self):
        self.tracked = await in_thread(presence.seat_connect)(
            game_id=self.game_id, user=self.scope["user"], channel_name=self.channel_name
        )
        if self.tracked and self.closed:  # closed while recording (a re-recording)
            await in_thread(presence.seat_disconnect)(channel_name=self.channel_name)
        elif self.tracked:
            HEARTBEATS.watch(self.channel_name)

    async def on_message(self, message: dict):
        if message.get("type") == "decide":
            await self.decide(message)
        elif message.get("type") == "hint":
            await self.hint()
        elif message.get("type") == "phrase":
            await self.say(message)
        else:
            await super().on_message(message)

    async def say(self, message: dict):
        """A quick phrase sent up the socket ({"type": "phrase", "phrase": id}): said and
        answered as its POST is (games.talk), counted in this socket's window of decisions."""
        if self.closed or self.game_id is None:
            return
        if self.socket_too_fast():
            await self.refuse_too_fast()
            return
        answer = await in_thread(talk.say, self.language)(
            user=self.scope["user"], table_id=self.table_id, phrase=message.get("phrase")
        )
        async with self.send_lock:
            await self.send(text_data=answer.html)

    async def game_phrase(self, event):
        """A phrase said at this table: shown unless this socket's reader muted its speaker."""
        role = self.players_phrase_role(event)
        if role is not None:
            await self.send_phrase(event["phrase"], role)

    async def decide(self, message: dict):
        """The decision form sent up the socket: applied and answered as its POST is (one hop
        into sync code); the answer is this player's render of the new version, so the
        "game.changed" that follows is not rendered again for this socket. The same hop
        renders the new version for the game's other sockets in this process (all four, when
        the proxy keeps a table on one process: deploy.serve), sent once the answer is."""
        if self.closed or self.game_id is None:
            return
        if self.socket_too_fast():
            await self.refuse_too_fast()
            return
        answer = None
        committed: list[int] = []  # the version this decision committed, if it did

        def deciding(game) -> None:
            committed.append(game.version)
            FANOUT.deciding(game)

        try:
            async with self.send_lock:
                answer = await in_thread(decisions.decide, self.language)(
                    user=self.scope["user"],
                    table_id=self.table_id,
                    data=decisions.socket_fields(message),
                    peers=FANOUT.peers(self.game_id, self),
                    committed=deciding,
                )
                await self.send(text_data=answer.html)
                if answer.version is not None:
                    self.shown(answer.version)
            if answer.status == 429:  # this player's other sockets used up the limit
                await self.refuse_too_fast(sent=True)
        finally:
            if committed:  # even if its render failed: the other sockets are pushed anyway
                pushes = answer.pushes if answer is not None else {}
                await FANOUT.decided(self.game_id, committed[0], pushes)

    async def hint(self):
        """« Conseil » asked up the socket: answered as its POST is (games.hinting:
        refused at any table with another person)."""
        if self.closed or self.game_id is None:
            return
        html = await in_thread(hinting.hint_html, self.language)(self.scope["user"], self.table_id)
        async with self.send_lock:
            if not self.closed:
                await self.send(text_data=html)

    def socket_too_fast(self) -> bool:
        """Count one decision of this socket (a fixed one-second window, in memory: no hop for
        a socket's own flood); True past settings.DECISIONS_PER_SECOND."""
        now = monotonic_now()
        if now - self.window_start >= 1.0:
            self.window_start, self.window_decisions = now, 0
        self.window_decisions += 1
        return self.window_decisions > settings.DECISIONS_PER_SECOND

    async def refuse_too_fast(self, *, sent: bool = False):
        """The short refusal (no render); a socket that keeps on is closed, logged once."""
        self.refusals += 1
        if self.refusals >= settings.DECISION_REFUSALS_BEFORE_CLOSE:
            log.warning(
                "table socket of user %s at table %s: %s decisions refused for their pace, closed",
                self.user_id(),
                self.table_id,
                self.refusals,
            )
            with translation.override(self.language):
                reason = str(TOO_FAST)
            await self.end(TOO_FAST_CLOSE_CODE, reason)
        if not sent:
            with translation.override(self.language):
                html = decisions.too_fast_answer().html
            async with self.send_lock:
                await self.send(text_data=html)

    async def heartbeat(self):
        """Marked in memory; this process writes its sockets' heartbeats once a second
        (games.live.heartbeats), and sends "presence.lost" if the sweep took this one for dead."""
        HEARTBEATS.beat(self.channel_name)

    async def presence_lost(self, event):
        """The sweep took this socket for dead (its row is gone), yet it is alive: record it
        again, which ends the seat's absence."""
        if not self.closed:
            await self.track()

    async def release(self):
        self.closed = True
        HEARTBEATS.forget(self.channel_name)
        SHOWN.forget(self.channel_name)
        if self.fanned_out:
            self.fanned_out = False
            await FANOUT.leave(self.game_id, self)
        if self.tracked:
            self.tracked = False
            await in_thread(presence.seat_disconnect)(channel_name=self.channel_name)

    async def game_presence(self, event):
        await self.send_table()

    async def game_changed(self, event):
        """A version sent on this socket's own channel (by a process of an earlier release,
        which healed lost pushes that way): the pushes of every decision, and their heals, come
        through games.live.push_fanout."""
        await self.catch_up(event.get("version", 0))

    async def game_ended(self, event):
        if event.get("status") == "cancelled":
            with translation.override(self.language):
                html = fragments.game_ended_fragment(self.table_id, event.get("reason") or "")
            await self.send(text_data=html)
        else:
            await self.send_table()

    async def game_revanche(self, event):
        """The revanche offered after this partie changed: re-render it, or, once it started,
        go to the new table."""
        table_id = event.get("table_id")
        if table_id:
            with translation.override(self.language):
                html = fragments.leave_fragment(
                    redirect_to=reverse("games:table", args=[table_id]), message=REVANCHE_STARTED
                )
            await self.send(text_data=html)
        else:
            await self.send_table()

    async def send_table(self, *, min_version: int | None = None):
        """This player's render: fresh (a connect, a presence change, an ending: what changed
        is not in the version), or at least `min_version` unless already shown."""
        user = self.scope["user"]
        async with self.send_lock:
            if min_version is None:
                pushed = await in_thread(fragments.table_push, self.language)(self.game_id, user)
            elif min_version <= self.rendered_version:
                return
            else:
                reader = (user, self.language)
                rendered = await push_fanout.render_pushes(self.game_id, [reader], min_version)
                pushed = rendered.get((user.pk, self.language))
            await self.send_pushed(pushed)

    def busy(self) -> bool:
        """A decision or a render of this socket is under way (games.live.push_fanout)."""
        return self.send_lock.locked()

    async def catch_up(self, version: int) -> None:
        """Render `version` (or later) unless this socket already shows it."""
        if version > self.rendered_version and not self.closed:
            await self.send_table(min_version=version)

    async def deliver(self, pushed) -> None:
        """A push rendered with this process's other sockets of the game (games.live.push_fanout):
        sent unless this socket meanwhile showed that version or a later one."""
        async with self.send_lock:
            if self.closed or (pushed is not None and pushed[1] <= self.rendered_version):
                return
            await self.send_pushed(pushed)

    async def send_pushed(self, pushed) -> None:
        if pushed is None:  # no longer a player of this game
            await self.close()
            return
        html, version = pushed
        await self.send(text_data=html)
        self.shown(version)

    def shown(self, version: int) -> None:
        """This socket now shows `version` (games.live.push_healing sends a newer one it missed)."""
        self.rendered_version = max(self.rendered_version, version)
        if not self.closed:
            SHOWN.shown(self.channel_name, self.game_id, self.rendered_version)


class WatchConsumer(UserSocket):
    """A spectator's socket (« Regarder », docs/spectators.md): the public regions of the table,
    one render per game version for every spectator of the game in this process
    (games.live.push_fanout, `PUBLIC` audience), pushed on connect, at every change, at a
    presence change and at the end. Nothing the page sends touches the game: its heartbeat
    keeps it listed among the watchers, anything else is refused. Leaving is nothing to the
    game: no seat, no presence; the players' pages redraw who watches."""

    kind = "watch"  # counted per user like the salle's and the table's (SOCKETS_PER_USER)
    audience = push_fanout.PUBLIC
    game_id: int | None = None
    rendered_version = -1
    closed = False
    fanned_out = False
    listed = False
    refusals = 0

    async def connect(self):
        user = self.authenticated_user()
        table_id = self.scope["url_route"]["kwargs"]["table_id"]
        game_id = None
        if user is not None:
            game_id = await database_sync_to_async(selectors.game_id_to_watch)(
                user=user, table_id=table_id
            )
        if game_id is None:
            await self.close()
            return
        self.game_id, self.table_id = game_id, table_id
        self.send_lock = asyncio.Lock()
        await self.join(game_group(self.game_id))
        await FANOUT.join(self.game_id, self)
        self.fanned_out = True
        await self.accept()
        await self.send_table()
        await asyncio.to_thread(socket_counts.watcher_seen, self.game_id, user, self.channel_name)
        self.listed = True
        await broadcast.watchers_changed(self.game_id)

    def page_path(self) -> str:
        return reverse("games:watch", args=[self.table_id])

    async def on_message(self, message: dict):
        if message.get("type") == "heartbeat":
            await super().on_message(message)
            return
        self.refusals += 1
        if self.refusals >= settings.DECISION_REFUSALS_BEFORE_CLOSE:
            with translation.override(self.language):
                reason = str(WATCHING)
            await self.end(TOO_FAST_CLOSE_CODE, reason)
        with translation.override(self.language):
            html = fragments.leave_fragment(redirect_to="", message=WATCHING)
        async with self.send_lock:
            await self.send(text_data=html)

    async def heartbeat(self):
        await asyncio.to_thread(
            socket_counts.watcher_seen, self.game_id, self.scope["user"], self.channel_name
        )

    async def release(self):
        self.closed = True
        SHOWN.forget(self.channel_name)
        if self.fanned_out:
            self.fanned_out = False
            await FANOUT.leave(self.game_id, self)
        if self.listed:
            self.listed = False
            user = self.scope["user"]
            await asyncio.to_thread(
                socket_counts.watcher_gone, self.game_id, user, self.channel_name
            )
            await broadcast.watchers_changed(self.game_id)

    async def game_presence(self, event):
        await self.send_table()

    async def game_changed(self, event):
        await self.catch_up(event.get("version", 0))

    async def game_watchers(self, event):
        """For the players' pages only."""

    async def game_phrase(self, event):
        """The phrases said at the table, read as the public reads them (docs/phrases.md)."""
        await self.send_phrase(event["phrase"], talk_display.PUBLIC)

    async def game_ended(self, event):
        if event.get("status") == "cancelled":
            with translation.override(self.language):
                html = fragments.leave_fragment(
                    redirect_to=reverse("games:salle"),
                    message=fragments.cancelled_message(event.get("reason") or ""),
                )
            await self.send(text_data=html)
            await self.end(1000)
        else:
            await self.send_table()

    async def game_revanche(self, event):
        """A revanche that started goes on at a new table: its spectators follow (its page
        says if it cannot be watched)."""
        table_id = event.get("table_id")
        if table_id:
            with translation.override(self.language):
                html = fragments.leave_fragment(
                    redirect_to=reverse("games:watch", args=[table_id]), message=REVANCHE_STARTED
                )
            await self.send(text_data=html)

    async def send_table(self, *, min_version: int | None = None):
        """The public render: fresh (a connect, a presence change, an ending), or at least
        `min_version` unless already shown."""
        async with self.send_lock:
            if min_version is not None and min_version <= self.rendered_version:
                return
            pushed = await in_thread(fragments.public_push, self.language)(
                self.game_id, min_version=min_version
            )
            await self.send_pushed(pushed)

    def busy(self) -> bool:
        return self.send_lock.locked()

    async def catch_up(self, version: int) -> None:
        if version > self.rendered_version and not self.closed:
            await self.send_table(min_version=version)

    async def deliver(self, pushed) -> None:
        async with self.send_lock:
            if self.closed or (pushed is not None and pushed[1] <= self.rendered_version):
                return
            await self.send_pushed(pushed)

    async def send_pushed(self, pushed) -> None:
        if pushed is None:  # the partie is gone, or no longer watchable
            await self.close()
            return
        html, version = pushed
        await self.send(text_data=html)
        self.rendered_version = max(self.rendered_version, version)
        if not self.closed:
            SHOWN.shown(self.channel_name, self.game_id, self.rendered_version)
