"""What a computer player answers to a quick phrase said at its table (docs/phrases.md): a pure
function of its own observation and of the phrase heard, as its decisions are, so the same
table hears the same answer. One robot answers, the first after the speaker: a table of three
robots greeted does not answer three times. The phrase ids are the site's (games.phrases)."""

from __future__ import annotations

from .types import Observation, team_of

GREETING = "hello"
PRAISE = frozenset({"well_played", "good_one", "bravo"})
#: Every id an answer may be (tests/engine/test_robot_talk.py checks them against the site's).
ANSWERS = frozenset({"hello", "thanks", "good_game"})


def answering_seat(speaker: int, robot_seats: frozenset[int] | set[int]) -> int | None:
    """The robot seat that answers `speaker`: the first robot after it in speaking order."""
    for step in (1, 2, 3):
        seat = (speaker + step) % 4
        if seat in robot_seats:
            return seat
    return None


def robot_reply(view: Observation, speaker: int, phrase: str) -> str | None:
    """The answer of the robot whose observation is `view` to `phrase` said by `speaker`, or
    None. A greeting gets a greeting; praise gets thanks, and at the end of a partie the
    winners thank and the losers wish a good game back."""
    seat = view["seat"]
    if seat is None or seat == speaker:
        return None
    if phrase == GREETING:
        return GREETING
    if phrase not in PRAISE:
        return None
    winner = view["winner"]
    if view["status"] == "finished" and winner is not None and winner != team_of(seat):
        return "good_game"
    return "thanks"
