"""Helpers of the live-play tests: start the cast's table, choose legal actions at random
(the engine's own seeded chooser), post them as the players."""

import asyncio
import contextlib
import copy
import html
import json
import re
import subprocess
import sys
import threading

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection

from games import engine
from games.display.table_view import card_view
from games.engine import CARD_CODES, to_act
from games.engine.random_play import DEFAULT_WEIGHTS, pick_action
from games.models import Game, GameAction
from games.services import play, robots, salle
from tests.presentation.helpers import CODE_RE
from tests.sockets import connect

HTMX = {"HX-Request": "true"}
#: random play that lasts (no bet, no órdago: about 15 hands a partie) with many mus rounds
#: (the pioche runs out and is rebuilt from the discards a few times a partie)
LONG_PLAY = dict(DEFAULT_WEIGHTS, ordago=0, ordago_vote=0, bet=0, mus=85)


def start_game(full_table, *, decks=None, first_mano=0) -> Game:
    """Start the cast's full table (ane hosts) and return its game."""
    salle.table_start(
        user=full_table.host, table_id=full_table.pk, decks=decks, first_mano=first_mano
    )
    return Game.objects.get(table=full_table)


def fair_start(table) -> Game:
    """Start the cast's full table as the site does, without the test hooks: the partie is
    dealt from the verifiable shuffle's derivation (random first mano)."""
    salle.table_start(user=table.host, table_id=table.pk)
    return Game.objects.select_related("table").get(table=table)


def next_move(game: Game, rng, weights=None, *, host_seat=0) -> tuple[int, dict]:
    """A seat that may act now and a random legal action of it (from the stored state); on
    the score screen, the host, who alone deals at the site (ane, seat 0, at the cast's table)."""
    state = game.state
    seats = [host_seat] if state["status"] == "hand_over" else to_act(state)
    seat = seats[rng.randbelow(len(seats))]
    return seat, pick_action(state, seat, rng, weights)


def form_data(version: int, action: dict) -> dict:
    """The POST body the table's forms send for `action`."""
    data = {"version": str(version), "type": action["type"]}
    if "amount" in action:
        data["amount"] = str(action["amount"])
    if "to" in action:
        data["to"] = str(action["to"])
    if "cards" in action:
        data["cards"] = list(action["cards"])
    return data


def allowed_cards(state: dict, seat: int) -> set[str]:
    """The cards `seat` may see now: its own hand, and all four at a showdown."""
    hand = state["hand"]
    if hand.get("hands_shown"):
        return {c for cards in hand["hands_shown"].values() for c in cards}
    return set(hand["cards"][seat])


def leaked_cards(payload: str, allowed: set[str]) -> set[str]:
    """Card codes (whole tokens) and French card names in `payload` outside `allowed`."""
    found = set(CODE_RE.findall(payload)) - allowed
    for code in set(CARD_CODES) - allowed:
        if card_view(code)["name"] in payload:
            found.add(code)
    return found


def run_together(*calls):
    """Run the calls in threads released at the same instant, each on its own database
    connection (real concurrent transactions); their results in order (an exception is
    returned, not raised)."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the test inspects it
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def secret_pieces(server_seed: str, size: int = 16) -> set[str]:
    """Every run of `size` hex digits of the secret: a page holding any of them holds part of
    it (cut, wrapped, or in capitals: the scan lowercases)."""
    seed = server_seed.lower()
    return {seed[i : i + size] for i in range(len(seed) - size + 1)}


def leaks_secret(payload: str, server_seed: str) -> bool:
    """Whether `payload` holds the server seed or any 16 hex digits of it."""
    text = payload.lower()
    return any(piece in text for piece in secret_pieces(server_seed))


def replayed(game) -> dict:
    """The state rebuilt by the engine from the stored decks and the "play" rows of the log,
    whose seq runs 1..state version."""
    plays = list(GameAction.objects.filter(game=game, kind="play").order_by("seq"))
    assert [r.seq for r in plays] == list(range(1, game.state["version"] + 1))
    return engine.replay(
        kings=game.kings,
        first_mano=game.state["first_mano"],
        decks=game.state["decks"],
        reshuffles=game.state["reshuffles"],
        actions=[[r.seat, r.payload] for r in plays],
    )


def replayed_states(game, rows) -> dict[int, dict]:
    """The state at every version, replayed from the stored decks and the log's plays."""
    stored = game.state
    state = engine.new_partie(
        kings=game.kings,
        first_mano=stored["first_mano"],
        decks=copy.deepcopy(stored["decks"]),
        reshuffles=copy.deepcopy(stored["reshuffles"]),
    )
    states = {0: state}
    for row in rows:
        if row.kind == GameAction.Kind.PLAY:
            state = engine.apply(state, row.seat, row.payload)
            states[row.seq] = state
    return states


def verify(record: dict) -> subprocess.CompletedProcess:
    """`python -m games.engine fairness verify -`, as anyone who downloaded the record would."""
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "fairness", "verify", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def play_robots(game) -> int:
    """Run the robots' queued decisions (as the worker would) until none is due."""
    made = 0
    while True:
        game.refresh_from_db()
        if not robots.robot_play(game_id=game.pk, version=game.version):
            game.refresh_from_db()
            return made
        made += 1


# ---------------------------------------------------------------- spectators (docs/spectators.md)


def watch_path(table_id) -> str:
    return f"/ws/tables/{table_id}/regarder/"


def public_cards(state: dict) -> set[str]:
    """The cards a spectator may see now: the four hands once the table shows them at the end
    of a hand, else none."""
    shown = state["hand"].get("hands_shown")
    if state["hand"].get("closed") and shown:
        return {c for cards in shown.values() for c in cards}
    return set()


async def receive_watch_version(communicator, version, timeout=5):
    """The next spectator push showing `version` (older ones, and other messages, skipped)."""
    while True:
        payload = await communicator.receive_from(timeout=timeout)
        if f'id="watch-version" data-version="{version}"' in payload:
            return payload


async def watching(user, table_id):
    communicator, connected = await connect(user, path=watch_path(table_id))
    assert connected
    await communicator.receive_from(timeout=5)
    return communicator


WATCH_VERSION = re.compile(r'id="watch-version" data-version="(\d+)"')


@database_sync_to_async
def spectator_user(name: str = "mirón"):
    """A member of the site who plays nowhere: the leak tests' spectator."""
    return get_user_model().objects.create_user(name, password=None)


def spectator_leaks(payloads: list[str], states: dict[int, dict]) -> list[tuple[int, set]]:
    """(version, cards) of every spectator payload holding a card the table did not show at
    the version it says it renders (`states`: the state at each version)."""
    found = []
    for payload in payloads:
        text = html.unescape(payload)
        versions = WATCH_VERSION.findall(text)
        if not versions:
            continue  # a refusal, the watchers: no card drawn
        version = int(versions[0])  # an ending's version has no play: the last play's state
        state = states[max(v for v in states if v <= version)]
        cards = leaked_cards(text, public_cards(state))
        if cards:
            found.append((version, cards))
    return found


class Collector:
    """Everything a socket receives, read in the background while the test does its work."""

    def __init__(self, communicator):
        self.communicator = communicator
        self.payloads: list[str] = []
        self.task = asyncio.ensure_future(self._read())

    async def _read(self):
        while True:
            try:
                self.payloads.append(await self.communicator.receive_from(timeout=3600))
            except TimeoutError:
                continue

    async def stop(self) -> list[str]:
        """Stop reading once the socket has been quiet for half a second; its payloads."""
        count = -1
        while count != len(self.payloads):
            count = len(self.payloads)
            await asyncio.sleep(0.5)
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task
        await self.communicator.disconnect()
        return self.payloads


def play_until(game, stop, rng, weights=None) -> Game:
    """Play random legal moves (the host deals on the score screen) through the play service
    until `stop(game)` holds; returns the game as stored then."""
    seats = {s.number: s.user for s in game.seats.select_related("user")}
    game = Game.objects.get(pk=game.pk)
    while not stop(game):
        seat, action = next_move(game, rng, weights)
        play.game_apply_action(
            user=seats[seat], version=game.version, action=action, game_id=game.pk
        )
        game = Game.objects.get(pk=game.pk)
    return game


def between_hands(game) -> bool:
    """The score screen (the deal pending) or the partie over."""
    return game.state["status"] in ("hand_over", "finished")
