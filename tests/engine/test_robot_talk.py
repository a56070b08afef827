"""A robot's answer to a quick phrase (games.engine.robot_talk): a pure function of its own
observation and the phrase heard, as its decisions are."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import SeededShuffler, apply, new_partie, observation, to_act
from games.engine.random_play import pick_action
from games.engine.robot_talk import ANSWERS, PRAISE, answering_seat, robot_reply

HEARD = ["hello", "well_played", "good_one", "bravo", "laugh", "bye", "luck", "thanks"]


def between_hands(seed: int, hands: int) -> dict:
    """A partie played at random until the score screen of hand `hands` (or its end)."""
    rng = SeededShuffler(seed)
    state = new_partie(kings=4, first_mano=seed % 4, shuffler=rng)
    while state["status"] != "finished":
        if state["status"] == "hand_over":
            if state["hand_number"] >= hands:
                break
            state = apply(state, 0, {"type": "deal"}, shuffler=rng)
            continue
        seats = to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        state = apply(state, seat, pick_action(state, seat, rng), shuffler=rng)
    return state


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    hands=st.integers(1, 4),
    speaker=st.integers(0, 3),
    heard=st.sampled_from(HEARD),
)
def test_the_answer_is_a_function_of_the_observation_and_the_phrase(seed, hands, speaker, heard):
    state = between_hands(seed, hands)
    for seat in range(4):
        view = observation(state, seat)
        again = json.loads(json.dumps(view))
        answer = robot_reply(view, speaker, heard)
        assert answer == robot_reply(again, speaker, heard)
        if seat == speaker or (heard != "hello" and heard not in PRAISE):
            assert answer is None
        else:
            assert answer in ANSWERS


def test_a_greeting_gets_a_greeting_and_praise_thanks_until_the_end():
    state = next(s for s in map(lambda n: between_hands(n, 1), range(50)) if s["winner"] is None)
    assert state["status"] == "hand_over"
    assert robot_reply(observation(state, 1), 0, "hello") == "hello"
    assert robot_reply(observation(state, 1), 0, "well_played") == "thanks"
    assert robot_reply(observation(state, 1), 0, "laugh") is None
    finished = between_hands(7, 99)
    assert finished["status"] == "finished"
    winners = finished["winner"]
    loser = 1 - winners  # seats 0, 2 are team 0; 1, 3 team 1
    assert robot_reply(observation(finished, loser), winners, "bravo") == "good_game"
    assert robot_reply(observation(finished, winners), loser, "bravo") == "thanks"


def test_the_first_robot_after_the_speaker_answers():
    assert answering_seat(0, {1, 2, 3}) == 1
    assert answering_seat(2, {1, 3}) == 3
    assert answering_seat(3, {1}) == 1
    assert answering_seat(0, set()) is None
