"""A practice player's hints (docs/review.md): the robot's suggestion with one reason, and the
exact strength of the hand in each lance.

Every figure is counted, not sampled: the other hands are every four cards the seat has not
seen, weighted by how many ways the pool deals them (the cards grouped by what the lance reads
of them, so a count is a few hundred multisets, not tens of thousands of hands). Like the robot,
it reads only the seat's observation.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from math import comb
from typing import Any

from .cards import CARD_CODES, card_points, effective_rank
from .hands import JEU, LANCE_INDEX, PAIRES, TABLES, TOTAL, hand_key
from .robot import DEFAULT_LEVEL, robot_action
from .robot_v1 import value_percentiles
from .showdown import beats, multisets, pool_ranks
from .types import Lance, Observation

LANCES: tuple[Lance, ...] = ("grand", "petit", "paires", "jeu", "point")


def strength(cards: list[str], kings: int, lance: Lance) -> int:
    return TABLES[kings][hand_key(cards)][LANCE_INDEX[lance]]


def _class_of(lance: Lance, kings: int) -> Any:
    if lance == "paires":
        return lambda rank: effective_rank(rank, kings)
    return lambda rank: card_points(rank, kings)


def _holds(lance: Lance, classes: list[Any], taken: tuple[int, ...]) -> bool:
    if lance == "paires":
        return max(taken) >= 2
    return bool(sum(c * k for c, k in zip(classes, taken, strict=True)) >= 31)


@lru_cache(maxsize=256)
def _none_holds(ranks: tuple[int, ...], kings: int, lance: Lance, hands: int) -> float:
    of = _class_of(lance, kings)
    piles = Counter(of(rank) for rank in ranks)
    classes = sorted(piles)
    counts = tuple(piles[c] for c in classes)

    def without(counts: tuple[int, ...], left: int) -> int:
        if left == 0:
            return 1
        total = 0
        for taken, ways in multisets(counts):
            if not _holds(lance, classes, taken):
                rest = tuple(n - k for n, k in zip(counts, taken, strict=True))
                total += ways * without(rest, left - 1)
        return total

    n = len(ranks)
    deals = 1
    for i in range(hands):
        deals *= comb(n - 4 * i, 4)
    return without(counts, hands) / deals


def none_holds(pool: list[str], kings: int, lance: Lance, hands: int = 2) -> float:
    """The chance that none of ``hands`` hands dealt from ``pool`` has Paires / Jeu."""
    if lance not in ("paires", "jeu"):
        raise ValueError("only Paires and Jeu are held or not")
    return _none_holds(pool_ranks(pool), kings, lance, hands)


def unseen(obs: Observation) -> list[str]:
    mine = obs["my_cards"] or []
    return [c for c in CARD_CODES if c not in mine]


def hand_strength(obs: Observation) -> dict[str, Any]:
    """Per lance the share of hands the seat's hand beats, the chance that no opponent has
    Paires / Jeu (while the declarations are still to come), and the Jeu / Point total."""
    cards = obs["my_cards"]
    if not cards:
        raise ValueError("a seat's observation")
    kings = obs["kings"]
    pool = unseen(obs)
    out: dict[str, Any] = {
        "beats": {lance: beats(cards, pool, kings, lance) for lance in LANCES},
        "total": TABLES[kings][hand_key(cards)][TOTAL],
        "has_paires": TABLES[kings][hand_key(cards)][PAIRES] > 0,
        "has_jeu": TABLES[kings][hand_key(cards)][JEU] > 0,
        "none_hold": {},
    }
    decl = obs["declarations"]
    if decl["paires"] is None:
        out["none_hold"]["paires"] = none_holds(pool, kings, "paires")
    if decl["jeu"] is None:
        out["none_hold"]["jeu"] = none_holds(pool, kings, "jeu")
    return out


def advice(obs: Observation) -> dict[str, Any]:
    """The robot's decision for this observation and what its reason reads: for the mus, the
    hand's standing among all hands; for a lance, its share beaten there."""
    action = robot_action(obs, DEFAULT_LEVEL)
    cards = obs["my_cards"] or []
    reason: dict[str, Any] = {"kind": action["type"]}
    if action["type"] in ("mus", "cut"):
        reason["percentile"] = value_percentiles(obs["kings"])[hand_key(cards)]
    elif action["type"] == "discard":
        reason["kept"] = [c for c in cards if c not in action.get("cards", [])]
    elif obs["lance"] is not None:
        reason["lance"] = obs["lance"]
        reason["beats"] = beats(cards, unseen(obs), obs["kings"], obs["lance"])
    return {"action": action, "reason": reason}
