"""Showdown: who won each lance, what each lance is worth, and the count in lance order.

The count stops the instant a team reaches 40, as at a real table: later lances keep
``points`` 0, and scores are not capped. What each lance is worth: docs/engine.md
(« Scoring »).
"""

from __future__ import annotations

from .hands import (
    CARD_KEY,
    GRAND,
    JEU,
    JEU_VALUE,
    LANCE_INDEX,
    PAIRES,
    PAIRES_VALUE,
    PETIT,
    POINT,
    TABLES,
    best_seat,
    hand_key,
)
from .types import TARGET, Lance, LanceLog, team_of


def infos(hands: list[list[str]], kings: int) -> list[tuple[int, ...]]:
    table = TABLES[kings]
    return [table[hand_key(h)] for h in hands]


def decide(record: LanceLog, info: list[tuple[int, ...]], mano: int) -> None:
    """Fill ``winner_team`` / ``winner_seat`` of a lance record from the shown hands."""
    outcome = record["outcome"]
    if outcome in ("paso", "held", "ordago", "unopposed"):
        idx = LANCE_INDEX[record["lance"]]
        seat = best_seat([i[idx] for i in info], record["eligible"], mano)
        record["winner_seat"] = seat
        record["winner_team"] = team_of(seat)
    elif outcome == "refused":
        record["winner_team"] = record["bettor_team"]
        record["winner_seat"] = None


def team_value(lance: Lance, team: int, info: list[tuple[int, ...]]) -> int:
    idx = PAIRES_VALUE if lance == "paires" else JEU_VALUE
    return info[team][idx] + info[team + 2][idx]


def points_of(record: LanceLog, info: list[tuple[int, ...]]) -> int:
    """Points a lance gives at the showdown (the deje excluded)."""
    outcome = record["outcome"]
    lance = record["lance"]
    if outcome in ("none", "ordago"):
        return 0
    held = record["stake"]
    stake = held if outcome == "held" and isinstance(held, int) else 0  # a held órdago: "ordago"
    if lance in ("grand", "petit"):
        return 1 if outcome == "paso" else stake
    if lance == "point":
        return stake + 1
    team = record["winner_team"]
    assert team is not None, "points_of runs on decided lances only"
    return stake + team_value(lance, team, info)


def count(records: list[LanceLog], info: list[tuple[int, ...]], scores: list[int]) -> int | None:
    """Count the lances in order into ``scores``; the team that reaches 40, or None."""
    for record in records:
        if record["winner_team"] is None:
            continue
        pts = points_of(record, info)
        record["points"] = pts
        team = record["winner_team"]
        scores[team] += pts
        if scores[team] >= TARGET:
            return team
    return None


#: the seats from each mano, nearest first (ties in a lance go to the first of them)
_ORDERS: tuple[tuple[int, int, int, int], ...] = tuple(
    ((m + 0) % 4, (m + 1) % 4, (m + 2) % 4, (m + 3) % 4) for m in range(4)
)


def showdown_paso(hands: list[list[str]], kings: int, mano: int, scores: list[int]) -> int | None:
    """Score four hands with every lance en paso (the benchmark's "showdown"). Returns a winner.

    The same count as :func:`decide` + :func:`count` over en-paso records (tests check it on
    random deals), without building the records: one table entry per hand, then each lance's
    best seat from the mano. En paso and unopposed pay alike (Paires / Jeu: the winning team's
    values; Grand, Petit, Point: 1), so whether a lance was opposed does not matter here.
    """
    table = TABLES[kings]
    k = CARD_KEY
    info = [table[k[h[0]] + k[h[1]] + k[h[2]] + k[h[3]]] for h in hands]
    order = _ORDERS[mano]
    for idx in (GRAND, PETIT):
        best = order[0]
        top = info[best][idx]
        for seat in order[1:]:
            if info[seat][idx] > top:
                best, top = seat, info[seat][idx]
        team = best & 1
        scores[team] += 1
        if scores[team] >= TARGET:
            return team
    for idx, value in ((PAIRES, PAIRES_VALUE), (JEU, JEU_VALUE)):
        best, top = -1, 0
        for seat in order:
            if info[seat][idx] > top:
                best, top = seat, info[seat][idx]
        if best < 0:
            if idx == JEU:  # nobody has Jeu: Point, 1 to the best total
                best = order[0]
                top = info[best][POINT]
                for seat in order[1:]:
                    if info[seat][POINT] > top:
                        best, top = seat, info[seat][POINT]
                team = best & 1
                scores[team] += 1
                if scores[team] >= TARGET:
                    return team
            continue
        team = best & 1
        scores[team] += info[team][value] + info[team + 2][value]
        if scores[team] >= TARGET:
            return team
    return None
