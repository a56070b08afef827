"""The turn clock's arithmetic: pure functions over a game's `clock` dict (no database).

Times are integer epoch milliseconds of the server's clock, stored in Game.clock so that a
reload or another process reads the same deadline. About one check task waits per game, not
one per decision (`scheduled`). The dict's layout and when a seat's clock runs:
docs/services.md (« The turn clock »).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from games import engine

Clock = dict[str, Any]


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def to_datetime(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


def new_clock(speed: str, robots: Iterable[int] = ()) -> Clock:
    """A clock at `speed` (a key of settings.TURN_CLOCKS), nobody's time running yet; the
    `robots` seats never get a deadline."""
    turn, reserve = settings.TURN_CLOCKS[speed]
    return {
        "speed": speed,
        "turn": turn,
        "reserve": reserve,
        "deal": settings.DEAL_SECONDS,
        "seats": [_idle_seat(round(reserve * 1000)) for _ in range(4)],
        "timed_out": [],
        "robots": sorted(set(robots)),
    }


def _idle_seat(reserve_ms: int) -> dict[str, Any]:
    return {"started": None, "deadline": None, "reserve_ms": reserve_ms, "misses": 0}


def seats_to_clock(state: engine.State, host_seat: int, robots: Iterable[int] = ()) -> list[int]:
    """The seats whose clock runs in `state`: those that must act, but robots; on the score
    screen the host alone, who deals at the site (always a person)."""
    if state["status"] == "finished":
        return []
    if state["phase"] == "hand_over":
        return [host_seat]
    skipped = set(robots)
    return [seat for seat in engine.to_act(state) if seat not in skipped]


def advance(
    clock: Clock,
    state: engine.State,
    *,
    host_seat: int,
    now: int,
    acted: int | None = None,
    timed_out: bool = False,
    dealt: bool = False,
) -> Clock:
    """The clock after `state` was reached (at `now`) by a decision of `acted` (None: the
    partie was just dealt), that seat's own decision or, `timed_out`, the one the site made
    for it; `dealt`: that decision was the host's deal, which has its own limit and never
    touches the reserve (late or not, it still counts as a miss or resets them). Returns a new
    dict; `{}` (no clock) stays `{}`."""
    if not clock:
        return clock
    seats = [dict(seat) for seat in clock["seats"]]
    waiting = set(seats_to_clock(state, host_seat, clock.get("robots", ())))
    turn_ms = round(clock["turn"] * 1000)
    for number, seat in enumerate(seats):
        if number == acted:
            if timed_out:
                if not dealt:
                    seat["reserve_ms"] = 0
                seat["misses"] += 1
            else:
                if seat["started"] is not None and not dealt:
                    overtime = max(0, now - seat["started"] - turn_ms)
                    seat["reserve_ms"] = max(0, seat["reserve_ms"] - overtime)
                seat["misses"] = 0
            seat["started"] = seat["deadline"] = None
        elif number not in waiting:
            seat["started"] = seat["deadline"] = None
    dealing = state["status"] != "finished" and state["phase"] == "hand_over"
    for number in sorted(waiting):
        seat = seats[number]
        if seat["started"] is None:
            limit = round(clock["deal"] * 1000) if dealing else turn_ms + seat["reserve_ms"]
            seat["started"], seat["deadline"] = now, now + limit
    return {**clock, "seats": seats}


def stopped(clock: Clock) -> Clock:
    """The clock of a partie that ended: nobody's time runs any more."""
    if not clock:
        return clock
    seats = [{**seat, "started": None, "deadline": None} for seat in clock["seats"]]
    return {**clock, "seats": seats}


def stopped_seat(clock: Clock, number: int) -> Clock:
    """The clock with `number`'s time no longer running, nothing charged."""
    seats = [dict(seat) for seat in clock["seats"]]
    seats[number]["started"] = seats[number]["deadline"] = None
    return {**clock, "seats": seats}


def earliest_deadline(clock: Clock) -> int | None:
    """The first running deadline (Game.turn_deadline, in milliseconds), or None."""
    if not clock:
        return None
    deadlines = [seat["deadline"] for seat in clock["seats"] if seat["deadline"] is not None]
    return min(deadlines, default=None)


def task_due(clock: Clock, now: int) -> int | None:
    """The instant a new check task must be queued for (and noted in `scheduled`), or None if
    the pending one comes first or no clock runs."""
    earliest = earliest_deadline(clock)
    if earliest is None:
        return None
    scheduled = clock.get("scheduled")
    if scheduled is not None and now < scheduled <= earliest:
        return None
    return earliest


def first_due(clock: Clock, now: int) -> int | None:
    """The lowest seat number whose deadline has passed at `now`, or None."""
    if not clock:
        return None
    return next(
        (
            number
            for number, seat in enumerate(clock["seats"])
            if seat["deadline"] is not None and seat["deadline"] <= now
        ),
        None,
    )


def record_timeout(clock: Clock, state: engine.State, seat: int, action: engine.Action) -> Clock:
    """Note, before it is applied, the decision made for `seat` out of time: the hand, the
    number of public words said so far in it (the table marks the word that follows), the
    action's type."""
    entry = {
        "hand": state["hand_number"],
        "seat": seat,
        "words": len(state["hand"]["words"]),
        "type": action["type"],
    }
    return {**clock, "timed_out": [*clock["timed_out"], entry]}
