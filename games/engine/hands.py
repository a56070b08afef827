"""Hand evaluators for Grand, Petit, Paires, Jeu and Point, as precomputed tables.

Only the ranks of a hand matter, so every possible hand is evaluated once at import and a lance
lookup is one dict hit: the engine, the robots and the replays compare hands all the time.
Every *strength* is an int where **higher is better**, so one comparison rule serves all
lances; ties go to the player nearest the mano (:func:`best_seat`). The order of each
modality: docs/engine.md (« Hands »).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .cards import CARD_CODES, CARD_RANK, MODALITIES, RANK_ORDER, RANKS, card_points, effective_rank
from .types import Lance

GRAND, PETIT, PAIRES, PAIRES_VALUE, JEU, JEU_VALUE, POINT, TOTAL = range(8)

#: lance name -> index of its strength in a table entry
LANCE_INDEX: dict[Lance, int] = {"grand": GRAND, "petit": PETIT, "paires": PAIRES, "jeu": JEU}
LANCE_INDEX["point"] = POINT

JEU_ORDER: tuple[int, ...] = (31, 32, 40, 37, 36, 35, 34, 33)  # best first
JEU_STRENGTH: dict[int, int] = {total: len(JEU_ORDER) - i for i, total in enumerate(JEU_ORDER)}
PAIRES_NAMES: dict[int, str] = {1: "par", 2: "medias", 3: "duples"}

_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
#: per-card key: adding the keys of four cards gives the multiset key of the hand
CARD_KEY: dict[str, int] = {code: 1 << (3 * _RANK_INDEX[CARD_RANK[code]]) for code in CARD_CODES}


def _ordinal(rank: int) -> int:
    return RANK_ORDER.index(rank)


def _evaluate(ranks: tuple[int, ...], kings: int) -> tuple[int, ...]:
    eff = [_ordinal(effective_rank(r, kings)) for r in ranks]
    high = sorted(eff, reverse=True)
    low = sorted(eff)
    grand = high[0] * 1000 + high[1] * 100 + high[2] * 10 + high[3]
    petit = 9999 - (low[0] * 1000 + low[1] * 100 + low[2] * 10 + low[3])
    counts: dict[int, int] = {}
    for o in eff:
        counts[o] = counts.get(o, 0) + 1
    groups = sorted(((n, o) for o, n in counts.items()), reverse=True)
    top_n, top_o = groups[0]
    paires_value = 0
    paires = 0
    if top_n == 4:
        paires_value, paires = 3, 300 + top_o * 10 + top_o
    elif top_n == 3:
        paires_value, paires = 2, 200 + top_o * 10
    elif top_n == 2:
        pairs = sorted((o for n, o in groups if n == 2), reverse=True)
        if len(pairs) == 2:
            paires_value, paires = 3, 300 + pairs[0] * 10 + pairs[1]
        else:
            paires_value, paires = 1, 100 + pairs[0] * 10
    total = sum(card_points(r, kings) for r in ranks)
    jeu = JEU_STRENGTH.get(total, 0)
    jeu_value = 0 if not jeu else (3 if total == 31 else 2)
    return (grand, petit, paires, paires_value, jeu, jeu_value, total, total)


def _build() -> dict[int, dict[int, tuple[int, ...]]]:
    tables: dict[int, dict[int, tuple[int, ...]]] = {}
    for kings in MODALITIES:
        table: dict[int, tuple[int, ...]] = {}
        for ranks in combinations_with_replacement(RANKS, 4):
            key = sum(1 << (3 * _RANK_INDEX[r]) for r in ranks)
            table[key] = _evaluate(ranks, kings)
        tables[kings] = table
    return tables


#: kings -> multiset key -> evaluation tuple (715 entries per modality)
TABLES: dict[int, dict[int, tuple[int, ...]]] = _build()


def hand_key(cards: list[str] | tuple[str, ...]) -> int:
    k = CARD_KEY
    return k[cards[0]] + k[cards[1]] + k[cards[2]] + k[cards[3]]


def evaluate(cards: list[str] | tuple[str, ...], kings: int) -> tuple[int, ...]:
    """The table entry of a four-card hand (one dict hit)."""
    return TABLES[kings][hand_key(cards)]


def paires_of(cards: list[str] | tuple[str, ...], kings: int) -> tuple[str | None, int]:
    """``("par" | "medias" | "duples" | None, value)`` of a hand."""
    info = evaluate(cards, kings)
    return PAIRES_NAMES.get(info[PAIRES_VALUE]), info[PAIRES_VALUE]


def total_of(cards: list[str] | tuple[str, ...], kings: int) -> int:
    """Card-point sum of a hand (Jeu when >= 31, else its Point)."""
    return evaluate(cards, kings)[TOTAL]


def has_jeu(cards: list[str] | tuple[str, ...], kings: int) -> bool:
    return evaluate(cards, kings)[JEU] > 0


def best_seat(strengths: list[int], eligible: list[int], mano: int) -> int:
    """Seat with the highest strength among ``eligible``; ties to the nearest the mano."""
    best = -1
    best_strength = -1
    for i in range(4):
        seat = (mano + i) % 4
        if seat in eligible and strengths[seat] > best_strength:
            best, best_strength = seat, strengths[seat]
    return best


def lance_strengths(hands: list[list[str]], kings: int, lance: Lance) -> list[int]:
    table = TABLES[kings]
    idx = LANCE_INDEX[lance]
    return [table[hand_key(h)][idx] for h in hands]


def compare(
    lance: Lance, a: list[str] | tuple[str, ...], b: list[str] | tuple[str, ...], kings: int
) -> int:
    """+1 if hand ``a`` beats ``b`` in ``lance`` (strictly), -1 if ``b`` beats ``a``, 0 if equal."""
    idx = LANCE_INDEX[lance]
    sa, sb = evaluate(a, kings)[idx], evaluate(b, kings)[idx]
    return (sa > sb) - (sa < sb)
