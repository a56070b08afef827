"""One lance's envite: opening, the answering team's votes, finality and the deje.

The open envite is a plain dict in the state, so a lance in progress survives a reload and a
replay; the dict's layout and the voting rules are written out in docs/engine.md (« Betting »).
"""

from __future__ import annotations

from .types import (
    TARGET,
    ActionType,
    Envite,
    LegalAction,
    PublicEnvite,
    Stake,
    Vote,
    VoteType,
    team_of,
)

OPENING_TYPES: frozenset[ActionType] = frozenset({"pass", "bet", "ordago"})
VOTE_TYPES: frozenset[ActionType] = frozenset({"hold", "refuse", "raise", "ordago"})
MAX_STAKE = TARGET
MIN_BET = 2


def open_envite(eligible: list[int]) -> Envite:
    return {
        "eligible": list(eligible),
        "stake": None,
        "held": 0,
        "bettor_team": None,
        "answering_team": None,
        "votes": {},
        "turn": 0,
        "bettor_seat": None,
    }


def is_opening(b: Envite) -> bool:
    return b["stake"] is None


def opener(b: Envite) -> int:
    return b["eligible"][b["turn"]]


def voters(b: Envite) -> list[int]:
    """Eligible seats of the answering team that have not voted yet (from the mano)."""
    team = b["answering_team"]
    return [s for s in b["eligible"] if team_of(s) == team and str(s) not in b["votes"]]


def to_act(b: Envite) -> list[int]:
    return [opener(b)] if is_opening(b) else voters(b)


def deje(b: Envite) -> int:
    """Points paid at a refusal: the stake held before the last bet or raise, at least 1."""
    return max(1, b["held"])


def place_bet(b: Envite, seat: int, stake: Stake) -> None:
    """An opening bet or órdago by ``seat``: the other team must now answer."""
    b["stake"] = stake
    b["held"] = 0
    b["bettor_team"] = team_of(seat)
    b["answering_team"] = 1 - team_of(seat)
    b["votes"] = {}
    b["bettor_seat"] = seat


def vote_is_final(b: Envite, vote: Vote) -> bool:
    if vote["type"] == "ordago":
        return True
    if vote["type"] == "hold" and b["stake"] == "ordago":
        return True
    return not voters(b)


def team_answer(b: Envite) -> tuple[VoteType, int | None, int]:
    """``(kind, raise_to, seat)`` of the team's answer: its most aggressive vote."""
    best: tuple[int, int] = (-1, 0)
    who: tuple[VoteType, int | None, int] = ("refuse", None, -1)  # called after a vote
    rank = {"refuse": 0, "hold": 1, "raise": 2, "ordago": 3}
    for s in b["eligible"]:  # from the mano: on a tie the nearest the mano keeps it
        vote = b["votes"].get(str(s))
        if vote is None:
            continue
        key = (rank[vote["type"]], vote.get("to", 0))
        if key > best:
            best = key
            who = (vote["type"], vote.get("to"), s)
    return who


def raise_to(b: Envite, seat: int, stake: Stake) -> None:
    """The answering team raised (to an int) or answered órdago: roles swap."""
    held = b["stake"]
    b["held"] = held if isinstance(held, int) else b["held"]
    b["stake"] = stake
    b["bettor_team"], b["answering_team"] = b["answering_team"], b["bettor_team"]
    b["votes"] = {}
    b["bettor_seat"] = seat


def templates(b: Envite, seat: int) -> list[LegalAction]:
    """Legal action templates of ``seat`` in this envite ([] when it may not act)."""
    if is_opening(b):
        if opener(b) != seat:
            return []
        return [
            {"type": "pass"},
            {"type": "bet", "min": MIN_BET, "max": MAX_STAKE},
            {"type": "ordago"},
        ]
    if seat not in voters(b):
        return []
    out: list[LegalAction] = [{"type": "refuse"}, {"type": "hold"}]
    stake = b["stake"]
    if isinstance(stake, int):
        if stake < MAX_STAKE:
            out.append({"type": "raise", "min": stake + 1, "max": MAX_STAKE})
        out.append({"type": "ordago"})
    return out


def public(b: Envite | None) -> PublicEnvite | None:
    if b is None:
        return None
    return {
        "eligible": list(b["eligible"]),
        "stake": b["stake"],
        "held": b["held"],
        "bettor_team": b["bettor_team"],
        "answering_team": b["answering_team"],
        "votes": {k: v.copy() for k, v in b["votes"].items()},
    }
