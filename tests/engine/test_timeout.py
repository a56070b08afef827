"""The decision made for a seat out of time: the most conservative legal one, in every phase."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    IllegalAction,
    apply,
    least_useful_card,
    legal_actions,
    new_partie,
    timeout_action,
    to_act,
)
from games.engine.random_play import DEFAULT_WEIGHTS, pick_action
from games.engine.shuffle import SeededShuffler, seeded_shuffler

from .helpers import pass_all, play, start

HANDS = {
    0: ["12o", "12c", "11o", "4e"],
    1: ["7o", "7c", "7e", "1o"],
    2: ["5o", "5c", "4o", "4c"],
    3: ["12e", "11c", "10o", "1c"],
}


def test_mus_question_cuts_and_the_cutter_becomes_mano_in_hand_one():
    state = start(HANDS, mano=2)
    assert timeout_action(state, 2) == {"type": "cut"}
    after = apply(state, 2, timeout_action(state, 2))
    assert after["phase"] == "lance" and after["hand"]["mano"] == 2


def test_mus_question_cuts_after_others_said_mus():
    state = play(start(HANDS, mano=0), (0, "mus"), (1, "mus"))
    assert to_act(state) == [2]
    assert timeout_action(state, 2) == {"type": "cut"}


def test_discard_throws_the_least_useful_card_of_each_seat():
    state = play(start(HANDS, mano=0), (0, "mus"), (1, "mus"), (2, "mus"), (3, "mus"))
    assert state["phase"] == "discard"
    wanted = {0: ["4e"], 1: ["1o"], 2: ["4o"], 3: ["1c"]}
    for seat in range(4):
        assert timeout_action(state, seat) == {"type": "discard", "cards": wanted[seat]}
    # one seat already chose: the others still get theirs, the chosen one has no decision
    state = apply(state, 1, {"type": "discard", "cards": ["7o", "7c"]})
    assert timeout_action(state, 2) == {"type": "discard", "cards": ["4o"]}
    with pytest.raises(IllegalAction) as err:
        timeout_action(state, 1)
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize(
    "cards,kings,out",
    [
        # Paires first: keep the kings' pair, then the most points
        (["12o", "12c", "11o", "4e"], 4, "4e"),
        # the medias stays whole
        (["7o", "1o", "7c", "7e"], 4, "1o"),
        # duples: keep the higher pair; the two fours tie, the first in card order goes
        (["5o", "4c", "5c", "4o"], 4, "4o"),
        (["1o", "12o", "1c", "12c"], 4, "1o"),
        # no pair: keep the most points (30 has Jeu whatever is drawn), breaking a 31
        (["12o", "11o", "10o", "1o"], 4, "1o"),
        # a pair of valets: keep it with the king
        (["12o", "11o", "10o", "10c"], 4, "11o"),
        # a pair of sevens (14 + a figure) beats no pair with 27 points
        (["7o", "7c", "12o", "11o"], 4, "11o"),
        # low cards: the most points
        (["1o", "2o", "3o", "4o"], 4, "1o"),
        # 8 rois: a 3 is a king, so 3 + 12 is a pair of kings; a 2 is an ace
        (["3o", "12c", "6o", "2o"], 8, "2o"),
        # 8 rois: three kings (3, 3, 12) are medias
        (["3o", "12c", "3c", "2o"], 8, "2o"),
        # 8 rois: 1 and 2 are both aces, equal to throw: the first in the card order goes
        (["7c", "2c", "7o", "1o"], 8, "1o"),
        # 8 rois: four kings, any three are medias: the first in the card order goes
        (["12c", "3o", "12o", "3c"], 8, "3o"),
    ],
)
def test_least_useful_card(cards, kings, out):
    assert least_useful_card(cards, kings) == out


def test_least_useful_card_ignores_the_order_the_cards_are_held_in():
    cards = ["12o", "4c", "12c", "4o"]
    assert {least_useful_card(cards[i:] + cards[:i], 4) for i in range(4)} == {"4o"}


def test_opening_passes():
    state = play(start(HANDS, mano=0), (0, "cut"))
    assert to_act(state) == [0]
    assert timeout_action(state, 0) == {"type": "pass"}
    state = play(state, (0, "pass"))
    assert timeout_action(state, 1) == {"type": "pass"}


@pytest.mark.parametrize(
    "moves",
    [
        [(0, "bet 2")],
        [(0, "ordago")],
        [(0, "bet 5"), (1, "raise 10"), (3, "hold")],  # seat 0 and 2 answer the raise
        [(0, "bet 5"), (1, "ordago")],
        [(0, "bet 2"), (1, "hold")],  # the partner still votes: refusing keeps the hold
    ],
)
def test_answering_a_bet_refuses(moves):
    state = play(play(start(HANDS, mano=0), (0, "cut")), *moves)
    seats = to_act(state)
    assert seats
    for seat in seats:
        assert {"type": "refuse"} in legal_actions(state, seat)
        assert timeout_action(state, seat) == {"type": "refuse"}


def test_refusing_the_partners_hold_still_holds():
    state = play(start(HANDS, mano=0), (0, "cut"), (0, "bet 2"), (1, "hold"))
    state = apply(state, 3, timeout_action(state, 3))
    assert state["hand"]["lances"][-1]["outcome"] == "held"


def test_the_next_hand_is_dealt_by_any_seat():
    state = play(start(HANDS, mano=0), (0, "cut"))
    state = pass_all(state, [0, 1, 2, 3])  # grand
    state = pass_all(state, [0, 1, 2, 3])  # petit
    while state["phase"] == "lance":
        state = apply(state, to_act(state)[0], timeout_action(state, to_act(state)[0]))
    assert state["phase"] == "hand_over"
    for seat in range(4):
        assert timeout_action(state, seat) == {"type": "deal"}
    after = apply(state, 3, timeout_action(state, 3), shuffler=seeded_shuffler(1))
    assert after["phase"] == "mus" and after["hand_number"] == 2


def test_no_decision_for_a_seat_not_to_act_a_finished_partie_or_no_seat():
    state = play(start(HANDS, mano=0), (0, "cut"))
    with pytest.raises(IllegalAction) as err:
        timeout_action(state, 1)
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        timeout_action(state, 4)
    assert err.value.code == "invalid_seat"
    over = play(state, (0, "ordago"), (1, "hold"))
    assert over["status"] == "finished"
    with pytest.raises(IllegalAction) as err:
        timeout_action(over, 0)
    assert err.value.code == "game_finished"


CONSERVATIVE = {"cut", "discard", "pass", "refuse", "deal"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    kings=st.sampled_from([4, 8]),
    timeouts=st.integers(0, 100),
)
def test_the_timeout_decision_is_legal_for_every_seat_at_every_step(seed, kings, timeouts):
    """Random parties where ``timeouts`` percent of the moves are the timed-out decision."""
    rng = SeededShuffler(seed)
    trial = SeededShuffler(seed + 1)  # the trials' own randomness: the partie's stays the same
    weights = dict(DEFAULT_WEIGHTS, mus=80)  # many discard rounds
    state = new_partie(kings=kings, first_mano=rng.randbelow(4), shuffler=rng)
    steps = 0
    while state["status"] != "finished":
        seats = to_act(state)
        for seat in range(4):
            if seat not in seats:
                with pytest.raises(IllegalAction):
                    timeout_action(state, seat)
                continue
            action = timeout_action(state, seat)
            assert action["type"] in CONSERVATIVE
            if action["type"] == "discard":
                assert len(action["cards"]) == 1
                assert action["cards"][0] in state["hand"]["cards"][seat]
            apply(state, seat, action, shuffler=trial)
        seat = seats[rng.randbelow(len(seats))]
        if rng.randbelow(100) < timeouts:
            action = timeout_action(state, seat)
        else:
            action = pick_action(state, seat, rng, weights)
        state = apply(state, seat, action, shuffler=rng)
        steps += 1
        assert steps < 20_000


@pytest.mark.parametrize("seed", range(20))
def test_a_partie_played_only_by_timeouts_ends(seed):
    rng = SeededShuffler(seed)
    state = new_partie(kings=4 if seed % 2 else 8, first_mano=seed % 4, shuffler=rng)
    steps = 0
    while state["status"] != "finished":
        seat = to_act(state)[0]
        state = apply(state, seat, timeout_action(state, seat), shuffler=rng)
        steps += 1
        assert steps < 5_000
    assert max(state["scores"]) >= 40
