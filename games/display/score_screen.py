"""The score screen explained: each lance's best hand and why it wins, its stake, deje and
Paires / Jeu / Point bonus apart, the lances a finished partie left uncounted, a held órdago,
and the previous hands of the partie.

Only from the observation's hand records (games.engine.hand_records): a record carries its
``hands_shown`` once it reached its showdown, so no card is shown before it. Hand values come
from the engine's evaluators; what each lance gives follows games/engine/scoring.py (a test
checks the two agree on played parties).
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext_lazy, pgettext_lazy
from markupsafe import Markup

from core import jinja, translations
from core.translations import gettext as _
from games import vocabulary
from games.engine import (
    TARGET,
    Kings,
    Lance,
    compare,
    effective_rank,
    paires_of,
    team_of,
    total_of,
)
from games.engine.types import HandRecord, LanceRecord

View = dict[str, object]

#: A rank in the plural, as Paires name it: "duples de rois et de valets", "medias de sept".
RANK_PLURALS: dict[int, str] = {
    1: pgettext_lazy("rank in the plural: a pair of aces", "as"),
    2: gettext_lazy("deux"),
    3: gettext_lazy("trois"),
    4: gettext_lazy("quatre"),
    5: gettext_lazy("cinq"),
    6: gettext_lazy("six"),
    7: gettext_lazy("sept"),
    10: gettext_lazy("valets"),
    11: gettext_lazy("cavaliers"),
    12: gettext_lazy("rois"),
}
RANK_SHORT: dict[int, str] = {10: gettext_lazy("V"), 11: gettext_lazy("C"), 12: gettext_lazy("R")}


def _ranks(cards: list[str], kings: Kings) -> list[int]:
    return [effective_rank(vocabulary.card_rank(c), kings) for c in cards]


def _of(rank: int) -> str:
    word = str(RANK_PLURALS[rank])
    return (
        _("d’%(ranks)s") % {"ranks": word}
        if word[0] in "aeiou"
        else _("de %(ranks)s") % {"ranks": word}
    )


def hand_value(lance: Lance, cards: list[str], kings: Kings) -> str:
    """A hand as a lance sees it: "R R C 7" (Grand), "1 4 5 7" (Petit), "duples de rois et de
    valets", "Jeu 31", "Point 27"."""
    if lance in ("grand", "petit"):
        ranks = sorted(_ranks(cards, kings), reverse=lance == "grand")
        return " ".join(str(RANK_SHORT.get(r, r)) for r in ranks)
    if lance == "paires":
        name, _value = paires_of(cards, kings)
        if name is None:
            return _("pas de Paires")
        counts: dict[int, int] = {}
        for rank in _ranks(cards, kings):
            counts[rank] = counts.get(rank, 0) + 1
        grouped = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
        if name == "duples" and len(grouped) == 2:
            return _("duples %(high)s et %(low)s") % {
                "high": _of(grouped[0]),
                "low": _of(grouped[1]),
            }
        if name == "medias":
            return _("medias %(ranks)s") % {"ranks": _of(grouped[0])}
        if name == "duples":
            return _("duples %(ranks)s") % {"ranks": _of(grouped[0])}
        return _("par %(ranks)s") % {"ranks": _of(grouped[0])}
    total = total_of(cards, kings)
    if lance == "jeu":
        return _("Jeu %(total)s") % {"total": total} if total >= 31 else _("pas de Jeu")
    return _("Point %(total)s") % {"total": total}


def _eligible(lance: Lance, shown: dict[str, list[str]], kings: Kings) -> list[int]:
    if lance == "paires":
        return [s for s in range(4) if paires_of(shown[str(s)], kings)[0] is not None]
    if lance == "jeu":
        return [s for s in range(4) if total_of(shown[str(s)], kings) >= 31]
    return list(range(4))


def _best(
    lance: Lance, seats: list[int], shown: dict[str, list[str]], mano: int, kings: Kings
) -> int | None:
    """The best hand among ``seats`` (ties to the seat nearest the mano), or None."""
    best: int | None = None
    for i in range(4):
        seat = (mano + i) % 4
        if seat in seats and (
            best is None or compare(lance, shown[str(seat)], shown[str(best)], kings) > 0
        ):
            best = seat
    return best


def _bonus(
    lance: Lance, team: int, shown: dict[str, list[str]] | None, kings: Kings
) -> tuple[int, str]:
    """The Paires / Jeu value of ``team`` (both partners), or the Point's 1, with its reason."""
    if lance == "point":
        return 1, _("Point")
    if lance not in ("paires", "jeu") or shown is None:
        return 0, ""
    parts: list[str] = []
    total = 0
    for seat in (team, team + 2):
        cards = shown[str(seat)]
        if lance == "paires":
            name, value = paires_of(cards, kings)
            label = str(name or "")
        else:
            points = total_of(cards, kings)
            value = 0 if points < 31 else (3 if points == 31 else 2)
            label = _("Jeu %(total)s") % {"total": points}
        if value:
            parts.append(f"{label} {value}")
            total += value
    return total, " + ".join(parts)


def lance_row(
    record: LanceRecord,
    shown: dict[str, list[str]] | None,
    kings: Kings,
    mano: int | None,
    players: list[str],
    teams: list[str],
) -> View:
    """One lance of a hand, explained: why it was won, the stake, the deje and the bonus apart,
    and ``due``: what it gives at the count (games/engine/scoring.py's points_of)."""
    lance, outcome, stake = record["lance"], record["outcome"], record["stake"]
    team, seat = record["winner_team"], record["winner_seat"]
    why = ""
    if outcome == "none":
        why = _("Personne n’a de Paires.")
    elif outcome == "refused" and team is not None:
        why = _("Mise refusée par %(team)s.") % {"team": teams[1 - team]}
    elif seat is not None and shown is not None and mano is not None:
        eligible = _eligible(lance, shown, kings)
        rival = _best(
            lance, [s for s in eligible if team_of(s) != team_of(seat)], shown, mano, kings
        )
        mine = f"{hand_value(lance, shown[str(seat)], kings)} ({players[seat]})"
        if rival is None:
            why = _("%(hand)s : seule équipe à l’avoir.") % {"hand": mine}
        else:
            theirs = f"{hand_value(lance, shown[str(rival)], kings)} ({players[rival]})"
            why = _("%(hand)s contre %(rival)s") % {"hand": mine, "rival": theirs}
            if compare(lance, shown[str(seat)], shown[str(rival)], kings) == 0:
                why += _(" : égalité, le plus proche de la main l’emporte")
            why += "."
    base = 0
    if outcome == "held" and isinstance(stake, int):
        base = stake
    elif outcome == "paso" and lance in ("grand", "petit"):
        base = 1
    bonus, bonus_why = 0, ""
    if team is not None and outcome in ("paso", "held", "refused", "unopposed"):
        bonus, bonus_why = _bonus(lance, team, shown, kings)
    if lance == "point" and outcome not in ("paso", "held", "refused"):
        bonus, bonus_why = 0, ""
    if stake == "ordago":
        stake_text = _("Órdago")
    elif outcome == "held" and isinstance(stake, int):
        stake_text = vocabulary.points(stake)
    elif outcome == "paso" and lance in ("grand", "petit"):
        stake_text = _("1 (en paso)")
    elif outcome == "refused" and isinstance(stake, int):
        stake_text = _("%(stake)s refusée") % {"stake": stake}
    else:
        stake_text = "—"
    winner = "—"
    if team is not None:
        winner = teams[team] + (f" ({players[seat]})" if seat is not None else "")
    return {
        "lance": lance,
        "name": vocabulary.lance_name(lance),
        "outcome": vocabulary.outcome_name(outcome),
        "winner": winner,
        "why": why,
        "stake": stake_text,
        "deje": record["deje"],
        "bonus": bonus,
        "bonus_why": bonus_why,
        "due": 0 if outcome in ("none", "ordago") or team is None else base + bonus,
        "points": record["points"],
        "note": "",
    }


@dataclass(frozen=True)
class Sides:
    """Whom a hand is told to: the names by seat, the teams' labels, the viewer's team, and how
    many kings the cards count (hashable: the past hands' cache keys hold it)."""

    players: tuple[str, ...]
    teams: tuple[str, ...]
    viewer_team: int
    kings: Kings


def hand_summary(
    record: HandRecord, before: list[int], sides: Sides, *, last_of_partie: bool
) -> View:
    """One closed hand: its lance rows, what it gave each team, and how it ended the partie
    (a held órdago, a deje, or the count stopped at 40)."""
    players, teams = list(sides.players), list(sides.teams)
    kings, viewer_team = sides.kings, sides.viewer_team
    shown = record.get("hands_shown")
    rows = [lance_row(r, shown, kings, record["mano"], players, teams) for r in record["lances"]]
    after = record["scores_after"]
    headline = ""
    ordago = next((r for r in record["lances"] if r["outcome"] == "ordago"), None)
    if ordago is not None and ordago["winner_team"] is not None:
        headline = _("Órdago tenu %(at_lance)s : %(team)s") % {
            "at_lance": vocabulary.at_lance(ordago["lance"]),
            "team": winning_words(teams, ordago["winner_team"], viewer_team),
        }
        for row, lance in zip(rows, record["lances"], strict=True):
            if lance["outcome"] == "ordago":
                row["note"] = _("l’órdago tenu gagne la partie")
            elif row["due"]:
                row["note"] = _("non compté : l’órdago décide la partie")
    elif last_of_partie:
        reached = next((t for t in (0, 1) if after[t] >= TARGET), None)
        counted = any(r["points"] for r in record["lances"])
        last = record["lances"][-1] if record["lances"] else None
        if (
            not counted
            and last is not None
            and last["outcome"] == "refused"
            and reached is not None
        ):
            headline = _("Deje %(at_lance)s : %(team)s") % {
                "at_lance": vocabulary.at_lance(last["lance"]),
                "team": winning_words(teams, reached, viewer_team),
            }
            for row in rows:
                if row["due"]:
                    row["note"] = _("non compté : la partie s’est finie sur le deje")
        else:
            for row in rows:
                if row["due"] and not row["points"]:
                    row["note"] = _("compte arrêté à %(target)s") % {"target": TARGET}
    return {
        "rows": rows,
        "shown": shown is not None,
        "headline": headline,
        "gained": [after[0] - before[0], after[1] - before[1]],
        "scores_after": list(after),
    }


def winning_words(teams: list[str], team: int, viewer_team: int) -> str:
    """ "Nous gagnons la partie" for the viewer's team, "Eux gagnent la partie" else."""
    if team == viewer_team:
        return _("Nous gagnons la partie")
    return _("%(team)s gagnent la partie") % {"team": teams[team]}


def past_hands(
    hands: list[HandRecord],
    hand_number: int,
    kings: Kings,
    players: list[str],
    viewer: int,
    teams: list[str],
) -> str:
    """The HTML of the hands closed before the current one (the « Mains précédentes »), the
    latest first: a title, one line per lance and the total after it. Part of every push of
    every seat, and the same until the hand ends: built and written once per history, viewer's
    team and language (:func:`_past_hands`). The history's key is its pickle: a fifth of its
    JSON's cost, written at every render (two records alike but for their keys' order are two
    keys: the hands built again, never the wrong ones)."""
    history = past_history(hands, hand_number)
    return past_hands_of(history, Sides(tuple(players), tuple(teams), team_of(viewer), kings))


def past_hands_of(history: bytes, sides: Sides) -> str:
    """`past_hands` from its history's key (`past_history`), which a caller may have worked out
    once for every viewer of a version, whatever their team and language."""
    return _past_hands(history, sides, translations.language())


def past_history(hands: list[HandRecord], hand_number: int) -> bytes:
    """The key of the hands closed before `hand_number` (`past_hands`)."""
    return pickle.dumps(hands[: hand_number - 1], protocol=pickle.HIGHEST_PROTOCOL)


@lru_cache(maxsize=1024)
def _past_hands(history: bytes, sides: Sides, language: str | None) -> str:
    out: list[str] = []
    before: tuple[int, ...] = (0, 0)
    for number, record in enumerate(pickle.loads(history), start=1):
        out.append(_past_hand(json.dumps(record, sort_keys=True), number, before, sides, language))
        before = tuple(record["scores_after"])
    out.reverse()
    return jinja.macro("games/_score_screen.html", "past_hands", len(out), Markup("".join(out)))


@lru_cache(maxsize=1024)
def _past_hand(
    record_json: str, number: int, before: tuple[int, ...], sides: Sides, language: str | None
) -> Markup:
    """One previous hand in words, written (``language``: the cache's key, the words are
    translated): a hand's end writes its own, the hands before it are kept."""
    return jinja.macro(
        "games/_score_screen.html",
        "past_hand",
        _past_hand_words(record_json, number, before, sides),
    )


def _past_hand_words(record_json: str, number: int, before: tuple[int, ...], sides: Sides) -> View:
    record: HandRecord = json.loads(record_json)
    summary = hand_summary(record, list(before), sides, last_of_partie=False)
    teams, mine = sides.teams, sides.viewer_team
    after = record["scores_after"]
    lines = []
    for row in summary["rows"]:  # type: ignore[attr-defined]
        line = f"{row['name']} · {row['outcome']} — {row['winner']} +{row['points']}"
        if row["why"]:
            line = vocabulary.labelled(line, row["why"])
        lines.append(line)
    return {
        "number": number,
        "headline": summary["headline"],
        "lines": lines,
        "title": _("Main n° %(number)s : %(ours)s +%(a)s · %(theirs)s +%(b)s")
        % {
            "number": number,
            "ours": teams[mine],
            "a": after[mine] - before[mine],
            "theirs": teams[1 - mine],
            "b": after[1 - mine] - before[1 - mine],
        },
        "total": _("Total : %(ours)s %(a)s · %(theirs)s %(b)s")
        % {
            "ours": teams[mine],
            "a": after[mine],
            "theirs": teams[1 - mine],
            "b": after[1 - mine],
        },
    }
