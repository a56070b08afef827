"""Illegal actions raise IllegalAction with a stable code and leave the state untouched."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from games.engine import ILLEGAL_CODES, IllegalAction, apply, new_partie

from .helpers import pass_all, play, start

ROOT = Path(__file__).resolve().parents[2]

HANDS = {
    0: ["12o", "12c", "11o", "4o"],  # par
    1: ["7o", "7c", "5o", "1o"],  # par
    2: ["1c", "2o", "4c", "6o"],
    3: ["10o", "11c", "12e", "1e"],
}


def at(name: str) -> dict:
    st = start(HANDS, mano=0)
    if name == "mus":
        return st
    if name == "discard":
        return play(st, (0, "mus"), (1, "mus"), (2, "mus"), (3, "mus"), (1, "discard 7o"))
    st = play(st, (0, "cut"))
    if name == "opening":
        return st
    if name == "answer":
        return play(st, (0, "bet 2"), (1, "hold"))
    if name == "answer_ordago":
        return play(st, (0, "ordago"))
    if name == "answer_40":
        return play(st, (0, "bet 40"))
    if name == "paires":
        return pass_all(pass_all(st, range(4)), range(4))
    if name == "hand_over":
        st = pass_all(pass_all(pass_all(st, range(4)), range(4)), [0, 1])
        return pass_all(st, [0, 3])
    if name == "finished":
        return play(st, (0, "ordago"), (1, "hold"))
    raise AssertionError(name)


CASES = [
    ("mus", 1, {"type": "mus"}, "not_your_turn"),
    ("mus", 0, {"type": "bet", "amount": 2}, "wrong_phase"),
    ("mus", 0, {"type": "deal"}, "wrong_phase"),
    ("mus", 4, {"type": "mus"}, "invalid_seat"),
    ("mus", -1, {"type": "mus"}, "invalid_seat"),
    ("mus", True, {"type": "mus"}, "invalid_seat"),
    ("mus", 0, {"type": "shout"}, "unknown_action"),
    ("mus", 0, {"kind": "mus"}, "malformed_action"),
    ("mus", 0, "mus", "malformed_action"),
    ("mus", 0, {"type": "mus", "extra": 1}, "malformed_action"),
    ("opening", 0, {"type": "bet"}, "malformed_action"),
    ("opening", 0, {"type": "bet", "amount": "2"}, "malformed_action"),
    ("opening", 0, {"type": "bet", "amount": True}, "malformed_action"),
    ("opening", 0, {"type": "bet", "amount": 2.0}, "malformed_action"),
    ("discard", 0, {"type": "discard", "cards": "12o"}, "malformed_action"),
    ("discard", 0, {"type": "discard", "cards": [12]}, "malformed_action"),
    ("discard", 0, {"type": "discard", "cards": ["7o"]}, "card_not_held"),
    ("discard", 0, {"type": "discard", "cards": ["zz"]}, "card_not_held"),
    ("discard", 0, {"type": "discard", "cards": ["12o", "12o"]}, "duplicate_cards"),
    ("discard", 0, {"type": "discard", "cards": []}, "wrong_discard_count"),
    ("discard", 0, {"type": "discard", "cards": HANDS[0] + ["1b"]}, "wrong_discard_count"),
    ("discard", 1, {"type": "discard", "cards": ["7c"]}, "already_discarded"),
    ("discard", 0, {"type": "mus"}, "wrong_phase"),
    ("opening", 1, {"type": "bet", "amount": 2}, "not_your_turn"),
    ("opening", 0, {"type": "bet", "amount": 1}, "amount_out_of_range"),
    ("opening", 0, {"type": "bet", "amount": 41}, "amount_out_of_range"),
    ("opening", 0, {"type": "hold"}, "wrong_phase"),
    ("opening", 0, {"type": "discard", "cards": ["12o"]}, "wrong_phase"),
    ("answer", 0, {"type": "hold"}, "betting_team_cannot_vote"),
    ("answer", 2, {"type": "refuse"}, "betting_team_cannot_vote"),
    ("answer", 1, {"type": "refuse"}, "already_voted"),
    ("answer", 3, {"type": "raise", "to": 2}, "raise_not_above_stake"),
    ("answer", 3, {"type": "raise", "to": 41}, "amount_out_of_range"),
    ("answer", 3, {"type": "bet", "amount": 5}, "wrong_phase"),
    ("answer", 3, {"type": "pass"}, "wrong_phase"),
    ("answer_ordago", 1, {"type": "raise", "to": 10}, "stake_is_ordago"),
    ("answer_ordago", 1, {"type": "ordago"}, "stake_is_ordago"),
    ("answer_40", 1, {"type": "raise", "to": 40}, "raise_not_above_stake"),
    ("paires", 2, {"type": "pass"}, "not_eligible"),
    ("paires", 1, {"type": "pass"}, "not_your_turn"),
    ("hand_over", 0, {"type": "pass"}, "wrong_phase"),
    ("finished", 0, {"type": "deal"}, "game_finished"),
]


@pytest.mark.parametrize("where,seat,action,code", CASES)
def test_illegal_action_raises_and_leaves_the_state_unchanged(where, seat, action, code):
    state = at(where)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as exc:
        apply(state, seat, action)
    err = exc.value
    assert err.code == code, err.reason
    assert err.code in ILLEGAL_CODES
    assert err.reason and "\n" not in err.reason
    json.dumps(err.params)  # JSON types only
    assert json.dumps(state, sort_keys=True) == before


def test_reason_names_the_seat_whose_turn_it_is():
    with pytest.raises(IllegalAction) as exc:
        apply(at("opening"), 2, {"type": "bet", "amount": 2})
    assert exc.value.reason == "seat 2 cannot bet now: it is seat 0's turn"
    assert exc.value.params == {"seat": 2, "type": "bet", "turn": 0}


def test_no_deck_and_no_shuffler_is_no_randomness():
    with pytest.raises(IllegalAction) as exc:
        new_partie(kings=4, first_mano=0)
    assert exc.value.code == "no_randomness"
    st = at("hand_over")
    assert len(st["decks"]) == 1
    with pytest.raises(IllegalAction) as exc:
        apply(st, 2, {"type": "deal"})
    assert exc.value.code == "no_randomness"


@pytest.mark.parametrize(
    "kw,code",
    [
        ({"kings": 6, "first_mano": 0}, "invalid_argument"),
        ({"kings": 4, "first_mano": 4}, "invalid_argument"),
        ({"kings": 4, "first_mano": 0, "decks": [["1o"] * 40]}, "invalid_deck"),
        ({"kings": 4, "first_mano": 0, "decks": [["1o", "2o"]]}, "invalid_deck"),
    ],
)
def test_new_partie_validates(kw, code):
    with pytest.raises(IllegalAction) as exc:
        new_partie(**kw)
    assert exc.value.code == code


def test_apply_never_mutates_its_input_on_success():
    st = at("answer")
    before = json.dumps(st, sort_keys=True)
    after = apply(st, 3, {"type": "raise", "to": 5})
    assert json.dumps(st, sort_keys=True) == before
    assert after["version"] == st["version"] + 1
    assert after["actions"][-1] == [3, {"type": "raise", "to": 5}]


def test_illegal_codes_are_exactly_the_codes_the_engine_raises():
    """The site words a message per code: one it never meets, or one it lacks, is a bug."""
    raised = set()
    for path in (ROOT / "games" / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                first = node.args[0]
                assert isinstance(first, ast.Constant), (path, node.lineno)
                raised.add(first.value)
    assert raised == ILLEGAL_CODES
