"""A practice player's hints (docs/review.md): the robot's suggestion with one reason, and the
exact strength of the hand in each lance.

Every figure is counted, not sampled: the other hands are every four cards the seat has not
seen, weighted by how many ways the pool deals them (the cards grouped by what the lance reads
of them, so a count is a few hundred multisets, not tens of thousands of hands). Like the robot,
it reads only the seat's observation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from math import comb
from typing import Any

from .cards import CARD_CODES, CARD_RANK, card_points, effective_rank
from .hands import JEU, LANCE_INDEX, PAIRES, TABLES, TOTAL, hand_key
from .robot import DEFAULT_LEVEL, robot_action
from .robot_v1 import value_percentiles
from .types import Lance, Observation

LANCES: tuple[Lance, ...] = ("grand", "petit", "paires", "jeu", "point")


def _multisets(counts: tuple[int, ...], size: int = 4) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every way to take ``size`` cards from piles of ``counts``: (taken per pile, ways)."""
    taken = [0] * len(counts)

    def walk(i: int, left: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if i == len(counts) - 1:
            if left <= counts[i]:
                taken[i] = left
                yield tuple(taken), ways * comb(counts[i], left)
            return
        for k in range(min(left, counts[i]) + 1):
            taken[i] = k
            yield from walk(i + 1, left - k, ways * comb(counts[i], k))

    yield from walk(0, size, 1)


def strength(cards: list[str], kings: int, lance: Lance) -> int:
    return TABLES[kings][hand_key(cards)][LANCE_INDEX[lance]]


@lru_cache(maxsize=256)
def _rank_hands(ranks: tuple[int, ...], kings: int) -> list[tuple[tuple[int, ...], int]]:
    """(evaluation, ways) of every four-card hand of a pool of ``ranks`` (sorted: keyed by what
    it reads, a few hundred pools, not one entry per hand asked about)."""
    piles = Counter(ranks)
    kinds = sorted(piles)
    out = []
    for taken, ways in _multisets(tuple(piles[r] for r in kinds)):
        hand = [f"{r}o" for r, k in zip(kinds, taken, strict=True) for _ in range(k)]
        out.append((TABLES[kings][hand_key(hand)], ways))
    return out


def beats(cards: list[str], pool: list[str], kings: int, lance: Lance) -> float | None:
    """The share of the four-card hands of ``pool`` that ``cards`` beats outright in ``lance``
    (at Paires / Jeu among the hands that have them, at Point among those without Jeu); None
    when the hand does not play the lance."""
    idx = LANCE_INDEX[lance]
    mine = TABLES[kings][hand_key(cards)]
    if lance in ("paires", "jeu") and mine[idx] == 0:
        return None
    if lance == "point" and mine[JEU] > 0:
        return None
    field = 0
    beaten = 0
    for info, ways in _rank_hands(_ranks(pool), kings):
        if lance in ("paires", "jeu") and info[idx] == 0:
            continue
        if lance == "point" and info[JEU] > 0:
            continue
        field += ways
        if info[idx] < mine[idx]:
            beaten += ways
    return beaten / field if field else 1.0


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
        for taken, ways in _multisets(counts):
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
    return _none_holds(_ranks(pool), kings, lance, hands)


def _ranks(pool: list[str]) -> tuple[int, ...]:
    return tuple(sorted(CARD_RANK[c] for c in pool))


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
