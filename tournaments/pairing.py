"""Who plays whom, and who leads: pure functions of the pairs' ratings and what they played.

No Django and no clock, so the rules (docs/tournaments.md) are tested as properties
(tests/tournaments/test_pairing.py) and the services only store what these return. Every
choice is deterministic: equal candidates are ordered by pair id."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: Tournament points per match won: a Swiss round, and each partie of a tournoi éclair.
SWISS_WIN = 1
ECLAIR_WIN = 2
#: Backtracking steps tried for a pairing without rematch before giving up on it (more than
#: any real field needs: the search is exhaustive for the sizes the site runs).
SEARCH_STEPS = 200_000


@dataclass(frozen=True)
class Played:
    """One pair's side of one match: `opponent` None is a bye; `points` the tournament points
    it earned there, `diff` its game points for minus against."""

    pair: int
    opponent: int | None
    points: int
    diff: int = 0


@dataclass(frozen=True)
class Standing:
    pair: int
    points: int
    buchholz: int
    diff: int
    played: int
    byes: int
    rank: int = 0


def standings(ratings: Mapping[int, int], history: Iterable[Played]) -> list[Standing]:
    """Every pair of `ratings` ({pair: rating}) in order: points, then Buchholz (the sum of
    its opponents' points), then the points difference, then the rating, then the id."""
    history = list(history)
    points = dict.fromkeys(ratings, 0)
    diff = dict.fromkeys(ratings, 0)
    played = dict.fromkeys(ratings, 0)
    byes = dict.fromkeys(ratings, 0)
    for row in history:
        points[row.pair] += row.points
        diff[row.pair] += row.diff
        played[row.pair] += 1
        byes[row.pair] += row.opponent is None
    buchholz = dict.fromkeys(ratings, 0)
    for row in history:
        if row.opponent is not None:
            buchholz[row.pair] += points.get(row.opponent, 0)
    rows = [Standing(p, points[p], buchholz[p], diff[p], played[p], byes[p]) for p in ratings]
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.diff, -ratings[s.pair], s.pair))
    ranked = []
    for index, row in enumerate(rows):
        previous = ranked[-1] if ranked else None
        same = previous is not None and _tied(previous, row)
        ranked.append(Standing(**{**row.__dict__, "rank": previous.rank if same else index + 1}))
    return ranked


def _tied(a: Standing, b: Standing) -> bool:
    return (a.points, a.buchholz, a.diff) == (b.points, b.buchholz, b.diff)


@dataclass(frozen=True)
class SwissRound:
    tables: list[tuple[int, int]]
    bye: int | None
    rematches: int


def swiss_round(ratings: Mapping[int, int], history: Iterable[Played]) -> SwissRound:
    """The next Swiss round of the pairs of `ratings`: ordered by points then rating, each
    pair meets the nearest pair below it it has not met; an odd field gives a bye to the
    lowest-placed pair without one. A rematch only when no pairing avoids it (then as few as
    the greedy order gives); a second bye only when every first one makes a rematch."""
    history = list(history)
    met: dict[int, set[int]] = {p: set() for p in ratings}
    points = dict.fromkeys(ratings, 0)
    had_bye: set[int] = set()
    for row in history:
        points[row.pair] = points.get(row.pair, 0) + row.points
        if row.opponent is None:
            had_bye.add(row.pair)
        else:
            met.setdefault(row.pair, set()).add(row.opponent)
    order = sorted(ratings, key=lambda p: (-points.get(p, 0), -ratings[p], p))
    if len(order) % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        lowest_first = order[::-1]
        candidates = [p for p in lowest_first if p not in had_bye]
        candidates += [p for p in lowest_first if p in had_bye]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        tables = _without_rematch(rest, met)
        if tables is not None:
            return SwissRound(tables, bye, 0)
    bye = candidates[0]
    tables = _greedy([p for p in order if p != bye], met)
    return SwissRound(tables, bye, sum(b in met.get(a, ()) for a, b in tables))


def _without_rematch(order: list[int], met: Mapping[int, set[int]]):
    """Pairs of `order` (best first), each with the nearest below it not met, backtracking;
    None if none exists (or the search ran past SEARCH_STEPS)."""
    steps = [0]

    def search(left: list[int]):
        if not left:
            return []
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return None
        first, others = left[0], left[1:]
        for index, opponent in enumerate(others):
            if opponent in met.get(first, ()):
                continue
            found = search(others[:index] + others[index + 1 :])
            if found is not None:
                return [(first, opponent), *found]
        return None

    return search(order)


def _greedy(order: list[int], met: Mapping[int, set[int]]) -> list[tuple[int, int]]:
    """Each pair, best first, with the nearest not met if any, else the nearest."""
    left, tables = list(order), []
    while left:
        first = left.pop(0)
        index = next((i for i, p in enumerate(left) if p not in met.get(first, ())), 0)
        tables.append((first, left.pop(index)))
    return tables


def eclair_pairs(
    waiting: Sequence[int], ratings: Mapping[int, int], last_opponent: Mapping[int, int]
) -> list[tuple[int, int]]:
    """Tournoi éclair: the free pairs in `waiting` (longest waiting first) paired at once, each
    in turn with the nearest-rated other free pair (their last opponent only if no other is
    free; then the longest waiting). An odd one waits for the next pair to be free."""
    left, tables = list(waiting), []
    while len(left) >= 2:
        first = left.pop(0)
        rank = {p: i for i, p in enumerate(left)}
        best = min(
            left,
            key=lambda p: (
                last_opponent.get(first) == p,
                abs(ratings[p] - ratings[first]),
                rank[p],
            ),
        )
        left.remove(best)
        tables.append((first, best))
    return tables


def match_winner(outcomes: Sequence[int | None], best_of: int) -> tuple[bool, int | None]:
    """(decided, winning side) of a match of `best_of` parties (1 or 3) whose parties so far
    ended `outcomes` (the side 0 or 1 that won each, None: both lost it, a double forfeit).
    A double forfeit ends the match: the side ahead wins it, else both lose (None)."""
    need = best_of // 2 + 1
    wins = [outcomes.count(0), outcomes.count(1)]
    for side in (0, 1):
        if wins[side] >= need:
            return True, side
    if None in outcomes:
        if wins[0] == wins[1]:
            return True, None
        return True, 0 if wins[0] > wins[1] else 1
    return False, None
