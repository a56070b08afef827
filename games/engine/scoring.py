"""Showdown: who won each lance, what each lance is worth, and the count in lance order.

Grand, Petit: en paso winner +1; held N winner +N; refused: nothing more.
Paires / Jeu: en paso winner + its Paires / Jeu; held N winner + N + its; refused: bettors +
their Paires / Jeu; unopposed: that team + its Paires / Jeu.
Point: en paso winner +1; held N winner + N + 1; refused bettors +1.

"Its Paires / Jeu" adds the values of **both** players of the winning team. The deje of a refusal
was paid when it happened and is not counted again here. The count runs in lance order and
stops the instant a team reaches 40: later lances keep ``points`` 0. Scores are not capped (a
team on 38 that wins 5 shows 43).
"""

from __future__ import annotations

from .hands import JEU_VALUE, LANCE_INDEX, PAIRES_VALUE, TABLES, best_seat, hand_key
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


def showdown_paso(hands: list[list[str]], kings: int, mano: int, scores: list[int]) -> int | None:
    """Score four hands with every lance en paso (the benchmark's "showdown"). Returns a winner."""
    info = infos(hands, kings)
    everyone = [(mano + i) % 4 for i in range(4)]
    records = [_paso("grand", everyone), _paso("petit", everyone)]
    holders = [s for s in everyone if info[s][LANCE_INDEX["paires"]]]
    if holders:
        teams = {team_of(s) for s in holders}
        records.append(_paso("paires", holders, unopposed=len(teams) == 1))
    holders = [s for s in everyone if info[s][LANCE_INDEX["jeu"]]]
    if holders:
        teams = {team_of(s) for s in holders}
        records.append(_paso("jeu", holders, unopposed=len(teams) == 1))
    else:
        records.append(_paso("point", everyone))
    for record in records:
        decide(record, info, mano)
    return count(records, info, scores)


def _paso(lance: Lance, eligible: list[int], unopposed: bool = False) -> LanceLog:
    return {
        "lance": lance,
        "outcome": "unopposed" if unopposed else "paso",
        "stake": None,
        "winner_team": None,
        "winner_seat": None,
        "deje": 0,
        "points": 0,
        "eligible": eligible,
        "bettor_team": None,
    }
