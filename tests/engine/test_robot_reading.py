"""What the expert robot reads of the other team in the partie so far (docs/robots.md,
« Reading the other team »): a team that holds every bet gets no bluff, a team that throws
órdagos at random gets no bluff and meets the robot's own órdago with a strong hand; one
refusal, or órdagos at a sound player's rate, and the solved tables play again."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CARD_CODES, observation, robot_action
from games.engine.hands import LANCE_INDEX, evaluate
from games.engine.robot import (
    BLIND_MUS_ROUNDS,
    NO_BLUFF_BELOW,
    RECKLESS_ORDAGO,
    SAFE_BET,
    VALUE_BETS,
    VALUE_ORDAGO,
    showdown_chance,
)
from games.engine.robot_abstraction import node_of, strength
from games.engine.robot_reading import (
    FOLDS_AFTER,
    folds_to_bets,
    has_thrown_an_ordago,
    holds_everything,
    opened_oddly,
    reckless_chance,
    throws_ordagos,
    throws_wildly,
)
from games.engine.robot_v1 import hand_key
from games.engine.solve import partie_chance

from .helpers import play, start

SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=40)


def _lance(outcome: str, stake, winner_team=None) -> dict:
    return {
        "lance": "grand",
        "outcome": outcome,
        "stake": stake,
        "winner_team": winner_team,
        "winner_seat": None,
        "deje": 1 if outcome == "refused" else 0,
        "points": 0,
    }


def _past(*lances: dict) -> dict:
    return {"mano": 0, "lances": list(lances), "scores_after": [0, 0], "hands_shown": {}}


HELD_EVERYTHING = [_past(_lance("held", 2)), _past(_lance("held", 5), _lance("held", 2))]
RECKLESS = [
    _past(_lance("refused", "ordago", winner_team=1), _lance("refused", 30, winner_team=1)),
    _past(_lance("refused", "ordago", winner_team=1)),
]


def _at_grand(cards: list[str], history: list[dict]) -> dict:
    """Seat 0 (mano) to open the Grand, the partie's past hands being ``history``."""
    rest = [c for c in CARD_CODES if c not in cards]
    hands = {0: cards, 1: rest[0:4], 2: rest[4:8], 3: rest[8:12]}
    state = play(start(hands, mano=0), (0, "cut"))
    state["hands"] = [dict(h) for h in history]
    return state


hands_of_four = st.permutations(CARD_CODES).map(lambda deck: sorted(deck[:4]))


def test_a_team_that_held_every_bet_is_read_so_until_it_refuses_one():
    """A past hand's record does not say who held (the public record has no bettor): the
    refusals, which do say whose bet was refused, tell the teams apart."""
    state = _at_grand(["12o", "12c", "12e", "1o"], HELD_EVERYTHING)
    assert holds_everything(observation(state, 0), 0)
    refused = [*HELD_EVERYTHING, _past(_lance("refused", 2, winner_team=0))]
    assert not holds_everything(observation(_at_grand(["12o", "12c", "12e", "1o"], refused), 0), 0)
    assert not holds_everything(observation(_at_grand(["12o", "12c", "12e", "1o"], []), 0), 0)


def test_a_team_is_read_as_reckless_only_at_one_ordago_a_hand_or_more():
    state = _at_grand(["4o", "5c", "6e", "7b"], RECKLESS)
    assert throws_ordagos(observation(state, 0), 0)
    assert not throws_ordagos(observation(state, 1), 1)
    ordago = _lance("refused", "ordago", winner_team=1)
    sound = [_past(ordago, ordago), _past(ordago), _past(), _past(), _past()]  # 3 in 6 hands
    assert not throws_ordagos(observation(_at_grand(["4o", "5c", "6e", "7b"], sound), 0), 0)


@SLOW
@given(cards=hands_of_four)
def test_against_a_team_that_holds_everything_it_bets_for_value_only(cards):
    obs = observation(_at_grand(cards, HELD_EVERYTHING), 0)
    assert node_of(obs, 0) == ""
    mine = strength(obs, 0, hand_key(cards))
    action = robot_action(obs)
    if mine >= VALUE_ORDAGO:
        assert action == {"type": "ordago"}
    elif mine < min(low for low, _ in VALUE_BETS):
        assert action == {"type": "pass"}  # never a bluff
    else:
        expected = next(int(bet[1:]) for low, bet in VALUE_BETS if mine >= low)
        assert action == {"type": "bet", "amount": expected}


@SLOW
@given(cards=hands_of_four)
def test_against_a_team_that_throws_ordagos_at_random_it_never_bluffs(cards):
    obs = observation(_at_grand(cards, RECKLESS), 0)
    mine = strength(obs, 0, hand_key(cards))
    action = robot_action(obs)
    if mine >= RECKLESS_ORDAGO:
        assert action == {"type": "ordago"}
    elif mine >= SAFE_BET:
        assert action == {"type": "bet", "amount": 2}
    else:
        assert action == {"type": "pass"}


def _wild(team: int) -> list[dict]:
    """Six órdagos of ``team`` refused in two hands: with this hand's, two a hand."""
    return [_past(*[_lance("refused", "ordago", winner_team=team)] * 3)] * 2


WILD = _wild(1)


def _answering_an_ordago(cards: list[str], history: list[dict], scores=(0, 0)) -> dict:
    """Seat 1 to answer the órdago seat 0 (mano, the other team) threw at the Grand."""
    rest = [c for c in CARD_CODES if c not in cards]
    hands = {0: rest[0:4], 1: cards, 2: rest[4:8], 3: rest[8:12]}
    state = play(start(hands, mano=0), (0, "cut"), (0, "ordago"))
    state["hands"] = [dict(h) for h in history]
    state["scores"] = list(scores)
    return state


def test_a_team_is_read_as_wild_only_at_two_ordagos_a_hand_or_more():
    wild = observation(_at_grand(["4o", "5c", "6e", "7b"], WILD), 0)
    assert throws_ordagos(wild, 0) and throws_wildly(wild, 0)
    reckless = observation(_at_grand(["4o", "5c", "6e", "7b"], RECKLESS), 0)
    assert throws_ordagos(reckless, 0) and not throws_wildly(reckless, 0)
    assert not throws_wildly(observation(_at_grand(["4o", "5c", "6e", "7b"], WILD), 1), 1)


@given(ours=st.integers(0, 39), theirs=st.integers(0, 39))
def test_the_partie_against_a_wild_team_grows_with_our_points_and_is_better_level(ours, theirs):
    chance = reckless_chance(ours, theirs)
    assert 0 < chance < 1
    assert reckless_chance(ours + 1, theirs) > chance > reckless_chance(ours, theirs + 1)
    if ours <= theirs:  # its órdagos give points away, but any one held can end the partie
        assert chance > partie_chance(ours, theirs)
    assert reckless_chance(40, theirs) == 1 and reckless_chance(ours, 40) == 0


@SLOW
@given(cards=hands_of_four)
def test_a_wild_teams_ordago_is_held_only_when_the_showdown_beats_the_partie(cards):
    obs = observation(_answering_an_ordago(cards, _wild(0)), 1)
    assert throws_wildly(obs, 1)
    grand = showdown_chance(obs, 1, "grand")  # beats both of theirs
    action = robot_action(obs)
    assert action in ({"type": "hold"}, {"type": "refuse"})
    if action == {"type": "hold"}:
        assert grand >= reckless_chance(0, 1)
    if grand < 0.5:
        assert action == {"type": "refuse"}


@SLOW
@given(cards=hands_of_four)
def test_a_wild_teams_ordago_is_held_when_a_refusal_gives_it_the_partie(cards):
    obs = observation(_answering_an_ordago(cards, _wild(0), scores=(39, 0)), 1)
    assert robot_action(obs) == {"type": "hold"}


def test_four_kings_hold_a_wild_teams_ordago_at_the_grand_and_throw_their_own():
    kings = ["12o", "12c", "12e", "12b"]
    assert robot_action(observation(_answering_an_ordago(kings, _wild(0)), 1)) == {"type": "hold"}
    assert robot_action(observation(_at_grand(kings, WILD), 0)) == {"type": "ordago"}
    ahead = _at_grand(["4o", "5c", "6e", "7b"], WILD)
    assert robot_action(observation(ahead, 0))["type"] != "ordago"


def _bet_refused(stake: int, deje: int) -> dict:
    return {**_lance("refused", stake, winner_team=1), "deje": deje}


@pytest.mark.parametrize(
    ("stake", "deje", "odd"),
    [(11, 1, True), (19, 1, True), (10, 1, False), (5, 1, False), (15, 5, False)],
)
def test_an_opening_bet_of_eleven_or_more_refused_at_once_reads_as_a_reckless_team(
    stake, deje, odd
):
    """A refusal with a deje of 1 was refused as it opened; one with more refused a raise,
    which a sound player may make."""
    state = _at_grand(["4o", "5c", "6e", "7b"], [_past(_bet_refused(stake, deje))])
    assert opened_oddly(observation(state, 0), 0) is odd
    assert throws_ordagos(observation(state, 0), 0) is odd
    assert not opened_oddly(observation(state, 1), 1)  # their own bet says nothing of us


def _opened_at_grand(amount: int, scores=(0, 0)) -> dict:
    """Seat 1 (the other team for seat 0) opened the Grand with ``amount``; seat 2 to answer."""
    hands = {0: ["4o", "5c", "6e", "7b"]}
    state = play(start(hands, mano=0), (0, "cut"), (0, "pass"), (1, f"bet {amount}"))
    state["scores"] = list(scores)
    return state


def test_this_hands_opening_bet_reads_as_reckless_unless_it_decides_the_partie():
    assert opened_oddly(observation(_opened_at_grand(11), 0), 0)
    assert not opened_oddly(observation(_opened_at_grand(10), 0), 0)
    assert not opened_oddly(observation(_opened_at_grand(15, scores=(10, 25)), 0), 0)
    assert opened_oddly(observation(_opened_at_grand(15, scores=(10, 24)), 0), 0)


def test_against_a_reckless_team_the_expert_says_mus_with_any_hand():
    """Its draws are coins: a fresh deal keeps our good cards, not theirs."""
    kings = ["12o", "12c", "12e", "12b"]
    rest = [c for c in CARD_CODES if c not in kings]
    fresh = start({0: kings, 1: rest[0:4], 2: rest[4:8], 3: rest[8:12]}, mano=0)
    assert robot_action(observation(fresh, 0)) == {"type": "cut"}
    fresh["hands"] = [dict(h) for h in RECKLESS]
    assert robot_action(observation(fresh, 0)) == {"type": "mus"}
    assert robot_action(observation(fresh, 0), "confirme") == {"type": "cut"}
    # ... for a few rounds only: two such readers at one table would draw forever
    fresh["hand"]["discard_rounds"] = [[1, 1, 1, 1]] * BLIND_MUS_ROUNDS
    assert robot_action(observation(fresh, 0)) == {"type": "cut"}


QUIET = [_past(), _past(), _past()]
ONE_ORDAGO = [_past(_lance("refused", "ordago", winner_team=1)), _past(), _past()]


def test_one_ordago_of_the_other_team_is_read_and_is_not_yet_reckless():
    cards = ["4o", "5c", "6e", "7b"]
    obs = observation(_at_grand(cards, ONE_ORDAGO), 0)
    assert has_thrown_an_ordago(obs, 0)
    assert not throws_ordagos(obs, 0)  # one in three hands
    assert not has_thrown_an_ordago(observation(_at_grand(cards, ONE_ORDAGO), 1), 1)  # ours
    assert not has_thrown_an_ordago(observation(_at_grand(cards, QUIET), 0), 0)


def _last_to_open_the_grand(cards: list[str], history: list[dict]) -> dict:
    """Seat 3 to open the Grand after the three others passed, the partie's past hands being
    ``history``."""
    rest = [c for c in CARD_CODES if c not in cards]
    hands = {0: rest[0:4], 1: rest[4:8], 2: rest[8:12], 3: cards}
    state = play(start(hands, mano=0), (0, "cut"), (0, "pass"), (1, "pass"), (2, "pass"))
    state["hands"] = [dict(h) for h in history]
    return state


def test_a_bluff_of_the_tables_is_not_made_once_the_other_team_threw_an_ordago():
    """Such a team holds a small bluff or answers it with its órdago. The last seat to open
    after three passes bluffs with some weak hands (the tables' mix, drawn per observation)."""
    low = ["4o", "4c", "5e", "5b", "6o", "6c", "7e", "7b", "10o", "10c"]
    bluffs = []
    for weak in map(list, itertools.combinations(low, 4)):
        quiet = observation(_last_to_open_the_grand(weak, QUIET), 3)
        if strength(quiet, 3, hand_key(weak)) < NO_BLUFF_BELOW and robot_action(quiet) == {
            "type": "bet",
            "amount": 2,
        }:
            bluffs.append(weak)
    assert bluffs
    theirs = [_past(_lance("refused", "ordago", winner_team=0)), _past(), _past()]
    for weak in bluffs:
        after = observation(_last_to_open_the_grand(weak, theirs), 3)
        assert has_thrown_an_ordago(after, 3)
        assert robot_action(after) == {"type": "pass"}


@SLOW
@given(cards=hands_of_four)
def test_after_an_ordago_of_the_other_team_an_opening_bet_is_never_a_bluff(cards):
    obs = observation(_at_grand(cards, ONE_ORDAGO), 0)
    if robot_action(obs)["type"] == "bet":
        assert strength(obs, 0, hand_key(cards)) >= NO_BLUFF_BELOW


def brute_wins(cards, seat, mano, lance, kings, declared):
    """The showdown chance by enumeration: each opponent's hand over every four of the 36
    unseen cards (the two drawn apart, as the robot counts them), ties to the mano's side."""
    pool = [c for c in CARD_CODES if c not in cards]
    idx = LANCE_INDEX[lance]
    mine = evaluate(cards, kings)
    chance = 1.0
    for s in (seat + 1) % 4, (seat + 3) % 4:
        if declared is not None and not declared[s]:
            continue
        first = (seat - mano) % 4 < (s - mano) % 4
        won = field = 0
        for other in itertools.combinations(pool, 4):
            info = evaluate(list(other), kings)
            absent = (lance in ("paires", "jeu") and info[idx] == 0) or (
                lance == "point" and info[LANCE_INDEX["jeu"]] > 0
            )
            if absent and (declared is not None or lance == "point"):
                continue
            field += 1
            won += absent or info[idx] < mine[idx] or (info[idx] == mine[idx] and first)
        chance *= won / field
    return chance


@pytest.mark.parametrize(
    ("cards", "kings", "seat", "mano"),
    [
        (["12o", "12c", "1o", "5b"], 4, 0, 0),
        (["3o", "3c", "2o", "7b"], 8, 1, 0),
        (["10o", "11c", "12e", "1b"], 4, 3, 2),
        (["4o", "5c", "6e", "7b"], 8, 2, 3),
    ],
)
def test_the_showdown_chance_is_the_brute_force_count(cards, kings, seat, mano):
    rest = [c for c in CARD_CODES if c not in cards]
    hands = {
        seat: cards,
        **{s: rest[4 * i : 4 * i + 4] for i, s in enumerate(s for s in range(4) if s != seat)},
    }
    obs = observation(start(hands, kings=kings, mano=mano), seat)
    obs["mano"] = mano
    for lance in ("grand", "petit", "paires", "jeu", "point"):
        for declared in (None, [True, True, True, True], [True, False, False, True]):
            if lance in ("grand", "petit", "point") and declared is not None:
                continue
            obs["declarations"] = {"paires": declared, "jeu": declared}
            if lance == "point":
                obs["declarations"]["jeu"] = [False] * 4
            ours_plays = brute_plays(cards, kings, lance)
            expected = brute_wins(cards, seat, mano, lance, kings, declared) if ours_plays else 0
            assert showdown_chance(obs, seat, lance) == pytest.approx(expected, abs=1e-12)


def brute_plays(cards, kings, lance):
    info = evaluate(cards, kings)
    if lance in ("paires", "jeu"):
        return info[LANCE_INDEX[lance]] > 0
    return not (lance == "point" and info[LANCE_INDEX["jeu"]] > 0)


def test_a_team_that_refused_three_of_our_bets_and_threw_no_ordago_folds_to_bets():
    """The record of a refusal names the bettors (its winner): refusals of ours count, theirs
    that we refused do not, and one órdago of theirs ends the reading."""
    ours = _lance("refused", 2, winner_team=0)
    theirs = _lance("refused", 2, winner_team=1)
    cards = ["12o", "11c", "5e", "4b"]
    two = _at_grand(cards, [_past(ours, theirs), _past(ours, theirs)])
    assert FOLDS_AFTER == 3 and not folds_to_bets(observation(two, 0), 0)
    three = _at_grand(cards, [_past(ours, theirs), _past(ours, ours)])
    assert folds_to_bets(observation(three, 0), 0)
    assert not folds_to_bets(observation(three, 1), 1)  # seen from the other team
    ordago = _lance("refused", "ordago", winner_team=1)
    thrown = _at_grand(cards, [_past(ours, theirs), _past(ours, ours, ordago)])
    assert not folds_to_bets(observation(thrown, 0), 0)
