"""The four-seat envite the Expert's tables are solved on (docs/robots.md, « The envite »).

The seats that play a lance open in turn from the mano, each knowing only its own hand: a seat
that passes leaves its partner a chance to open, so a team's bets and bluffs are shared between
its two openers. Once a bet is made each team answers as one player who knows its best hand:
the team's answer is its most aggressive vote, so it answers as its stronger hand says, and
each seat votes as if its hand were that one. A *pattern* names who plays: the teams of the
playing seats from the mano, ``X`` the first one's (``XYXY`` at Grand, ``XY`` at a Jeu of two).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache

from .robot_abstraction import (
    BET_SIZES,
    LANCES,
    RAISE_BY,
    after_opening,
    lance_percentiles,
    lance_words,
    opening,
)
from .robot_abstraction import context as score_context
from .types import Lance, Observation, team_of

#: a seat's buckets, on its hand's percentile among the hands that play the lance
BUCKETS = 8
#: their edges: the square roots of the two-seat tables' team buckets (the percentile squared,
#: in eighths), so the best bucket of a team of two has the same detail at the top
EDGES: tuple[float, ...] = tuple((k / BUCKETS) ** 0.5 for k in range(1, BUCKETS))
OPENING: tuple[str, ...] = ("p", *(f"b{stake}" for stake in BET_SIZES), "o")
#: node -> (actor, actions): an actor is the opener's position ("0".."3") or an answering team
#: ("X" / "Y")
Nodes = dict[str, tuple[str, tuple[str, ...]]]
#: terminal history -> (kind, points, team paid): ``paso``, ``held`` (the stake), ``refused``
#: (the deje, paid to that team), ``ordago`` (a held órdago: the showdown wins the partie)
Terminals = dict[str, tuple[str, int, str | None]]


def patterns(lance: Lance) -> tuple[str, ...]:
    """The patterns a lance can have (Paires and Jeu: the seats that declared they have it)."""
    if lance in ("paires", "jeu"):
        return ("XYXY", "XYX", "XYY", "XXY", "XY")
    return ("XYXY",)


def other(team: str) -> str:
    return "Y" if team == "X" else "X"


@cache
def tree(pattern: str) -> tuple[Nodes, Terminals]:
    """The envite of a pattern: openers in turn (``p`` pass, ``b2`` / ``b5`` / ``b10`` bet,
    ``o`` órdago), then the two-seat tables' answers (``f`` refuse, ``c`` hold, ``r`` raise by
    :data:`RAISE_BY`, ``o`` órdago), with the rules' dejes."""
    nodes: Nodes = {}
    terminals: Terminals = {"p" * len(pattern): ("paso", 0, None)}
    for k, team in enumerate(pattern):
        prefix, them = "p" * k, other(team)
        nodes[prefix] = (str(k), OPENING)
        for stake in BET_SIZES:
            node = f"{prefix}b{stake}"
            nodes[node] = (them, ("f", "c", "r", "o"))
            terminals[node + "f"] = ("refused", 1, team)
            terminals[node + "c"] = ("held", stake, None)
            nodes[node + "r"] = (team, ("f", "c", "o"))
            terminals[node + "rf"] = ("refused", stake, them)
            terminals[node + "rc"] = ("held", stake + RAISE_BY, None)
            nodes[node + "ro"] = (them, ("f", "c"))
            terminals[node + "rof"] = ("refused", stake + RAISE_BY, team)
            terminals[node + "roc"] = ("ordago", 0, None)
            nodes[node + "o"] = (team, ("f", "c"))
            terminals[node + "of"] = ("refused", stake, them)
            terminals[node + "oc"] = ("ordago", 0, None)
        nodes[prefix + "o"] = (them, ("f", "c"))
        terminals[prefix + "of"] = ("refused", 1, team)
        terminals[prefix + "oc"] = ("ordago", 0, None)
    return nodes, terminals


def is_opening(node: str) -> bool:
    """Whether nobody has bet yet at ``node`` (only passes said)."""
    return not node.strip("p")


def seat_bucket(q: float) -> int:
    return bisect_right(EDGES, q)


def pattern_of(eligible: list[int]) -> str:
    first = team_of(eligible[0])
    return "".join("X" if team_of(s) == first else "Y" for s in eligible)


def seat_node(obs: Observation) -> tuple[str, str] | None:
    """(pattern, node) of the current lance's envite, or None when it is off the tree.

    Every pass before the first bet is a ``p``; a bet is the nearest of the bet sizes, every
    raise ``r`` (a second raise stays on the first's node), an órdago ``o``, and so is a bet or
    raise to a stake that decides the partie in all but name (as in the two-seat tables).
    """
    lance, betting = obs["lance"], obs["betting"]
    if lance is None or betting is None:
        return None
    history, passes = "", 0
    for word in lance_words(obs):
        if history:
            history = after_opening(history, word, obs["scores"])
        elif word["type"] == "pass":
            passes += 1
        else:
            history = "p" * passes + opening(word, obs["scores"])
    pattern = pattern_of(betting["eligible"])
    history = history or "p" * passes
    return (pattern, history) if history in tree(pattern)[0] else None


def seat_context(obs: Observation) -> int:
    """The score context of the lance's first team (``X``) against the other."""
    betting = obs["betting"]
    assert betting is not None
    first = team_of(betting["eligible"][0])
    return score_context(obs["scores"][first], obs["scores"][1 - first])


def hand_bucket(obs: Observation, key: int) -> int:
    """The bucket of the hand ``key`` in the current lance."""
    lance = obs["lance"]
    assert lance is not None
    return seat_bucket(lance_percentiles(obs["kings"])[key][LANCES.index(lance)])
