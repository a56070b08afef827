"""Hand-built observations of chosen moments of a hand, typed by the engine's contract
(games.engine.Observation): mypy checks them in ``make test`` and test_observations_shape
checks their keys, so they cannot drift from what the engine gives."""

from __future__ import annotations

import copy
from typing import Any, cast

from games.engine import Observation, Word
from games.engine.types import LanceRecord

PLAYERS = ["Ane", "Bixente", "Camille", "Dani"]

#: Hands used by the hand-built observations (seat -> four codes).
HANDS = {
    0: ["12o", "3c", "7e", "1b"],
    1: ["11o", "11c", "10e", "4b"],
    2: ["12c", "2o", "5e", "6b"],
    3: ["12e", "10b", "7o", "4c"],
}


def base(seat: int = 0, **changes: Any) -> Observation:
    """Hand 1, mus phase, seat 0 is the mano and speaks."""
    obs: Observation = {
        "seat": seat,
        "kings": 8,
        "version": 7,
        "status": "playing",
        "phase": "mus",
        "hand_number": 1,
        "mano": 0,
        "first_speaker": 0,
        "scores": [6, 11],
        "winner": None,
        "to_act": [0],
        "legal": [{"type": "mus"}, {"type": "cut"}] if seat == 0 else [],
        "my_cards": list(HANDS[seat]) if seat is not None else None,
        "pioche_size": 24,
        "discard_rounds": [],
        "discard_ready": [False, False, False, False],
        "lance": None,
        "declarations": {"paires": None, "jeu": None},
        "betting": None,
        "words": [],
        "lances": [],
        "hands_shown": None,
        "hands": [],
    }
    return cast(Observation, {**obs, **copy.deepcopy(changes)})


def discard(seat: int = 0, ready: tuple[bool, ...] = (False, True, False, False)) -> Observation:
    legal = [] if ready[seat] else [{"type": "discard", "min": 1, "max": 4}]
    return base(
        seat,
        phase="discard",
        to_act=[s for s in range(4) if not ready[s]],
        legal=legal,
        discard_ready=list(ready),
        words=[{"seat": s, "type": "mus"} for s in range(4)],
    )


def betting_open(seat: int = 0) -> Observation:
    """Grand, after one discard round: seat 3 bet 5, team 0 answers (seat 0 and 2)."""
    legal = (
        [
            {"type": "refuse"},
            {"type": "hold"},
            {"type": "raise", "min": 6, "max": 40},
            {"type": "ordago"},
        ]
        if seat in (0, 2)
        else []
    )
    words: list[Word] = [{"seat": s, "type": "mus"} for s in range(4)]
    words += [{"seat": s, "type": "discard", "count": n} for s, n in enumerate([2, 3, 1, 4])]
    words += [
        {"seat": 0, "type": "cut"},
        {"seat": 0, "type": "pass", "lance": "grand"},
        {"seat": 1, "type": "pass", "lance": "grand"},
        {"seat": 2, "type": "pass", "lance": "grand"},
        {"seat": 3, "type": "bet", "lance": "grand", "amount": 5},
    ]
    return base(
        seat,
        phase="lance",
        lance="grand",
        to_act=[0, 2],
        legal=legal,
        pioche_size=14,
        discard_rounds=[[2, 3, 1, 4]],
        betting={
            "eligible": [0, 1, 2, 3],
            "stake": 5,
            "held": 0,
            "bettor_team": 1,
            "answering_team": 0,
            "votes": {},
        },
        words=words,
    )


def opening(seat: int = 1, bet_min: int = 2) -> Observation:
    """Petit: seat 1 opens (pass / bet / órdago)."""
    legal = (
        [{"type": "pass"}, {"type": "bet", "min": bet_min, "max": 40}, {"type": "ordago"}]
        if seat == 1
        else []
    )
    return base(
        seat,
        phase="lance",
        lance="petit",
        to_act=[1],
        legal=legal,
        betting={
            "eligible": [0, 1, 2, 3],
            "stake": None,
            "held": 0,
            "bettor_team": None,
            "answering_team": None,
            "votes": {},
        },
        words=[
            {"seat": 0, "type": "cut"},
            {"seat": 0, "type": "pass", "lance": "grand"},
            {"seat": 1, "type": "bet", "lance": "grand", "amount": 2},
            {"seat": 2, "type": "refuse", "lance": "grand"},
            {"seat": 0, "type": "refuse", "lance": "grand"},
            {"seat": 0, "type": "pass", "lance": "petit"},
        ],
        lances=[
            {
                "lance": "grand",
                "outcome": "refused",
                "stake": 2,
                "winner_team": 1,
                "winner_seat": None,
                "deje": 1,
                "points": 0,
            },
        ],
    )


LANCES_DONE: list[LanceRecord] = [
    {
        "lance": "grand",
        "outcome": "held",
        "stake": 10,
        "winner_team": 0,
        "winner_seat": 0,
        "deje": 0,
        "points": 10,
    },
    {
        "lance": "petit",
        "outcome": "refused",
        "stake": 2,
        "winner_team": 1,
        "winner_seat": None,
        "deje": 1,
        "points": 0,
    },
    {
        "lance": "paires",
        "outcome": "paso",
        "stake": None,
        "winner_team": 0,
        "winner_seat": 2,
        "deje": 0,
        "points": 4,
    },
    {
        "lance": "jeu",
        "outcome": "unopposed",
        "stake": None,
        "winner_team": 1,
        "winner_seat": 1,
        "deje": 0,
        "points": 5,
    },
]


def hand_over(seat: int = 0) -> Observation:
    shown = {str(s): list(cards) for s, cards in HANDS.items()}
    return base(
        seat,
        status="hand_over",
        phase="hand_over",
        to_act=[0, 1, 2, 3],
        legal=[{"type": "deal"}],
        scores=[20, 17],
        declarations={"paires": [True, True, True, False], "jeu": [False, True, False, True]},
        lances=copy.deepcopy(LANCES_DONE),
        hands_shown=shown,
        hands=[
            {
                "mano": 0,
                "lances": copy.deepcopy(LANCES_DONE),
                "hands_shown": shown,
                "scores_after": [20, 17],
            },
        ],
        version=42,
    )


def finished(seat: int = 0, winner: int = 0) -> Observation:
    obs = hand_over(seat)
    obs.update(
        {
            "status": "finished",
            "phase": "finished",
            "winner": winner,
            "to_act": [],
            "legal": [],
            "scores": [40, 17] if winner == 0 else [20, 40],
        }
    )
    return obs
