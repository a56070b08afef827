"""Cards and hands lance by lance (docs/rules.md sections 2, 3), with the rules text's examples."""

from __future__ import annotations

import pytest

from games.engine.cards import CARD_CODES, card_points, effective_rank
from games.engine.hands import (
    TABLES,
    best_seat,
    compare,
    evaluate,
    has_jeu,
    lance_strengths,
    paires_of,
    total_of,
)


def h(*ranks: int) -> list[str]:
    """A hand of the given ranks, suits chosen so no card repeats."""
    seen: dict[int, int] = {}
    out = []
    for r in ranks:
        out.append(f"{r}{'oceb'[seen.get(r, 0)]}")
        seen[r] = seen.get(r, 0) + 1
    return out


def test_forty_distinct_codes():
    assert len(CARD_CODES) == 40 == len(set(CARD_CODES))
    assert CARD_CODES[0] == "1o" and CARD_CODES[-1] == "12b"
    assert not any(c.startswith(("8", "9")) for c in CARD_CODES)


def test_tables_hold_715_multisets_per_modality():
    assert len(TABLES[4]) == len(TABLES[8]) == 715


GRAND_4 = [12, 11, 10, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("higher,lower", list(zip(GRAND_4, GRAND_4[1:], strict=False)))
def test_grand_order_with_four_kings(higher, lower):
    assert compare("grand", h(higher, 1, 1, 1), h(lower, 1, 1, 1), 4) == 1
    assert compare("petit", h(lower, 12, 12, 12), h(higher, 12, 12, 12), 4) == 1


def test_eight_kings_threes_are_kings_twos_are_aces():
    assert effective_rank(3, 8) == 12 and effective_rank(2, 8) == 1
    assert effective_rank(3, 4) == 3 and effective_rank(2, 4) == 2
    assert compare("grand", h(3, 1, 1, 1), h(12, 1, 1, 1), 8) == 0
    assert compare("grand", h(3, 4, 4, 4), h(11, 4, 4, 4), 8) == 1
    assert compare("petit", h(2, 12, 12, 12), h(1, 12, 12, 12), 8) == 0
    assert compare("grand", h(4, 1, 1, 1), h(2, 1, 1, 1), 8) == 1
    assert compare("grand", h(3, 1, 1, 1), h(12, 1, 1, 1), 4) == -1


def test_card_points():
    assert [card_points(r, 4) for r in (1, 2, 3, 7, 10, 11, 12)] == [1, 2, 3, 7, 10, 10, 10]
    assert card_points(3, 8) == 10 and card_points(2, 8) == 1


def test_grand_example_second_card_decides():
    # roi, roi, quatre et as bat roi, cavalier, cavalier et valet
    assert compare("grand", h(12, 12, 4, 1), h(12, 11, 11, 10), 4) == 1


def test_petit_example_second_lowest_decides():
    # As, as, sept et roi bat as, quatre, cinq et six
    assert compare("petit", h(1, 1, 7, 12), h(1, 4, 5, 6), 4) == 1
    assert compare("petit", h(1, 4, 5, 6), h(1, 1, 7, 12), 4) == -1


@pytest.mark.parametrize(
    "ranks,kings,name,value",
    [
        ((12, 12, 5, 1), 4, "par", 1),
        ((7, 7, 7, 4), 4, "medias", 2),
        ((11, 11, 4, 4), 4, "duples", 3),
        ((10, 10, 10, 10), 4, "duples", 3),
        ((12, 3, 6, 1), 4, None, 0),
        ((12, 3, 6, 1), 8, "par", 1),
        ((3, 12, 2, 1), 8, "duples", 3),
        ((3, 12, 2, 1), 4, None, 0),
    ],
)
def test_paires_examples(ranks, kings, name, value):
    assert paires_of(h(*ranks), kings) == (name, value)


def test_paires_ranking():
    assert compare("paires", h(12, 12, 5, 1), h(10, 10, 5, 1), 4) == 1  # rois > valets
    assert compare("paires", h(12, 12, 12, 12), h(12, 12, 11, 11), 4) == 1  # quatre rois
    assert compare("paires", h(11, 11, 6, 6), h(10, 10, 10, 10), 4) == 1  # higher pair first
    assert compare("paires", h(12, 12, 6, 6), h(12, 12, 5, 5), 4) == 1  # then the lower pair
    assert compare("paires", h(4, 4, 4, 1), h(12, 12, 11, 7), 4) == 1  # medias > par
    assert compare("paires", h(5, 5, 4, 4), h(12, 12, 12, 7), 4) == 1  # duples > medias
    assert compare("paires", h(12, 12, 5, 1), h(12, 12, 7, 6), 4) == 0  # kickers never count
    assert compare("paires", h(7, 7, 7, 1), h(7, 7, 7, 12), 4) == 0


@pytest.mark.parametrize(
    "ranks,kings,total",
    [
        ((12, 11, 10, 1), 4, 31),
        ((12, 10, 7, 5), 4, 32),
        ((12, 11, 10, 12), 4, 40),
        ((12, 11, 7, 6), 4, 33),
        ((12, 11, 7, 3), 4, 30),
        ((3, 12, 11, 2), 8, 31),
        ((3, 12, 11, 2), 4, 25),
    ],
)
def test_jeu_examples(ranks, kings, total):
    assert total_of(h(*ranks), kings) == total
    assert has_jeu(h(*ranks), kings) is (total >= 31)


def test_jeu_order():
    hands = {
        31: h(12, 11, 10, 1),
        32: h(12, 10, 7, 5),
        40: h(12, 11, 10, 12),
        37: h(12, 11, 10, 7),
        36: h(12, 11, 10, 6),
        35: h(12, 11, 10, 5),
        34: h(12, 11, 10, 4),
        33: h(12, 11, 7, 6),
    }
    order = [31, 32, 40, 37, 36, 35, 34, 33]
    for better, worse in zip(order, order[1:], strict=False):
        assert compare("jeu", hands[better], hands[worse], 4) == 1, (better, worse)


def test_point_higher_sum_wins_and_30_is_best():
    assert compare("point", h(12, 11, 7, 3), h(12, 11, 7, 2), 4) == 1
    best = max(evaluate(h(*r), 4)[6] for r in [(12, 11, 7, 3), (12, 12, 5, 4)])
    assert best == 30


def test_ties_go_to_the_seat_nearest_the_mano():
    same = [h(12, 12, 1, 1), h(12, 12, 1, 1), h(12, 12, 1, 1), h(12, 12, 1, 1)]
    strengths = lance_strengths(same, 4, "grand")
    assert best_seat(strengths, [0, 1, 2, 3], mano=2) == 2
    assert best_seat(strengths, [0, 1, 3], mano=2) == 3
    assert best_seat(strengths, [0, 1], mano=3) == 0
