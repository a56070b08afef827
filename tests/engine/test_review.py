"""The review's analysis and the practice hints read one seat's observation only: a world
dealt from the observation observes back to it, changing every hidden card changes no advice
nor figure, and the hints' counts are the brute-force counts."""

from __future__ import annotations

import itertools

import pytest

from games import engine
from games.engine import hints, review
from games.engine.cards import CARD_CODES
from games.engine.hands import LANCE_INDEX, evaluate
from games.engine.shuffle import SeededShuffler


def played_states(seed: int, kings: int = 4, limit: int = 400):
    """(state, seat) before each decision of a robot partie (the deals aside)."""
    rng = SeededShuffler(seed)
    state = engine.new_partie(kings=kings, first_mano=seed % 4, shuffler=rng)
    for _ in range(limit):
        if state["status"] == "finished":
            return
        seat = engine.to_act(state)[0]
        if state["phase"] != "hand_over":
            yield state, seat
        action = engine.robot_action(engine.observation(state, seat))
        state = engine.apply(state, seat, action, shuffler=rng)


@pytest.mark.parametrize("kings", [4, 8])
def test_a_world_dealt_from_an_observation_observes_back_to_it(kings):
    seen = 0
    for seed in range(4):
        for state, seat in played_states(seed, kings):
            obs = engine.observation(state, seat)
            world = review.determinise(obs, review.seeded(obs))
            assert engine.observation(world, seat) == obs
            seen += 1
    assert seen > 200


def other_world(state, seat):
    """The same partie with every card the seat cannot see moved: each other seat holds four
    other cards (declarations kept), the pioche is another one."""
    obs = engine.observation(state, seat)
    for salt in range(1, 500):
        world = review.determinise(obs, SeededShuffler(salt))
        hands = world["hand"]["cards"]
        real = state["hand"]["cards"]
        moved = (
            all(not set(hands[s]) & set(real[s]) for s in range(4) if s != seat)
            and world["hand"]["pioche"][:1] != state["hand"]["pioche"][:1]
        )
        if moved:
            return world
    raise AssertionError("no world moved every hidden card")


def test_changing_every_card_the_player_could_not_see_changes_no_advice():
    checked = 0
    for state, seat in itertools.islice(played_states(11), 0, 60, 3):
        if state["phase"] == "discard" and any(p is not None for p in state["hand"]["pending"]):
            continue  # the others' secret choices are redone by the world, not moved
        other = other_world(state, seat)
        assert other["hand"]["cards"] != state["hand"]["cards"]
        mine = engine.observation(state, seat)
        theirs = engine.observation(other, seat)
        assert review.analyse(mine, samples=4) == review.analyse(theirs, samples=4)
        assert hints.hand_strength(mine) == hints.hand_strength(theirs)
        assert hints.advice(mine) == hints.advice(theirs)
        checked += 1
    assert checked >= 10


def test_a_review_names_every_decision_of_the_seat_with_its_options():
    rng = SeededShuffler(3)
    state = engine.new_partie(kings=4, first_mano=0, shuffler=rng)
    while state["status"] != "finished":
        seat = engine.to_act(state)[0]
        state = engine.apply(
            state, seat, engine.robot_action(engine.observation(state, seat)), shuffler=rng
        )
    found = review.review_seats(state, {1}, samples=2)
    mine = [a for s, a in state["actions"] if s == 1 and a["type"] != "deal"]
    assert [d["played"] for d in found[1]] == mine
    for decision in found[1]:
        keys = [review.key(o["action"]) for o in decision["options"]]
        assert review.key(decision["played"]) in keys
        assert review.key(decision["advice"]) in keys
        assert all(0 <= o["chance"] <= 1 for o in decision["options"])
        assert decision["cost"] >= 0
        assert decision["agrees"]  # the robot played this seat: it agrees with itself
    summary = review.summary(found[1])
    assert summary["agreement"] == 1.0


def brute_beats(cards, pool, kings, lance):
    idx = LANCE_INDEX[lance]
    mine = evaluate(cards, kings)
    field = beaten = 0
    for other in itertools.combinations(pool, 4):
        info = evaluate(list(other), kings)
        if lance in ("paires", "jeu") and info[idx] == 0:
            continue
        if lance == "point" and info[LANCE_INDEX["jeu"]] > 0:
            continue
        field += 1
        beaten += info[idx] < mine[idx]
    return beaten / field


@pytest.mark.parametrize(
    ("cards", "kings"),
    [
        (["12o", "12c", "1o", "5b"], 4),
        (["3o", "3c", "2o", "7b"], 8),
        (["10o", "11c", "12e", "1b"], 4),
        (["4o", "5c", "6e", "7b"], 8),
    ],
)
def test_the_share_of_hands_beaten_is_the_brute_force_count(cards, kings):
    pool = [c for c in CARD_CODES if c not in cards]
    for lance in hints.LANCES:
        exact = hints.beats(cards, pool, kings, lance)
        idx = LANCE_INDEX[lance]
        plays = not (lance in ("paires", "jeu") and evaluate(cards, kings)[idx] == 0) and not (
            lance == "point" and evaluate(cards, kings)[LANCE_INDEX["jeu"]] > 0
        )
        if not plays:
            assert exact is None
            continue
        assert exact == pytest.approx(brute_beats(cards, pool, kings, lance), abs=1e-12)


def brute_none_holds(pool, kings, lance):
    idx = LANCE_INDEX[lance]
    total = none = 0
    for first in itertools.combinations(pool, 4):
        rest = [c for c in pool if c not in first]
        for second in itertools.combinations(rest, 4):
            total += 1
            none += (
                evaluate(list(first), kings)[idx] == 0 and evaluate(list(second), kings)[idx] == 0
            )
    return none / total


@pytest.mark.parametrize("kings", [4, 8])
@pytest.mark.parametrize("lance", ["paires", "jeu"])
def test_the_chance_no_opponent_holds_is_the_brute_force_count(kings, lance):
    for start in (0, 9, 17):
        pool = list(CARD_CODES[start : start + 13])  # small pools: every deal enumerated
        exact = hints.none_holds(pool, kings, lance)
        assert exact == pytest.approx(brute_none_holds(pool, kings, lance), abs=1e-12)
