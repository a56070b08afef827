"""The turn clock as the table shows it: each seat's decision time and reserve left, read from
Game.clock against the server's time (static/js/clock.js counts down from the same data), and
the words and deals the clock made, marked "temps écoulé"."""

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy

from core.translations import gettext as _
from core.translations import in_language
from games.display.view_model import TableFacts, View
from games.engine import Observation
from games.vocabulary import labelled

TIMED_OUT = gettext_lazy("%(word)s (temps écoulé)")


def minutes_seconds(seconds: int) -> str:
    """42 -> "0:42", 75 -> "1:15" (the countdown of an away seat)."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def minutes_seconds_ms(ms: int) -> str:
    """Milliseconds left as the countdown shows them, whole seconds rounded up: 4001 -> "0:05"."""
    return minutes_seconds(-(-max(0, ms) // 1000))


#: A running clock is marked for its last seconds (a colour and the words "dernières secondes").
URGENT_MS = 5000


def seat_clock(entry: Mapping[str, Any], limit_seconds: float, now_ms: int) -> View:
    """One seat's clock: while it runs (``deadline`` set), the decision time left (``limit_seconds``
    from ``started``), then the reserve it eats; otherwise the reserve it still has."""
    reserve_ms = int(entry["reserve_ms"])
    deadline = entry["deadline"]
    if deadline is None:
        return {"running": False, "reserve_left": minutes_seconds_ms(reserve_ms), "urgent": False}
    turn_ends = min(int(entry["started"]) + round(limit_seconds * 1000), int(deadline))
    turn_left = max(0, turn_ends - now_ms)
    # A decision without a reserve (the deal) has its deadline at its limit: the reserve is kept.
    reserve_left = (
        min(reserve_ms, max(0, int(deadline) - max(now_ms, turn_ends)))
        if deadline > turn_ends
        else reserve_ms
    )
    return {
        "running": True,
        "now": now_ms,
        "turn_ends": turn_ends,
        "deadline": int(deadline),
        "turn_left": minutes_seconds_ms(turn_left),
        "reserve_left": minutes_seconds_ms(reserve_left),
        "in_reserve": turn_left == 0,
        "urgent": int(deadline) - now_ms <= URGENT_MS,
    }


def build_clocks(
    game_clock: Mapping[str, Any] | None, observation: Observation, now_ms: int
) -> list[View | None]:
    """Each seat's clock by seat number (all None for a game without a clock; None for a
    robot's seat, which has no time limit)."""
    if not game_clock or observation["status"] == "finished":
        return [None] * 4
    limit = game_clock["deal"] if observation["status"] == "hand_over" else game_clock["turn"]
    robots = set(game_clock.get("robots", ()))
    return [
        None if number in robots else seat_clock(entry, float(limit), now_ms)
        for number, entry in enumerate(game_clock["seats"])
    ]


def timed_out_words(game_clock: Mapping[str, Any] | None, observation: Observation) -> set[int]:
    """The indexes of this hand's words the clock made: for each ``timed_out`` entry of the
    hand, the seat's first word from the entry's ``words`` on."""
    made: set[int] = set()
    words = observation["words"]
    for entry in (game_clock or {}).get("timed_out", []):
        if entry["hand"] != observation["hand_number"] or entry["type"] == "deal":
            continue
        index = next(
            (i for i in range(entry["words"], len(words)) if words[i]["seat"] == entry["seat"]),
            None,
        )
        if index is not None:
            made.add(index)
    return made


def dealt_by_clock(game_clock: Mapping[str, Any] | None, observation: Observation) -> bool:
    """Whether this hand was dealt by the clock (the host's deal at the end of the hand before)."""
    return any(
        entry["type"] == "deal" and entry["hand"] + 1 == observation["hand_number"]
        for entry in (game_clock or {}).get("timed_out", [])
    )


def timed_out_text(text: str) -> str:
    return in_language(TIMED_OUT) % {"word": text}


def clock_misses(game_clock: Mapping[str, Any] | None, observation: Observation) -> list[int]:
    """Each seat's decisions missed in a row (the partie is cancelled at CLOCK_MISSES_LIMIT)."""
    if not game_clock or observation["status"] != "playing":
        return [0] * 4
    return [int(entry.get("misses", 0)) for entry in game_clock["seats"]]


def misses_text(misses: int) -> str:
    """What the table sees by a seat that let its clock run out: how near the cancellation."""
    if not misses:
        return ""
    return _("temps écoulé %(misses)d fois de suite sur %(limit)d avant l'annulation") % {
        "misses": misses,
        "limit": settings.CLOCK_MISSES_LIMIT,
    }


def my_clock_note(
    game_clock: Mapping[str, Any] | None, observation: Observation, seat: int, misses: list[int]
) -> str:
    """What the clock's consequences are for the viewer, in the panel: a reserve gone for the
    rest of the partie, and the misses in a row that would cancel it."""
    if not game_clock or observation["status"] != "playing" or seat in game_clock.get("robots", ()):
        return ""
    entry = game_clock["seats"][seat]
    parts = []
    if misses[seat]:
        parts.append(
            _(
                "Temps écoulé : la décision a été prise pour vous (%(misses)d fois de suite sur"
                " %(limit)d ; à %(limit)d, la partie est annulée pour les quatre)."
            )
            % {"misses": misses[seat], "limit": settings.CLOCK_MISSES_LIMIT}
        )
    if int(entry.get("reserve_ms", 1)) <= 0:
        parts.append(
            _("Votre réserve est épuisée : %(turn)s s par décision pour le reste de la partie.")
            % {"turn": int(game_clock["turn"])}
        )
    return " ".join(parts)


def told_once(
    announcement: str,
    facts: TableFacts,
    viewer: int,
    by_clock: set[int],
    misses: list[int],
    my_note: str,
) -> str:
    """The announcement, and when its newest word was the clock's, what that means: to the
    late player their note, to the others how near the cancellation the late player is."""
    words = facts.observation["words"]
    if not words or len(words) - 1 not in by_clock:
        return announcement
    late = words[-1]["seat"]
    if late == viewer:
        return f"{announcement} {my_note}".strip()
    if not misses[late]:
        return announcement
    return f"{announcement} {labelled(facts.players[late], misses_text(misses[late]))}."
