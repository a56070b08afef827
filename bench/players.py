"""Simulated players that use the site as a browser does: the login form (CSRF token), the salle
(htmx POSTs with HX-Request and X-CSRFToken), the table page, one WebSocket per player, and
decisions posted from the forms of the player's own decision panel (parsed from the HTML the
site sent: the types offered, the version it was rendered at, the cards of the hand).

A `Table` drives its four players on a fixed clock (open loop): the k-th decision is due at
start + k * period whatever happened before; latency is measured from that due time to the moment
all four sockets have received the render of the new version (so a server that falls behind
shows it: queueing counts), and also from the POST being sent (service time)."""

import asyncio
import json
import os
import random
import re
import time
from dataclasses import dataclass, field

import httpx
import websockets

RE_VERSION = re.compile(r'data-version="(\d+)"')
RE_TYPE = re.compile(r'name="type" value="(\w+)"')
RE_CARD = re.compile(r'name="cards" value="([^"]+)"')
RE_DISCARD = re.compile(r'data-min="(\d+)" data-max="(\d+)"')
RE_BET_MIN = re.compile(r'name="amount" min="(\d+)"')
RE_CSRF_FORM = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
RE_CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')
RE_MY_TABLE = re.compile(r"/salle/tables/(\d+)/quitter/")
RE_REFUSAL = re.compile(r'class="(tpanel__refusal|table-flash__message)"')
PASSWORD = "bench-password-1234"
# The site's HEARTBEAT_SECONDS (the bench servers get the same environment).
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "20"))


def version_of(html: str) -> int | None:
    found = RE_VERSION.search(html)
    return int(found.group(1)) if found else None


class Player:
    def __init__(self, username: str, base_url: str):
        self.username = username
        self.base_url = base_url
        self.http = httpx.AsyncClient(
            base_url=base_url,
            timeout=60,
            follow_redirects=False,
            limits=httpx.Limits(max_connections=2, max_keepalive_connections=2),
        )
        self.csrf = ""
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.beater: asyncio.Task | None = None
        self.html = ""  # the freshest render of my table (socket push or POST answer)
        self.version = -1
        self.on_version = None  # callback(seat_player, version, monotonic time)
        self.messages = 0
        self.redirected = False
        # A socket decision's answer: the next message showing a version above `answer_above`,
        # or a refusal (a presence change may render the current version meanwhile).
        self.answer: asyncio.Future | None = None
        self.answer_above = -1

    async def login(self) -> None:
        page = await self.http.get("/comptes/connexion/")
        token = RE_CSRF_FORM.search(page.text).group(1)
        answer = await self.http.post(
            "/comptes/connexion/",
            data={"username": self.username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        if answer.status_code != 302:
            raise RuntimeError(f"login of {self.username}: HTTP {answer.status_code}")
        await self.open_salle()

    async def open_salle(self) -> str:
        page = await self.http.get("/salle/")
        page.raise_for_status()
        self.csrf = RE_CSRF_HEADER.search(page.text).group(1)
        return page.text

    async def post(self, path: str, data: dict) -> httpx.Response:
        headers = {"HX-Request": "true", "X-CSRFToken": self.csrf}
        return await self.http.post(path, data=data, headers=headers)

    def rebase(self, base_url: str) -> None:
        """Use another web process from now on (same session cookies)."""
        cookies = self.http.cookies
        self.base_url = base_url
        self.http = httpx.AsyncClient(
            base_url=base_url,
            timeout=60,
            follow_redirects=False,
            cookies=cookies,
            limits=httpx.Limits(max_connections=2, max_keepalive_connections=2),
        )

    # ------------------------------------------------------------ the table socket
    async def open_table(self, table_id: int) -> None:
        page = await self.http.get(f"/tables/{table_id}/")
        page.raise_for_status()
        self.csrf = RE_CSRF_HEADER.search(page.text).group(1)
        self.see(page.text)

    async def connect(self, table_id: int) -> None:
        """The table page's socket; returns once its first (full) render has arrived."""
        ws_url = self.base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await websockets.connect(
            ws_url,
            additional_headers={"Cookie": cookie, "Origin": self.base_url},
            max_size=None,
            open_timeout=60,
            ping_interval=None,
        )
        first = await asyncio.wait_for(self.ws.recv(), 60)
        self.see(first)
        self.reader = asyncio.create_task(self._read())
        self.beater = asyncio.create_task(self._beat())

    async def _beat(self) -> None:
        """As static/js/live.js does: a heartbeat every HEARTBEAT_SECONDS (first one at a
        random moment, so a thousand players do not beat together)."""
        await asyncio.sleep(random.uniform(0, HEARTBEAT_SECONDS))
        try:
            while self.ws is not None:
                await self.ws.send('{"type": "heartbeat"}')
                await asyncio.sleep(HEARTBEAT_SECONDS)
        except websockets.ConnectionClosed:
            pass

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                self.messages += 1
                self.see(message)
        except websockets.ConnectionClosed:
            pass

    def see(self, html: str) -> None:
        version = version_of(html)
        answer = self.answer
        is_answer = version is None or version > self.answer_above or RE_REFUSAL.search(html)
        if answer is not None and not answer.done() and is_answer:
            answer.set_result(html)
        if "data-redirect" in html:
            self.redirected = True
        if version is None:
            return
        if version >= self.version:
            self.version, self.html = version, html
        if self.on_version is not None:
            self.on_version(self, version, time.monotonic())

    async def disconnect(self) -> None:
        if self.beater is not None:
            self.beater.cancel()
            self.beater = None
        if self.reader is not None:
            self.reader.cancel()
            self.reader = None
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def aclose(self) -> None:
        await self.disconnect()
        await self.http.aclose()

    # ------------------------------------------------------------ decisions
    def decision(self, rng: random.Random) -> dict | None:
        """A form of my decision panel, as a player would fill it in (long parties: mostly
        mus, passes and holds; no órdago), or None when it offers nothing."""
        kinds = set(RE_TYPE.findall(self.html))
        data = {"version": str(self.version)}
        if "deal" in kinds:
            return data | {"type": "deal"}
        if "mus" in kinds:
            return data | {"type": "mus" if rng.random() < 0.85 else "cut"}
        if "discard" in kinds:
            cards = RE_CARD.findall(self.html)
            low, high = (int(x) for x in RE_DISCARD.search(self.html).groups())
            count = rng.randint(low, min(high, len(cards)))
            return data | {"type": "discard", "cards": rng.sample(cards, count)}
        if "pass" in kinds:
            if "bet" in kinds and rng.random() < 0.1:
                return data | {"type": "bet", "amount": RE_BET_MIN.search(self.html).group(1)}
            return data | {"type": "pass"}
        if "hold" in kinds or "refuse" in kinds:
            return data | {"type": "hold" if rng.random() < 0.5 else "refuse"}
        return None


@dataclass
class Stats:
    latency: list[float] = field(default_factory=list)  # due -> all four updated (s)
    service: list[float] = field(default_factory=list)  # POST sent -> all four updated
    post: list[float] = field(default_factory=list)  # POST sent -> answer
    statuses: dict[int, int] = field(default_factory=dict)
    missed: int = 0  # an update that did not reach all four within the timeout
    skipped: int = 0  # due decisions not taken (table renewing, nothing to decide)
    actions: int = 0  # decisions answered 200
    finished: int = 0  # parties played to the end (the table was renewed)
    missed_detail: list = field(default_factory=list)  # (table, version, each seat's version)


class Spectator(Player):
    """A member watching a table (« Regarder », docs/spectators.md): its socket is the
    spectator's, it only reads (and beats); what it receives is counted."""

    received_bytes = 0

    async def connect(self, table_id: int) -> None:
        ws_url = self.base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}/regarder/"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await websockets.connect(
            ws_url,
            additional_headers={"Cookie": cookie, "Origin": self.base_url},
            max_size=None,
            open_timeout=60,
            ping_interval=None,
        )
        self.see(await asyncio.wait_for(self.ws.recv(), 60))
        self.reader = asyncio.create_task(self._read())
        self.beater = asyncio.create_task(self._beat())

    def see(self, html: str) -> None:
        self.received_bytes += len(html.encode())


class Table:
    """Four players at one table of the site; player i sits at seat i."""

    UPDATE_TIMEOUT = 5.0

    def __init__(self, players: list[Player], rng: random.Random):
        self.players = players
        self.rng = rng
        self.table_id: int | None = None
        self.applied: list[tuple[int, int]] = []  # (table id, version after) of each 200
        # (table id, version after, seat, decision type) of each 200: what the log must hold.
        self.acknowledged: list[tuple[int, int, int, str]] = []
        # Decisions whose POST got no answer (the web process went away): applied or not.
        self.unanswered: dict[int, int] = {}
        self._waiting: tuple[int, asyncio.Event] | None = None
        self.auto_reconnect = False
        # Decisions up the actor's open socket, as static/js/table.js sends them (False: POSTed,
        # as a page without JavaScript does).
        self.via_socket = os.environ.get("BENCH_DECISIONS", "socket") == "socket"
        for player in players:
            player.on_version = self._on_version

    @property
    def version(self) -> int:
        return max(p.version for p in self.players)

    def _on_version(self, player, version, at) -> None:
        waiting = self._waiting
        if waiting is not None and all(p.version >= waiting[0] for p in self.players):
            waiting[1].set()

    async def sit_down(self) -> None:
        """Through the salle: the host opens a table, the three others sit, the host starts;
        all four open the table page."""
        host = self.players[0]
        answer = await host.post("/salle/tables/", {"kings": "4"})
        found = RE_MY_TABLE.search(answer.text)
        if answer.status_code != 200 or found is None:
            raise RuntimeError(f"{host.username} could not open a table ({answer.status_code})")
        table_id = int(found.group(1))
        for number, player in enumerate(self.players[1:], start=1):
            answer = await player.post(f"/salle/tables/{table_id}/place/", {"number": number})
            answer.raise_for_status()
        answer = await host.post(f"/salle/tables/{table_id}/lancer/", {})
        if answer.headers.get("HX-Redirect") != f"/tables/{table_id}/":
            raise RuntimeError(f"table {table_id} did not start ({answer.status_code})")
        self.table_id = table_id
        for player in self.players:
            player.version, player.html = -1, ""
        await asyncio.gather(*(p.open_table(table_id) for p in self.players))

    async def connect(self) -> None:
        await asyncio.gather(*(p.connect(self.table_id) for p in self.players))

    async def disconnect(self) -> None:
        await asyncio.gather(*(p.disconnect() for p in self.players))

    async def wait_all(self, version: int, timeout: float) -> float | None:
        """Monotonic time at which all four players show `version` (or later), None on timeout."""
        if all(p.version >= version for p in self.players):
            return time.monotonic()
        event = asyncio.Event()
        self._waiting = (version, event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return time.monotonic()
        except TimeoutError:
            return None
        finally:
            self._waiting = None

    def choose(self) -> tuple[Player, dict] | None:
        current = self.version
        order = list(self.players)
        self.rng.shuffle(order)
        for player in order:
            if player.version == current:
                data = player.decision(self.rng)
                if data is not None:
                    return player, data
        return None

    def disagree(self) -> bool:
        return len({p.version for p in self.players}) > 1

    async def resync(self) -> bool:
        """Players behind the others (a push they never got) reconnect for a full render, as a
        real page catches up at its next push or reload. True if any had to."""
        newest = max(p.version for p in self.players)
        behind = [p for p in self.players if p.version < newest]
        for player in behind:
            await player.disconnect()
            await player.connect(self.table_id)
        return bool(behind)

    async def reconnect(self, timeout: float = 30.0) -> None:
        """As htmx's ws extension does: a closed socket is opened again (a full render)."""
        for player in self.players:
            if player.ws is not None and player.reader is not None and not player.reader.done():
                continue
            deadline = time.monotonic() + timeout
            while True:
                try:
                    await player.disconnect()
                    await player.connect(self.table_id)
                    break
                except (OSError, websockets.WebSocketException, TimeoutError):
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.5)

    async def act_once(self, stats: Stats, due: float, record: bool) -> None:
        if self.auto_reconnect:
            await self.reconnect()
        current = self.version
        if await self.wait_all(current, self.UPDATE_TIMEOUT) is None:
            stats.missed += 1
            return
        chosen = self.choose()
        if chosen is None:  # partie over (or nothing offered): a new table, same four
            stats.finished += 1
            await self.disconnect()
            await self.sit_down()
            # In the faults scenario the new table's first handshake may meet Redis
            # restarting (refused, 403): retry it as the page's ws extension does.
            await (self.reconnect() if self.auto_reconnect else self.connect())
            stats.skipped += 1
            return
        player, data = chosen
        sent = time.monotonic()
        if self.via_socket:
            status, text = await self.decide_over_socket(player, data, current)
        else:
            try:
                answer = await player.post(f"/tables/{self.table_id}/jouer/", data)
                status, text = answer.status_code, answer.text
            except httpx.TransportError:
                status, text = "no answer", ""
        if status == "no answer":
            # The web process went away mid-request (a restart): the decision may or may not
            # have been applied; the next turn catches up from a full render.
            stats.statuses["no answer"] = stats.statuses.get("no answer", 0) + 1
            self.unanswered[self.table_id] = self.unanswered.get(self.table_id, 0) + 1
            return
        answered = time.monotonic()
        stats.statuses[status] = stats.statuses.get(status, 0) + 1
        new_version = version_of(text)
        player.see(text)
        if status != 200 or new_version is None:
            return
        self.applied.append((self.table_id, new_version))
        seat = self.players.index(player)
        self.acknowledged.append((self.table_id, new_version, seat, data["type"]))
        stats.actions += 1
        done = await self.wait_all(new_version, self.UPDATE_TIMEOUT)
        if done is None:
            stats.missed += 1
            seen = [p.version for p in self.players]
            stats.missed_detail.append((self.table_id, new_version, seen))
            return
        if record:
            stats.latency.append(done - due)
            stats.service.append(done - sent)
            stats.post.append(answered - sent)

    async def decide_over_socket(self, player: Player, data: dict, current: int):
        """The decision form's fields up the actor's socket, as static/js/table.js sends them;
        its answer is the socket's next message: 200 if it shows a newer version, else the
        refusal (409/422 over HTTP, "refused" here)."""
        loop = asyncio.get_running_loop()
        player.answer = loop.create_future()
        player.answer_above = current
        try:
            await player.ws.send(json.dumps({"type": "decide", "fields": data}))
            text = await asyncio.wait_for(player.answer, self.UPDATE_TIMEOUT * 6)
        except (websockets.ConnectionClosed, TimeoutError, AttributeError):
            return "no answer", ""
        finally:
            player.answer = None
        version = version_of(text)
        return (200 if version is not None and version > current else "refused"), text

    async def play(self, stats: Stats, start: float, period: float, end: float, record_from: float):
        """Decisions due at start + k * period until `end` (open loop)."""
        k = 0
        while True:
            due = start + k * period
            k += 1
            if due >= end:
                return
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await self.act_once(stats, due, record=due >= record_from)


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(q):
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {
        "n": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1] * 1000, 1),
    }
