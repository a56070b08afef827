"""The pure pairing and standings (tournaments.pairing): properties over random fields and
results, checked against a brute force on small fields."""

import itertools
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.pairing import Played


def _matchable(pairs: list[int], met: dict[int, set[int]]) -> bool:
    """Brute force: can `pairs` all be paired with no two that met?"""
    if not pairs:
        return True
    first, rest = pairs[0], pairs[1:]
    return any(o not in met[first] and _matchable([p for p in rest if p != o], met) for o in rest)


def _play_round(ratings, history, rnd: random.Random, win=pairing.SWISS_WIN):
    chosen = pairing.swiss_round(ratings, history)
    rows = []
    if chosen.bye is not None:
        rows.append(Played(chosen.bye, None, win, 0))
    for a, b in chosen.tables:
        winner = rnd.choice((a, b))
        margin = rnd.randint(1, 40)
        for pair, other in ((a, b), (b, a)):
            won = pair == winner
            rows.append(Played(pair, other, win if won else 0, margin if won else -margin))
    return chosen, rows


fields = st.tuples(
    st.integers(min_value=2, max_value=9),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=0, max_value=10_000),
)


@settings(max_examples=150, deadline=None)
@given(fields)
def test_swiss_rounds_pair_everyone_once_and_avoid_rematches_and_second_byes(field):
    size, rounds, seed = field
    rnd = random.Random(seed)
    ratings = {pk: rnd.randint(800, 1400) for pk in range(1, size + 1)}
    history: list[Played] = []
    for _ in range(rounds):
        met = {p: set() for p in ratings}
        byes = set()
        for row in history:
            if row.opponent is None:
                byes.add(row.pair)
            else:
                met[row.pair].add(row.opponent)
        chosen, rows = _play_round(ratings, history, rnd)
        # every pair paired or bye, exactly once
        seated = [p for t in chosen.tables for p in t] + [p for p in [chosen.bye] if p]
        assert sorted(seated) == sorted(ratings)
        assert (chosen.bye is None) == (size % 2 == 0)
        # no rematch when some bye and pairing avoid it
        options = [None] if size % 2 == 0 else list(ratings)
        avoidable = [b for b in options if _matchable([p for p in ratings if p != b], met)]
        rematches = sum(b in met[a] for a, b in chosen.tables)
        assert rematches == chosen.rematches
        if avoidable:
            assert rematches == 0
            # never a second bye while a pair without one could take it without a rematch
            if chosen.bye is not None and any(b not in byes for b in avoidable):
                assert chosen.bye not in byes
        history += rows


@settings(max_examples=60, deadline=None)
@given(fields)
def test_pairing_is_deterministic(field):
    size, rounds, seed = field
    ratings = {pk: random.Random(seed + pk).randint(800, 1400) for pk in range(1, size + 1)}
    a, b = random.Random(seed), random.Random(seed)
    history_a, history_b = [], []
    for _ in range(rounds):
        chosen_a, rows_a = _play_round(ratings, history_a, a)
        chosen_b, rows_b = _play_round(ratings, list(reversed(history_b)), b)
        assert chosen_a == chosen_b
        assert pairing.standings(ratings, history_a) == pairing.standings(
            ratings, list(reversed(history_b))
        )
        history_a += rows_a
        history_b += rows_b


def test_the_bye_goes_to_the_lowest_placed_pair_without_one():
    ratings = {1: 1200, 2: 1100, 3: 1000}
    first = pairing.swiss_round(ratings, [])
    assert first.bye == 3 and first.tables == [(1, 2)]
    history = [Played(3, None, 1), Played(1, 2, 1, 10), Played(2, 1, 0, -10)]
    second = pairing.swiss_round(ratings, history)
    assert second.bye == 2  # 3 had one; 2 is the lowest without
    assert second.tables == [(1, 3)] or second.tables == [(3, 1)]


def test_pairing_by_points_then_rating():
    ratings = {1: 1000, 2: 1400, 3: 1300, 4: 1200}
    assert pairing.swiss_round(ratings, []).tables == [(2, 3), (4, 1)]
    # 1 and 4 won round one: they lead, then the rating
    history = [
        Played(1, 2, 1, 5),
        Played(2, 1, 0, -5),
        Played(4, 3, 1, 5),
        Played(3, 4, 0, -5),
    ]
    assert pairing.swiss_round(ratings, history).tables == [(4, 1), (2, 3)]


def test_tie_breaks_points_then_buchholz_then_difference():
    ratings = dict.fromkeys(range(1, 5), 1000)
    history = [
        # round 1: 1 beats 2 by 5, 3 beats 4 by 30
        Played(1, 2, 1, 5),
        Played(2, 1, 0, -5),
        Played(3, 4, 1, 30),
        Played(4, 3, 0, -30),
        # round 2: 1 beats 3, 2 beats 4 by 40
        Played(1, 3, 1, 1),
        Played(3, 1, 0, -1),
        Played(2, 4, 1, 40),
        Played(4, 2, 0, -40),
    ]
    rows = pairing.standings(ratings, history)
    by = {r.pair: r for r in rows}
    # 3 and 2 have 1 point and the same Buchholz (they both met 1 and 4): the difference
    assert by[3].buchholz == by[2].buchholz == 2
    assert (by[2].diff, by[3].diff) == (35, 29)
    assert [r.pair for r in rows] == [1, 2, 3, 4]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_buchholz_comes_before_the_difference():
    ratings = dict.fromkeys(range(1, 5), 1000)
    history = [
        Played(1, 2, 1, 1),
        Played(2, 1, 0, -1),
        Played(3, 4, 1, 40),
        Played(4, 3, 0, -40),
        Played(1, 4, 1, 1),
        Played(4, 1, 0, -1),
        Played(2, 3, 1, 1),
        Played(3, 2, 0, -1),
    ]
    by = {r.pair: r for r in pairing.standings(ratings, history)}
    # 2 (met 1: 2 points, and 3: 1) beats 3 (met 4: 0, and 2: 1) despite a worse difference
    assert (by[2].buchholz, by[3].buchholz) == (3, 1)
    assert by[2].diff < by[3].diff
    assert by[2].rank < by[3].rank


def test_equal_rows_share_a_rank():
    ratings = {1: 1000, 2: 1200}
    rows = pairing.standings(ratings, [])
    assert [r.pair for r in rows] == [2, 1] and [r.rank for r in rows] == [1, 1]


def test_eclair_pairs_nearest_rating_and_not_the_last_opponent():
    ratings = {1: 1000, 2: 1010, 3: 1500, 4: 1490, 5: 700}
    assert pairing.eclair_pairs([1, 2, 3, 4, 5], ratings, {}) == [(1, 2), (3, 4)]
    assert pairing.eclair_pairs([1, 2, 5], ratings, {1: 2, 2: 1}) == [(1, 5)]
    # only the last opponent is free: they play again rather than wait
    assert pairing.eclair_pairs([1, 2], ratings, {1: 2, 2: 1}) == [(1, 2)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2000), min_size=0, max_size=12, unique=True))
def test_eclair_pairs_everyone_free_but_one_at_most(values):
    ratings = {pk: value for pk, value in enumerate(values, start=1)}
    tables = pairing.eclair_pairs(list(ratings), ratings, {})
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)) == len(ratings) // 2 * 2


def test_best_of_three():
    assert pairing.match_winner([0], 1) == (True, 0)
    assert pairing.match_winner([0], 3) == (False, None)
    assert pairing.match_winner([0, 1], 3) == (False, None)
    assert pairing.match_winner([0, 1, 1], 3) == (True, 1)
    assert pairing.match_winner([0, 0], 3) == (True, 0)
    assert pairing.match_winner([None], 1) == (True, None)
    assert pairing.match_winner([0, None], 3) == (True, 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([0, 1]), min_size=3, max_size=3))
def test_best_of_three_is_decided_by_two_wins(outcomes):
    for played in range(1, 4):
        decided, side = pairing.match_winner(outcomes[:played], 3)
        wins = [outcomes[:played].count(0), outcomes[:played].count(1)]
        assert decided == (max(wins) >= 2)
        if decided:
            assert wins[side] == 2
            break  # the match is over: no third partie


def test_the_pairing_module_imports_no_django():
    source = Path(pairing.__file__).read_text()
    assert "django" not in source
    assert all(name not in source for name in ("import time", "import random", "datetime"))


def test_search_is_exhaustive_on_a_field_where_greedy_fails():
    # 1-2 and 2-4 met: top-down, 1 takes 3 and leaves 2-4, a rematch; the search goes back.
    ratings = dict.fromkeys(range(1, 5), 1000)
    history = [
        Played(a, b, 0)
        for a, b in itertools.permutations([1, 2, 3, 4], 2)
        if {a, b}
        in (
            {1, 2},
            {2, 4},
        )
    ]
    chosen = pairing.swiss_round(ratings, history)
    assert chosen.rematches == 0
    assert sorted(map(sorted, chosen.tables)) == [[1, 4], [2, 3]]
