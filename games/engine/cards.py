"""Cards, the two modalities (4 rois / 8 rois), effective ranks and card points.

A card is written rank then suit: ``1o``, ``7e``, ``10c``, ``11b``, ``12o`` (docs/rules.md §2).
Ranks are 1-7, 10 (sota / valet), 11 (caballo / cavalier), 12 (rey / roi); suits are oros
``o``, copas ``c``, espadas ``e`` and bastos ``b``. Suits never matter in Mus.

In **8 rois** every 3 is a king (rank 12) and every 2 an ace (rank 1), in every lance; for Jeu and
Point the 3 is worth 10 and the 2 is worth 1.
"""

from __future__ import annotations

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
SUITS: tuple[str, ...] = ("o", "c", "e", "b")
MODALITIES: tuple[int, ...] = (4, 8)

#: The 40 card codes, ``"1o"`` .. ``"12b"``, rank-major.
CARD_CODES: tuple[str, ...] = tuple(f"{rank}{suit}" for rank in RANKS for suit in SUITS)
CARD_SET: frozenset[str] = frozenset(CARD_CODES)

#: Face rank of each code.
CARD_RANK: dict[str, int] = {code: int(code[:-1]) for code in CARD_CODES}

#: Grand order of the effective ranks, weakest first (index = ordinal strength).
RANK_ORDER: tuple[int, ...] = RANKS


def effective_rank(rank: int, kings: int) -> int:
    """The rank a face rank plays as: in 8 rois 3 -> 12 and 2 -> 1."""
    if kings == 8:
        if rank == 3:
            return 12
        if rank == 2:
            return 1
    return rank


def card_points(rank: int, kings: int) -> int:
    """Jeu / Point value of a face rank: figures 10, others face (8 rois: 3 -> 10, 2 -> 1)."""
    eff = effective_rank(rank, kings)
    return 10 if eff >= 10 else eff


def is_deck(value: object) -> bool:
    """True for a list holding each of the 40 codes exactly once."""
    return (
        isinstance(value, list)
        and len(value) == len(CARD_CODES)
        and all(isinstance(c, str) for c in value)
        and set(value) == CARD_SET
    )
