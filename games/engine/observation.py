"""What one seat may see (docs/rules.md section 7): the only thing the site renders from.

Before the showdown the view of seat ``s`` holds its own four cards and public facts only: the
discard *counts*, the declarations, every word said, the scores, the pioche's size, whose turn it
is. Never another seat's card, the pioche's order, anyone's discarded cards, a deck or a
reshuffle order. Once the hand is closed (``hand_over`` / ``finished``) ``hands_shown`` holds all
four hands. ``observation(state, None)`` is the public view (no ``my_cards``, no ``legal``).
"""

from __future__ import annotations

from . import betting
from .machine import hand_record, legal_actions, public_record, to_act
from .types import HandRecord, Observation, State


def hand_records(state: State) -> list[HandRecord]:
    """Every hand so far in docs/replay.md's ``hands`` shape (the open hand last, if any)."""
    out = [_copy_record(r) for r in state["hands"]]
    if not state["hand"]["closed"]:
        out.append(hand_record(state))
    return out


def _copy_record(rec: HandRecord) -> HandRecord:
    out = rec.copy()
    out["lances"] = [r.copy() for r in rec["lances"]]
    out["scores_after"] = list(rec["scores_after"])
    if "hands_shown" in rec:
        out["hands_shown"] = {k: list(v) for k, v in rec["hands_shown"].items()}
    return out


def observation(state: State, seat: int | None) -> Observation:
    """Built fresh on every call: the site may keep or change it without touching the state."""
    hand = state["hand"]
    closed = hand["closed"]
    decl = hand["declarations"]
    shown = hand["hands_shown"]  # set at the showdown, which closes the hand
    return {
        "seat": seat,
        "kings": state["kings"],
        "version": state["version"],
        "status": state["status"],
        "phase": state["phase"],
        "hand_number": state["hand_number"],
        "mano": hand["mano"],
        "first_speaker": hand["first_speaker"],
        "scores": list(state["scores"]),
        "winner": state["winner"],
        "to_act": to_act(state),
        "legal": legal_actions(state, seat) if seat is not None else [],
        "my_cards": list(hand["cards"][seat]) if seat is not None else None,
        "pioche_size": len(hand["pioche"]),
        "discard_rounds": [list(r) for r in hand["discard_rounds"]],
        "discard_ready": [p is not None for p in hand["pending"]],
        "lance": hand["lance"],
        "declarations": {
            "paires": None if decl["paires"] is None else list(decl["paires"]),
            "jeu": None if decl["jeu"] is None else list(decl["jeu"]),
        },
        "betting": betting.public(hand["betting"]),
        "words": [w.copy() for w in hand["words"]],
        "lances": [public_record(r) for r in hand["lances"]],
        "hands_shown": {k: list(v) for k, v in shown.items()} if closed and shown else None,
        "hands": hand_records(state),
    }
