"""What the expert robot reads of the other team in the partie so far (docs/robots.md,
« Reading the other team »): a team that holds every bet gets no bluff, a team that throws
órdagos at random gets no bluff and meets the robot's own órdago with a strong hand; one
refusal, or órdagos at a sound player's rate, and the solved tables play again."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CARD_CODES, observation, robot_action
from games.engine.robot import RECKLESS_ORDAGO, SAFE_BET, VALUE_BETS, VALUE_ORDAGO
from games.engine.robot_abstraction import lance_percentiles, node_of, strength
from games.engine.robot_reading import (
    holds_everything,
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
    sound = [*RECKLESS, _past(), _past(), _past()]  # 3 órdagos in 6 hands: a sound rate
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
    grand = lance_percentiles(4)[hand_key(cards)][0] ** 2  # beats both of theirs
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
