"""How often one hand beats a hand dealt from the cards its seat has not seen, counted exactly.

Only the ranks of a hand matter, so the other hands are the rank multisets of the pool, each
weighted by how many ways the pool deals it: a few hundred multisets, not tens of thousands of
hands. The practice hints show these shares (docs/review.md) and the expert robot weighs an
órdago by them (docs/robots.md, « Reading the other team »).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from math import comb
from typing import NamedTuple

from .cards import CARD_RANK
from .hands import JEU, LANCE_INDEX, TABLES, hand_key
from .types import Lance


def multisets(counts: tuple[int, ...], size: int = 4) -> Iterator[tuple[tuple[int, ...], int]]:
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


@lru_cache(maxsize=2048)
def rank_hands(ranks: tuple[int, ...], kings: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(evaluation, ways) of every four-card hand of a pool of ``ranks`` (sorted: keyed by what
    it reads, one entry per pool, not per hand asked about)."""
    piles = Counter(ranks)
    kinds = sorted(piles)
    out = []
    for taken, ways in multisets(tuple(piles[r] for r in kinds)):
        hand = [f"{r}o" for r, k in zip(kinds, taken, strict=True) for _ in range(k)]
        out.append((TABLES[kings][hand_key(hand)], ways))
    return tuple(out)


def pool_ranks(pool: list[str]) -> tuple[int, ...]:
    return tuple(sorted(CARD_RANK[c] for c in pool))


class Tally(NamedTuple):
    """The pool's hands against one hand in a lance, in ways to deal them: those it beats
    outright, those it ties, those it loses to, and those that do not play the lance (no
    Paires, no Jeu; at Point, those with Jeu)."""

    beaten: int
    tied: int
    lost: int
    absent: int

    def share_won(self, lance: Lance, *, first: bool, playing: bool) -> float:
        """The chance of winning ``lance`` against one hand of the pool: ties go to the seat
        nearer the mano (``first`` when it is ours); ``playing`` when that hand is known to
        play the lance (its declaration), else a hand that does not play it is beaten too."""
        won = self.beaten + (self.tied if first else 0)
        field = self.beaten + self.tied + self.lost
        if not playing and lance != "point":  # at Point a hand with Jeu means no Point at all
            won, field = won + self.absent, field + self.absent
        return won / field if field else 1.0


@lru_cache(maxsize=16384)
def tally(ranks: tuple[int, ...], kings: int, lance: Lance, mine: int) -> Tally:
    """:class:`Tally` of the hands of a pool of ``ranks`` against the strength ``mine``."""
    idx = LANCE_INDEX[lance]
    beaten = tied = lost = absent = 0
    for info, ways in rank_hands(ranks, kings):
        if (lance in ("paires", "jeu") and info[idx] == 0) or (lance == "point" and info[JEU]):
            absent += ways
        elif info[idx] < mine:
            beaten += ways
        elif info[idx] == mine:
            tied += ways
        else:
            lost += ways
    return Tally(beaten, tied, lost, absent)


def plays(cards: list[str], kings: int, lance: Lance) -> bool:
    """Whether the hand plays ``lance``: Paires and Jeu need them, Point needs no Jeu."""
    info = TABLES[kings][hand_key(cards)]
    if lance in ("paires", "jeu"):
        return info[LANCE_INDEX[lance]] > 0
    return not (lance == "point" and info[JEU] > 0)


def hand_tally(cards: list[str], pool: list[str], kings: int, lance: Lance) -> Tally | None:
    """:class:`Tally` of the hands of ``pool`` against ``cards`` in ``lance``; None when the
    hand does not play the lance."""
    if not plays(cards, kings, lance):
        return None
    mine = TABLES[kings][hand_key(cards)][LANCE_INDEX[lance]]
    return tally(pool_ranks(pool), kings, lance, mine)


def beats(cards: list[str], pool: list[str], kings: int, lance: Lance) -> float | None:
    """The share of the four-card hands of ``pool`` that ``cards`` beats outright in ``lance``
    (at Paires / Jeu among the hands that have them, at Point among those without Jeu); None
    when the hand does not play the lance."""
    t = hand_tally(cards, pool, kings, lance)
    if t is None:
        return None
    field = t.beaten + t.tied + t.lost
    return t.beaten / field if field else 1.0
