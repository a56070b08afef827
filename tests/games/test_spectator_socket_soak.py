"""The spectators' leak soak through the real sockets and services (docs/spectators.md): a
people's table whose four players decide through their table sockets, and a practice table
whose person does while a real Celery worker plays the robots, each watched by a spectator
socket (WatchConsumer) from the first version to the end of every partie. Every frame every
spectator receives is scanned against the state replayed from the log at the version it
renders: no card before the table shows the four hands, no piece of the server seed ever.
24 hands in `make test`; SOAK_SOCKET_HANDS=1000 for the measured soak (its figures are in
the doc; the engine-speed soak is test_spectator_soak.py)."""

import asyncio
import html
import os
import re
import time

import pytest
from channels.db import database_sync_to_async

from games import engine
from games.engine import SeededShuffler
from games.engine.random_play import pick_action
from games.models import Game, Table
from games.services import robots, salle
from tests import processes
from tests.games.helpers import (
    WATCH_VERSION,
    Collector,
    leaked_cards,
    leaks_secret,
    public_cards,
    replayed_states,
    spectator_user,
    watch_path,
)
from tests.sockets import connect, connect_table, decide

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = int(os.environ.get("SOAK_SOCKET_HANDS", 24))
VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture(scope="module")
def robot_worker(django_db_setup):
    """A real worker (and beat) on this run's database and queue: it plays the robots."""
    with processes.celery_running(processes.server_env()) as stack:
        yield stack


class Seat:
    """A player's table socket, read in the background: the newest version it showed and how
    many frames came (the soak drives the game through it, it does not keep the frames)."""

    def __init__(self, communicator):
        self.communicator = communicator
        self.latest = -1
        self.frames = 0
        self.arrived = asyncio.Event()
        self.task = asyncio.ensure_future(self._read())

    async def _read(self):
        while True:
            try:
                payload = await self.communicator.receive_from(timeout=3600)
            except TimeoutError:
                continue
            versions = [int(v) for v in VERSION.findall(payload)]
            self.latest = max([self.latest, *versions])
            self.frames += 1
            self.arrived.set()

    async def send(self, version: int, action: dict) -> None:
        fields = {"version": version, **{k: v for k, v in action.items()}}
        if "cards" in fields:
            fields["cards"] = list(fields["cards"])
        self.arrived.clear()
        await self.communicator.send_to(text_data=decide(fields))

    async def wait(self, condition, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), timeout=left)
            except TimeoutError:
                return condition()
        return True

    async def close(self):
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.communicator.disconnect()


async def seat_socket(user, table_id) -> Seat:
    communicator, connected = await connect_table(user, table_id)
    assert connected
    return Seat(communicator)


@database_sync_to_async
def fresh(game_id) -> Game:
    return Game.objects.get(pk=game_id)


@database_sync_to_async
def people_partie(cast) -> Game:
    table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    salle.table_start(user=cast[0], table_id=table.pk)
    return Game.objects.get(table=table)


@database_sync_to_async
def practice_partie(person) -> Game:
    return Game.objects.get(table=robots.practice_table(user=person, kings=4))


@database_sync_to_async
def states_of(game) -> dict[int, dict]:
    return replayed_states(game, list(game.actions.order_by("seq")))


class Tally:
    def __init__(self, name: str):
        self.name = name
        self.hands = self.parties = self.frames = self.showdown_frames = self.decisions = 0
        self.leaks: list = []


def scan(frames: list[str], states: dict[int, dict], secret: str, tally: Tally) -> None:
    """Every spectator frame against the state at the version it renders (a frame without a
    version, such as the watchers' line, may hold no card at all)."""
    for payload in frames:
        text = html.unescape(payload)
        versions = WATCH_VERSION.findall(text)
        shown: set[str] = set()
        if versions:
            version = int(versions[0])  # an ending's version has no play: the last play's state
            shown = public_cards(states[max(v for v in states if v <= version)])
        cards = leaked_cards(text, shown)
        if cards:
            tally.leaks.append((versions, sorted(cards)))
        if leaks_secret(payload, secret):
            tally.leaks.append((versions, "server seed"))
        tally.frames += 1
        tally.showdown_frames += bool(shown)


async def watched_partie(game: Game, spectator_of, play, tally: Tally) -> None:
    """One partie from its first version to its end with a spectator socket on it."""
    communicator, connected = await connect(spectator_of, path=watch_path(game.table_id))
    assert connected
    spectator = Collector(communicator)  # from its first frame, the full render
    game = await play(game)
    assert game.status == Game.Status.FINISHED, game.status
    frames = await spectator.stop()
    states = await states_of(game)
    assert game.server_seed  # a derived partie: its secret is there to leak
    scan(frames, states, game.server_seed, tally)
    assert any("Score final" in html.unescape(f) for f in frames[-3:]), frames[-1][:300]
    tally.hands += game.state["hand_number"]
    tally.parties += 1


async def people_table(cast, watcher, rng, tally: Tally, hands: int) -> None:
    """The four players decide through their sockets; the host deals at each hand's end."""
    while tally.hands < hands:
        game = await people_partie(cast)
        seats = [await seat_socket(user, game.table_id) for user in cast]

        async def play(game, seats=seats):
            while game.status == Game.Status.PLAYING:
                state = game.state
                if state["status"] == "hand_over":
                    seat = 0
                else:
                    ready = engine.to_act(state)
                    seat = ready[rng.randbelow(len(ready))]
                action = pick_action(state, seat, rng)
                await seats[seat].send(game.version, action)
                answered = await seats[seat].wait(
                    lambda s=seats[seat], v=state["version"]: s.latest > v, 10
                )
                assert answered, ("no answer to", seat, action, game.version)
                tally.decisions += 1
                game = await fresh(game.pk)
            return game

        try:
            await watched_partie(game, watcher, play, tally)
        finally:
            for seat in seats:
                await seat.close()


async def practice_tables(person, watcher, rng, tally: Tally, hands: int) -> None:
    """One person decides through their socket; the robots through the Celery worker."""
    while tally.hands < hands:
        game = await practice_partie(person)
        mine = await seat_socket(person, game.table_id)

        async def play(game, mine=mine):
            deadline = time.monotonic() + 600
            while game.status == Game.Status.PLAYING:
                assert time.monotonic() < deadline, "the partie did not end in time"
                state = game.state
                if state["status"] == "hand_over" or 0 in engine.to_act(state):
                    frames = mine.frames
                    await mine.send(game.version, pick_action(state, 0, rng))
                    # the answer, or a refusal (a robot of the simultaneous discard was first)
                    await mine.wait(lambda n=frames: mine.frames > n, 10)
                    tally.decisions += 1
                else:  # a robot must act: its worker's push, or it already did
                    await mine.wait(lambda v=state["version"]: mine.latest > v, 2)
                game = await fresh(game.pk)
            return game

        try:
            await watched_partie(game, watcher, play, tally)
        finally:
            await mine.close()


@pytest.mark.timeout(int(os.environ.get("SOAK_SOCKET_TIMEOUT", 900)))
async def test_spectator_sockets_see_no_card_before_the_table_shows_it(
    robot_worker, cast, make_user, settings
):
    # the players here decide as fast as the server answers: the per-socket pace limit is
    # for people, and its own tests are in test_table_consumer.py
    settings.DECISIONS_PER_SECOND = 10_000
    person = await database_sync_to_async(make_user)("eneko")
    people, practice = Tally("people"), Tally("robots")
    started = time.monotonic()
    await asyncio.gather(
        people_table(cast, await spectator_user("mirón"), SeededShuffler(36), people, HANDS / 2),
        practice_tables(
            person, await spectator_user("begiratzaile"), SeededShuffler(63), practice, HANDS / 2
        ),
    )
    elapsed = time.monotonic() - started
    for tally in (people, practice):
        print(
            f"\n{tally.name}: {tally.hands} hands, {tally.parties} parties, "
            f"{tally.decisions} decisions sent, {tally.frames} spectator frames checked "
            f"({tally.showdown_frames} at a showdown), {len(tally.leaks)} leaks"
        )
    print(f"total {people.hands + practice.hands} hands in {elapsed:.0f} s")
    assert people.leaks == [] and practice.leaks == []
    assert people.hands + practice.hands >= HANDS
    for tally in (people, practice):  # the scan saw showdowns, where cards may be shown
        assert tally.showdown_frames > 0 and tally.frames > tally.decisions
