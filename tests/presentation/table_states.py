"""Games in memory at many moments of seeded random parties (games.engine), as
games.display.game_cache hands them to the renders: every phase and lance, hands over, the
partie over, 4 and 8 rois, with away seats, robots, turn clocks (running, in the reserve, in
their last seconds, words the clock made) and the host's seat varied from one moment to the
next. No database: the table, the seats and their users are built, not saved."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from accounts.models import User
from games import engine
from games.engine.random_play import DEFAULT_WEIGHTS, pick_action
from games.models import Game, GameSeat, Table

NAMES = ("ane", "bixente", "camille", "dani")
#: The moment every game is rendered at (the clocks and the away countdowns read it).
NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
NOW_MS = int(NOW.timestamp() * 1000)


#: The random players' weights: some órdagos, so that parties end.
WEIGHTS = dict(DEFAULT_WEIGHTS, ordago=2, ordago_vote=2)


def random_parties(
    seeds, *, every: int = 3, limit: int = 400, weights: dict = WEIGHTS
) -> Iterator[Game]:
    """For each seed, its partie's moments (every `every`th decision, and each hand over and
    the end); a partie longer than `limit` decisions is left there."""
    for seed in seeds:
        yield from _partie(
            seed, kings=8 if seed % 2 else 4, every=every, limit=limit, weights=weights
        )


def _partie(seed: int, *, kings: int, every: int, limit: int, weights: dict) -> Iterator[Game]:
    rng = engine.SeededShuffler(seed)
    state = engine.new_partie(kings=kings, first_mano=seed % 4, shuffler=rng)
    moments = 0
    for step in range(limit):
        if step % every == 0 or state["status"] != "playing":
            yield game_in_memory(state, seed=seed, step=seed + moments)
            moments += 1
        if state["status"] == "finished":
            return
        seats = [0] if state["status"] == "hand_over" else engine.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        state = engine.apply(state, seat, pick_action(state, seat, rng, weights), shuffler=rng)


def game_in_memory(state: dict, *, seed: int, step: int) -> Game:
    """The game at `state`, its details (host, robots, away seats, clock, shuffle) varied by
    `step`."""
    users = [User(pk=seed * 10 + n + 1, username=name) for n, name in enumerate(NAMES)]
    host = step % 4
    table = Table(
        pk=seed + 1, host_id=users[host].pk, kings=state["kings"], status=Table.Status.PLAYING
    )
    game = Game(pk=seed + 1, table=table, kings=table.kings, state=state, version=state["version"])
    game.status = {
        "finished": Game.Status.FINISHED,
    }.get(state["status"], Game.Status.PLAYING)
    robots = {(step // 5) % 4} if step % 3 == 0 else set()
    away = {(step // 7) % 4: 20 + step % 40} if step % 4 == 1 else {}
    if step % 8 == 5:
        away[(step // 7 + 2) % 4] = 3
    seats = []
    for number in range(4):
        seat = GameSeat(game=game, number=number, user=users[number], robot=number in robots)
        if number in away and number not in robots:
            seat.deadline = NOW + dt.timedelta(seconds=away[number])
        seats.append(seat)
    game._prefetched_objects_cache = {"seats": seats}
    game.clock = _clock(state, step, robots) if step % 5 != 4 else {}
    if step % 2:
        game.fairness = Game.FAIRNESS_V1
        game.commitment = f"{seed:02x}" * 32
        game.server_seed = f"{step % 256:02x}" * 32
        game.client_seeds = [f"{n}{seed}" * 8 for n in range(4)]
    return game


def _clock(state: dict, step: int, robots: set[int]) -> dict:
    """A Normal clock (30 s, 120 s of reserve): the seats to act run, some into their reserve
    or their last seconds; a few words and deals made by the clock."""
    acting = set(engine.to_act(state)) if state["status"] == "playing" else {0}
    seats = []
    for number in range(4):
        reserve_ms = 120_000 - 7_000 * ((step + number) % 5)
        if number in acting and state["status"] != "finished":
            started = NOW_MS - (0, 12_000, 29_500, 80_000, 146_000, 160_000)[(step + number) % 6]
            deadline = started + 30_000 + reserve_ms
        else:
            started = deadline = None
        seats.append(
            {"started": started, "deadline": deadline, "reserve_ms": reserve_ms, "misses": 0}
        )
    hand = state.get("hand_number", 1)
    timed_out = []
    if step % 6 == 0:
        timed_out.append({"hand": hand, "seat": step % 4, "words": 0, "type": "pass"})
    if step % 9 == 0:
        timed_out.append({"hand": hand - 1, "seat": 0, "words": 0, "type": "deal"})
    return {
        "speed": "normal",
        "turn": 30,
        "reserve": 120,
        "deal": 60,
        "seats": seats,
        "robots": sorted(robots),
        "timed_out": timed_out,
    }
