"""The Expert's four-seat envite (docs/robots.md, « The Expert's envite »): the openers in turn
from the mano, the rules' dejes, the words mapped to its nodes, the buckets, the solved tables,
and the solver, which on a lance of two seats is the two-seat game and converges there."""

from __future__ import annotations

import pytest

from games.engine import observation
from games.engine.envite_seats import (
    BUCKETS,
    OPENING,
    is_opening,
    pattern_of,
    patterns,
    seat_bucket,
    seat_node,
    tree,
)
from games.engine.robot import seat_strategy
from games.engine.robot_abstraction import LANCES
from games.engine.robot_strategy_seats import STRATEGY
from games.engine.solve import Game as TwoSeatGame
from games.engine.solve_seats import Game, sample

from .helpers import play, start

SEATS = {
    0: ["12o", "12c", "1e", "4b"],
    1: ["11o", "10c", "7e", "6b"],
    2: ["5o", "5c", "3e", "2b"],
    3: ["1o", "1c", "7b", "10e"],
}


def test_each_seat_that_plays_opens_in_turn_and_the_dejes_are_the_rules():
    nodes, terminals = tree("XYXY")
    assert [nodes["p" * k] for k in range(4)] == [(str(k), OPENING) for k in range(4)]
    assert terminals["pppp"] == ("paso", 0, None)
    assert nodes["ppb2"] == ("Y", ("f", "c", "r", "o"))  # the third seat is the first's partner
    assert terminals["ppb2f"] == ("refused", 1, "X")
    assert terminals["pb5rof"] == ("refused", 8, "Y")  # órdago over a held 8, refused: 8
    assert terminals["pppb10rc"] == ("held", 13, None)
    assert nodes["ppo"] == ("Y", ("f", "c")) and terminals["ppoc"] == ("ordago", 0, None)
    nodes, terminals = tree("XXY")  # a Jeu of the mano, its partner and one other seat
    assert nodes["pp"] == ("2", OPENING) and nodes["pb2"] == ("Y", ("f", "c", "r", "o"))
    assert terminals["ppp"] == ("paso", 0, None)
    assert set(patterns("grand")) == {"XYXY"} and "XY" in patterns("jeu")


def test_a_pattern_names_the_teams_of_the_seats_that_play_from_the_mano():
    assert pattern_of([0, 1, 2, 3]) == pattern_of([3, 0, 1, 2]) == "XYXY"
    assert pattern_of([1, 2, 3]) == "XYX"
    assert pattern_of([0, 2, 3]) == "XXY"
    assert pattern_of([2, 3]) == pattern_of([3, 0]) == "XY"


def test_every_pass_is_a_node_and_bets_map_to_the_nearest_size():
    grand = play(start(SEATS, mano=0), (0, "cut"))
    assert seat_node(observation(grand, 0)) == ("XYXY", "")
    passed = play(grand, (0, "pass"), (1, "pass"))
    assert seat_node(observation(passed, 2)) == ("XYXY", "pp")
    bet6 = play(passed, (2, "bet 6"))
    assert seat_node(observation(bet6, 3)) == ("XYXY", "ppb5")
    raised = play(bet6, (3, "raise 9"), (1, "refuse"))
    assert seat_node(observation(raised, 0)) == ("XYXY", "ppb5r")
    assert seat_node(observation(play(grand, (0, "bet 20")), 1)) == ("XYXY", "o")
    assert seat_node(observation(play(passed, (2, "ordago")), 1)) == ("XYXY", "ppo")
    assert is_opening("ppp") and is_opening("") and not is_opening("pb2")


def test_a_team_of_two_has_in_its_best_bucket_the_two_seat_tables_team_bucket():
    """The edges are the square roots of the two-seat team buckets (percentile squared, in
    eighths): the better seat's bucket of two is the team's bucket there."""
    for step in range(1, 1000):
        q = step / 1000
        assert seat_bucket(q) == min(BUCKETS - 1, int(q * q * BUCKETS))


def test_the_seat_tables_cover_every_node_with_a_distribution():
    count = 0
    for lance in LANCES:
        for pattern in patterns(lance):
            nodes, _ = tree(pattern)
            for ctx in range(20):
                for node, (_actor, actions) in nodes.items():
                    rows = seat_strategy(lance, pattern, ctx, node)
                    count += 1
                    assert len(rows) == BUCKETS
                    for row in rows:
                        assert len(row) == len(actions) and sum(row) == pytest.approx(1.0)
    assert count == len(STRATEGY)


def _as_two_seat(game: Game) -> TwoSeatGame:
    n = game.n
    prior = [[float(game.prior[i + n * j]) for j in range(n)] for i in range(n)]
    win = [[float(game.win[i + n * j]) for j in range(n)] for i in range(n)]
    return TwoSeatGame("grand", (0, 0), prior, win, 0.0)


def test_on_a_lance_of_two_seats_the_solver_converges_to_the_two_seat_equilibrium():
    """With one seat a team, the four-seat game is the two-seat one: the strategy it solves
    is nearly unexploitable there, and less so with more iterations."""
    counts, wins, bonus = sample(deals=4000, seed=3)[("paires", "XY")]
    exploitability = []
    for iterations in (3, 150):
        game = Game("grand", "XY", (0, 0), counts, wins, bonus)
        game.solve(iterations)
        two = _as_two_seat(game)
        for node in two.sums:
            two.sums[node] = [list(column) for column in zip(*game.average(node), strict=True)]
        exploitability.append(two.exploitability())
    assert exploitability[1] < exploitability[0] and exploitability[1] < 0.01


def test_the_sampled_chance_is_the_same_for_the_same_seed():
    first, second = sample(deals=500, seed=9), sample(deals=500, seed=9)
    for key, (counts, wins, bonus) in first.items():
        assert (counts == second[key][0]).all() and (wins == second[key][1]).all()
        assert bonus == second[key][2]
    assert sum(int(c.sum()) for (lance, _), (c, _, _) in first.items() if lance == "grand") == 500
