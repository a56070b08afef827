"""The computer players (docs/robots.md): every level legal, deterministic, blind to what it
may not see, sensible; the abstraction and the solver behind them; the fast showdown and the
evaluator tables; the ``robots`` match command."""

from __future__ import annotations

import json
import re
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    CARD_CODES,
    apply,
    new_partie,
    observation,
    robot_action,
    to_act,
)
from games.engine.cards import RANKS, card_points, effective_rank
from games.engine.hands import (
    GRAND,
    JEU,
    JEU_VALUE,
    PAIRES,
    PAIRES_VALUE,
    PETIT,
    POINT,
    TABLES,
    hand_key,
)
from games.engine.random_play import DEFAULT_WEIGHTS, pick_action, shuffled_deck
from games.engine.robot import LEVELS, beginner_discard, strategy
from games.engine.robot_abstraction import (
    TERMINALS,
    TREE,
    context,
    context_scores,
    lance_percentiles,
    node_of,
)
from games.engine.robot_strategy import BUCKETS, STRATEGY
from games.engine.robot_v1 import best_discard, equity, kept_values, percentiles
from games.engine.robots_match import POLICIES, play_party, run_match, uniform_action, wilson
from games.engine.robots_match import main as robots_main
from games.engine.scoring import count, decide, infos, showdown_paso
from games.engine.shuffle import SeededShuffler
from games.engine.solve import Game, coarse, sample_matrices
from games.engine.types import team_of

from .helpers import pass_all, play, start

SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- evaluator tables


def _reference(ranks: tuple[int, ...], kings: int) -> dict[int, tuple]:
    """An independent evaluator: comparable keys per lance, straight from docs/rules.md."""
    eff = [RANKS.index(effective_rank(r, kings)) for r in ranks]
    counts = {o: eff.count(o) for o in set(eff)}
    triples = [o for o, n in counts.items() if n == 3]
    pairs = sorted((o for o, n in counts.items() if n == 2), reverse=True)
    quads = [o for o, n in counts.items() if n == 4]
    if quads:
        paires: tuple = (3, quads[0], quads[0])
    elif len(pairs) == 2:
        paires = (3, pairs[0], pairs[1])
    elif triples:
        paires = (2, triples[0])
    elif pairs:
        paires = (1, pairs[0])
    else:
        paires = (0,)
    total = sum(card_points(r, kings) for r in ranks)
    jeu_order = [33, 34, 35, 36, 37, 40, 32, 31]  # weakest first
    return {
        GRAND: tuple(sorted(eff, reverse=True)),
        PETIT: tuple(-o for o in sorted(eff)),
        PAIRES: paires,
        JEU: (jeu_order.index(total) + 1,) if total >= 31 else (0,),
        POINT: (total,),
        PAIRES_VALUE: (paires[0],),
        JEU_VALUE: (3 if total == 31 else 2 if total > 31 else 0,),
    }


@pytest.mark.parametrize("kings", [4, 8])
@pytest.mark.parametrize("idx", [GRAND, PETIT, PAIRES, JEU, POINT])
def test_table_strengths_order_all_715_multisets_as_the_reference_does(kings, idx):
    rows = []
    for ranks in combinations_with_replacement(RANKS, 4):
        cards = [f"{r}{'oceb'[i]}" for i, r in enumerate(ranks)]  # suits never matter
        rows.append((_reference(ranks, kings)[idx], TABLES[kings][hand_key(cards)][idx]))
    assert len(rows) == 715
    rows.sort()
    for (ref_a, a), (ref_b, b) in zip(rows, rows[1:], strict=False):
        assert (a < b) if ref_a < ref_b else (a == b), (ref_a, ref_b, a, b)
    if idx in (PAIRES, JEU):  # no Paires / no Jeu is strength 0, below every holder
        assert all((ref[0] == 0) == (strength == 0) for ref, strength in rows)


@pytest.mark.parametrize("kings", [4, 8])
def test_table_values_match_the_reference_on_all_715_multisets(kings):
    for ranks in combinations_with_replacement(RANKS, 4):
        cards = [f"{r}{'oceb'[i]}" for i, r in enumerate(ranks)]
        entry = TABLES[kings][hand_key(cards)]
        ref = _reference(ranks, kings)
        assert entry[PAIRES_VALUE] == ref[PAIRES_VALUE][0]
        assert entry[JEU_VALUE] == ref[JEU_VALUE][0]
        assert entry[POINT] == ref[POINT][0]


def _showdown_with_records(hands, kings, mano, scores):
    """The count the state machine makes at a showdown, every lance en paso (the reference)."""
    info = infos(hands, kings)
    everyone = [(mano + i) % 4 for i in range(4)]

    def record(lance, eligible):
        teams = {team_of(s) for s in eligible}
        return {
            "lance": lance,
            "outcome": "unopposed" if lance in ("paires", "jeu") and len(teams) == 1 else "paso",
            "stake": None,
            "winner_team": None,
            "winner_seat": None,
            "deje": 0,
            "points": 0,
            "eligible": eligible,
            "bettor_team": None,
        }

    records = [record("grand", everyone), record("petit", everyone)]
    holders = [s for s in everyone if info[s][PAIRES]]
    if holders:
        records.append(record("paires", holders))
    holders = [s for s in everyone if info[s][JEU]]
    records.append(record("jeu", holders) if holders else record("point", everyone))
    for rec in records:
        decide(rec, info, mano)
    return count(records, info, scores)


@SLOW
@given(seed=st.integers(0, 2**32), start_scores=st.tuples(st.integers(0, 39), st.integers(0, 39)))
def test_fast_showdown_counts_as_the_records_do(seed, start_scores):
    rng = SeededShuffler(seed)
    for _ in range(50):
        deck = shuffled_deck(rng)
        hands = [deck[s * 4 : s * 4 + 4] for s in range(4)]
        kings, mano = (4, 8)[rng.randbelow(2)], rng.randbelow(4)
        fast, slow = list(start_scores), list(start_scores)
        assert showdown_paso(hands, kings, mano, fast) == _showdown_with_records(
            hands, kings, mano, slow
        )
        assert fast == slow


# --------------------------------------------------------------------------- legality


def _mixed_partie(seed: int, robots: list[bool], kings: int, level: str = "expert"):
    """A partie where ``robots[seat]`` seats play the robot of ``level`` and the others at
    random; yields (state, seat, action) for every robot decision before it is applied."""
    rng = SeededShuffler(seed)
    state = new_partie(kings=kings, first_mano=rng.randbelow(4), shuffler=rng)
    weights = dict(DEFAULT_WEIGHTS, mus=80)  # many discard rounds
    for _ in range(20_000):
        if state["status"] == "finished":
            return
        seats = to_act(state)
        seat = seats[rng.randbelow(len(seats))]  # any order, the simultaneous discard included
        if robots[seat]:
            action = robot_action(observation(state, seat), level)
            yield state, seat, action
        else:
            action = pick_action(state, seat, rng, weights)
        state = apply(state, seat, action, shuffler=rng)
    raise AssertionError("the partie did not end")


@settings(SLOW, max_examples=25)
@given(
    seed=st.integers(0, 2**32),
    robots=st.lists(st.booleans(), min_size=4, max_size=4),
    kings=st.sampled_from([4, 8]),
    level=st.sampled_from(LEVELS),
)
def test_the_robot_never_makes_an_illegal_move(seed, robots, kings, level):
    """Every robot decision of every level, in parties mixing robots and random players, is
    accepted (an IllegalAction from ``apply`` inside the partie fails the test)."""
    for state, seat, action in _mixed_partie(seed, robots, kings, level):
        assert seat in to_act(state)
        apply(state, seat, action, shuffler=SeededShuffler(seed + 1))


def _hide_differently(state, seat: int, seed: int):
    """The same state with every card ``seat`` cannot see dealt otherwise: the other seats'
    hands, the pioche, the thrown cards, the pending discards, every deck and reshuffle."""
    rng = SeededShuffler(seed)
    hand = state["hand"]
    others = [s for s in range(4) if s != seat]
    hidden = [c for s in others for c in hand["cards"][s]] + hand["pioche"] + hand["old_discards"]
    rng.shuffle(hidden)
    new = {**state, "hand": {**hand}}
    cards = [list(c) for c in hand["cards"]]
    for s in others:
        cards[s], hidden = hidden[:4], hidden[4:]
    new["hand"]["cards"] = cards
    new["hand"]["pioche"] = hidden[: len(hand["pioche"])]
    new["hand"]["old_discards"] = hidden[len(hand["pioche"]) :]
    new["hand"]["pending"] = [
        p if p is None or s == seat else cards[s][: len(p)] for s, p in enumerate(hand["pending"])
    ]
    new["decks"] = [shuffled_deck(rng) for _ in state["decks"]]
    new["reshuffles"] = [sorted(r) for r in state["reshuffles"]]
    return new


@settings(SLOW, max_examples=20)
@given(
    seed=st.integers(0, 2**32),
    kings=st.sampled_from([4, 8]),
    other=st.integers(0, 2**32),
    level=st.sampled_from(LEVELS),
)
def test_the_decision_depends_on_the_observation_only(seed, kings, other, level):
    checked = 0
    for state, seat, action in _mixed_partie(seed, [True, False, True, False], kings, level):
        if state["hand"]["closed"] or checked >= 12:
            continue
        changed = _hide_differently(state, seat, other)
        assert changed["hand"]["cards"] != state["hand"]["cards"]
        assert observation(changed, seat) == observation(state, seat)
        assert robot_action(observation(changed, seat), level) == action
        checked += 1


@settings(SLOW, max_examples=15)
@given(seed=st.integers(0, 2**32), kings=st.sampled_from([4, 8]), level=st.sampled_from(LEVELS))
def test_the_decision_is_deterministic(seed, kings, level):
    """The same observation, even rebuilt from its JSON, gets the same decision: the mixed
    strategies are sampled from the observation's hash, never from a random source."""
    for state, seat, action in _mixed_partie(seed, [True, True, False, False], kings, level):
        obs = json.loads(json.dumps(observation(state, seat)))
        assert robot_action(obs, level) == action


# --------------------------------------------------------------------------- every phase

HANDS = {
    0: ["12o", "11o", "10o", "1o"],  # 31, no Paires, a good Grand
    1: ["12c", "11c", "10c", "2c"],  # 32
    2: ["4o", "5o", "6o", "7o"],  # 22
    3: ["1c", "4c", "5c", "6c"],  # 16, the best Petit
}


def _legal_for(state, seat):
    action = robot_action(observation(state, seat))
    apply(state, seat, action, shuffler=SeededShuffler(0))  # IllegalAction if it is not legal
    return action


def test_every_phase_gets_a_legal_decision():
    state = start(HANDS, mano=0)
    assert _legal_for(state, 0)["type"] in ("mus", "cut")
    discard = play(state, (0, "mus"), (1, "mus"), (2, "mus"), (3, "mus"))
    for seat in range(4):
        action = _legal_for(discard, seat)
        assert action["type"] == "discard" and set(action["cards"]) <= set(HANDS[seat])
    grand = play(state, (0, "cut"))
    assert grand["hand"]["lance"] == "grand"
    _legal_for(grand, 0)
    bet = play(grand, (0, "bet 2"))
    answer = _legal_for(bet, 1)
    assert answer["type"] in ("refuse", "hold", "raise", "ordago")
    raised = play(bet, (1, "raise 5"), (3, "refuse"))
    _legal_for(raised, 0)
    ordago = play(grand, (0, "ordago"))
    assert _legal_for(ordago, 3)["type"] in ("refuse", "hold")
    petit = pass_all(grand, [0, 1, 2, 3])
    assert petit["hand"]["lance"] == "petit"
    _legal_for(petit, 0)
    jeu = pass_all(petit, [0, 1, 2, 3])  # nobody has Paires: the Jeu of seats 0 and 1
    assert jeu["hand"]["lance"] == "jeu"
    _legal_for(jeu, 0)
    over = play(jeu, (0, "pass"), (1, "pass"))
    assert _legal_for(over, 2) == {"type": "deal"}


def test_point_and_paires_get_a_legal_decision():
    hands = {
        0: ["5o", "5c", "4o", "1o"],  # a pair, 15
        1: ["6o", "6c", "7o", "1c"],  # a pair, 20
        2: ["2o", "3o", "4c", "7c"],  # 16
        3: ["2c", "3c", "4e", "7e"],  # 16
    }
    state = pass_all(play(start(hands, mano=0), (0, "cut")), [0, 1, 2, 3, 0, 1, 2, 3])
    assert state["hand"]["lance"] == "paires"
    _legal_for(state, 0)
    point = play(state, (0, "pass"), (1, "pass"))
    assert point["hand"]["lance"] == "point"
    _legal_for(point, 0)


# --------------------------------------------------------------------------- sensible decisions


def test_with_31_facing_a_bet_at_jeu_it_raises_or_throws_an_ordago():
    state = pass_all(play(start(HANDS, mano=0), (0, "cut")), [0, 1, 2, 3, 0, 1, 2, 3])
    assert state["hand"]["lance"] == "jeu" and state["hand"]["betting"]["eligible"] == [0, 1]
    bet = play(state, (0, "pass"), (1, "bet 2"))
    assert robot_action(observation(bet, 0))["type"] in ("raise", "ordago")


def _worst_grand_faces_an_ordago(scores):
    hands = {
        0: ["12o", "12c", "12e", "11o"],
        1: ["1o", "4c", "5c", "6c"],  # the worst Grand there is
        2: ["7o", "7c", "5o", "4o"],
        3: ["1c", "2c", "4o", "6o"][:2] + ["4e", "5e"],
    }
    state = play(start(hands, mano=0), (0, "cut"), (0, "ordago"))
    state["scores"] = list(scores)
    return robot_action(observation(state, 1))


def test_a_terrible_hand_refuses_an_ordago():
    assert _worst_grand_faces_an_ordago([0, 0]) == {"type": "refuse"}
    assert _worst_grand_faces_an_ordago([12, 20]) == {"type": "refuse"}


def test_a_terrible_hand_holds_an_ordago_when_a_refusal_loses_the_partie_anyway():
    assert _worst_grand_faces_an_ordago([39, 10]) == {"type": "hold"}


def test_cuts_with_a_strong_hand_and_asks_mus_with_a_bad_one():
    strong = start({0: ["12o", "12c", "12e", "1o"]}, mano=0)  # medias of kings, 31
    weak = start({0: ["4o", "5c", "6e", "7b"]}, mano=0)
    assert robot_action(observation(strong, 0)) == {"type": "cut"}
    assert robot_action(observation(weak, 0)) == {"type": "mus"}


def test_discards_to_keep_the_kings():
    template = {"type": "discard", "min": 1, "max": 4}
    assert best_discard(["12o", "12c", "12e", "4b"], 4, template) == ["4b"]
    assert set(best_discard(["12o", "12c", "5e", "4b"], 4, template)) == {"4b", "5e"}


def test_a_refusal_that_hands_over_the_partie_is_never_made():
    """At 39 for the bettors any refusal (a deje of at least 1) ends the partie: the robot holds
    whatever its hand, at every level."""
    hands = {
        0: ["12o", "12c", "12e", "11o"],
        1: ["1o", "4c", "5c", "6c"],
        2: ["7o", "7c", "5o", "4o"],
        3: ["1c", "2c", "4e", "5e"],
    }
    state = play(start(hands, mano=0), (0, "cut"), (0, "bet 2"))
    state["scores"] = [39, 0]
    for level in LEVELS:
        assert robot_action(observation(state, 1), level) == {"type": "hold"}


def test_a_beginner_overvalues_a_small_pair():
    """A low pair and nothing else: the expert asks for mus and would throw the pair; the
    beginner cuts with it, and at the discard keeps it."""
    hand = ["4o", "4c", "6e", "7b"]
    state = start({0: hand}, mano=0)
    assert robot_action(observation(state, 0), "expert") == {"type": "mus"}
    assert robot_action(observation(state, 0), "debutant") == {"type": "cut"}
    template = {"type": "discard", "min": 1, "max": 4}
    assert sorted(beginner_discard(hand, 4, template)) == ["6e", "7b"]
    assert beginner_discard(["12o", "12c", "1e", "1b"], 4, template) == best_discard(
        ["12o", "12c", "1e", "1b"], 4, template
    )  # nothing to throw by the beginner's rule: the expert's choice


# --------------------------------------------------------------------------- the abstraction


def test_the_abstract_tree_pays_the_rules_dejes():
    """Every history ends in a terminal, and the refusals pay the deje of the rules: the stake
    held before the last bet or raise, at least 1."""
    for history, (_player, actions) in TREE.items():
        for act in actions:
            assert history + act in TREE or history + act in TERMINALS
    assert TERMINALS["pp"] == ("paso", 0, -1)
    assert TERMINALS["b2f"] == ("refused", 1, 0)  # bet 2, refused: 1
    assert TERMINALS["b2rf"] == ("refused", 2, 1)  # bet 2, raise to 5, refused: 2
    assert TERMINALS["pb5rof"] == ("refused", 8, 1)  # órdago over a held 8, refused: 8
    assert TERMINALS["of"] == ("refused", 1, 0)
    assert TERMINALS["pb10rc"] == ("held", 13, -1)
    assert TERMINALS["b2oc"] == ("ordago", 0, -1)


def test_the_words_of_a_lance_map_to_the_nearest_node():
    grand = play(start(HANDS, mano=0), (0, "cut"))
    assert node_of(observation(grand, 0), 0) == ""
    after_pass = play(grand, (0, "pass"))
    assert node_of(observation(after_pass, 1), 1) == "p"
    assert node_of(observation(play(after_pass, (1, "pass")), 2), 2) == "p"
    assert node_of(observation(play(grand, (0, "bet 2")), 1), 1) == "b2"
    bet6 = play(after_pass, (1, "bet 6"))
    assert node_of(observation(bet6, 2), 2) == "pb5"
    raised = play(bet6, (2, "raise 9"), (0, "refuse"))
    assert node_of(observation(raised, 1), 1) == "pb5r"
    assert node_of(observation(play(grand, (0, "bet 12")), 1), 1) == "b10"
    assert node_of(observation(play(grand, (0, "ordago")), 1), 1) == "o"


def test_a_stake_of_twenty_or_one_that_ends_the_partie_is_answered_as_an_ordago():
    grand = play(start(HANDS, mano=0), (0, "cut"))
    assert node_of(observation(play(grand, (0, "bet 19")), 1), 1) == "b10"
    assert node_of(observation(play(grand, (0, "bet 20")), 1), 1) == "o"
    raised = play(grand, (0, "bet 2"), (1, "raise 30"))
    assert node_of(observation(raised, 2), 2) == "b2o"
    late = play(grand, (0, "bet 6"))
    late["scores"] = [10, 34]  # held, the 6 bring the other team to 40
    assert node_of(observation(late, 1), 1) == "o"
    late["scores"] = [10, 33]
    assert node_of(observation(late, 1), 1) == "b5"


def test_an_unplanned_ordago_is_believed_to_come_from_a_strong_hand():
    """The solver's órdago slip grows with the bucket's strength (docs/robots.md)."""
    counts, wins, bonus = sample_matrices(deals=2000, seed=5)["grand"]
    prior, win = coarse(counts, wins, 8)
    slip = Game("grand", (0, 0), prior, win, bonus).slip
    assert slip == sorted(slip) and slip[-1] > 50 * slip[0] and max(slip) <= 0.05


def test_score_contexts_read_the_lead_and_the_stage():
    assert len(context_scores()) == 20
    assert context(0, 0) == context(10, 12) == 2  # early, level
    assert context(10, 15) == 1  # early, a little behind
    assert context(36, 20) == 19  # late, far ahead
    assert context(20, 36) == 15  # late, far behind
    for ctx, (ours, theirs) in enumerate(context_scores()):
        assert context(ours, theirs) == ctx


def test_lance_percentiles_rank_the_hands_that_play_the_lance():
    for kings in (4, 8):
        pct = lance_percentiles(kings)
        assert all(0.0 <= q <= 1.0 for row in pct.values() for q in row)
        assert pct[hand_key(["12o", "12c", "12e", "12b"])][2] > 0.99  # the best Paires
        assert pct[hand_key(["12o", "11c", "10e", "1b"])][3] == max(row[3] for row in pct.values())
        assert pct[hand_key(["7o", "7c", "6e", "10b"])][4] > 0.95  # 30 at Point


def test_the_solved_tables_cover_every_node_with_a_distribution():
    for level, buckets in BUCKETS.items():
        contexts = 20 if level == "expert" else 1
        for lance in ("grand", "petit", "paires", "jeu", "point"):
            for ctx in range(contexts):
                for node, (_player, actions) in TREE.items():
                    assert f"{level}/{lance}/{ctx}/{node}" in STRATEGY
                    rows = strategy(level, lance, ctx, node)
                    assert len(rows) == buckets
                    for row in rows:
                        assert len(row) == len(actions) and sum(row) == pytest.approx(1.0)
    assert len(STRATEGY) == (20 + 1) * 5 * len(TREE)


def test_cfr_plus_converges_on_a_small_game():
    """The solver's average strategy gets less exploitable with iterations, toward 0."""
    counts, wins, bonus = sample_matrices(deals=3000, seed=5)["grand"]
    prior, win = coarse(counts, wins, 4)
    few, many = (
        Game("grand", (10, 10), prior, win, bonus),
        Game("grand", (10, 10), prior, win, bonus),
    )
    few.solve(3)
    many.solve(150)
    assert many.exploitability() < few.exploitability()
    assert many.exploitability() < 0.005


def test_model_tables_are_sane():
    for kings in (4, 8):
        pct = percentiles(kings)
        best = hand_key(["12o", "12c", "12e", "12b"])
        worst = hand_key(["1o", "1c", "1e", "1b"])
        assert pct[best][0] > 0.99 and pct[worst][1] > 0.99  # Grand, Petit
        assert min(kept_values(kings).values()) > 0
    assert equity(40, 39) == 1.0 and equity(39, 40) == 0.0
    assert equity(30, 10) > equity(10, 10) > equity(10, 30)
    # near 40 a point means more: from 37-37 one point moves the chance more than from 0-0
    assert equity(38, 37) - equity(37, 37) > equity(1, 0) - equity(0, 0)


# --------------------------------------------------------------------------- the command


def test_uniform_action_is_legal_and_covers_every_template():
    rng = SeededShuffler(5)
    state = start(HANDS, mano=0)
    seen = {uniform_action(state, 0, rng)["type"] for _ in range(40)}
    assert seen == {"mus", "cut"}
    grand = play(state, (0, "cut"))
    amounts = set()
    for _ in range(300):
        action = uniform_action(grand, 0, rng)
        apply(grand, 0, action)
        if action["type"] == "bet":
            amounts.add(action["amount"])
    assert min(amounts) == 2 and max(amounts) == 40


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


LAST_LINE = re.compile(
    r"parties=(\d+) team0_wins=(\d+) win_rate=(\d\.\d{3}) ci95=(\d\.\d{3})\.\.(\d\.\d{3})"
    r" decision_ms_p50=(\d+\.\d\d) decision_ms_p95=(\d+\.\d\d)"
    r" ordagos_per_hand=(\d+\.\d{3}) bets_per_hand=(\d+\.\d{3}) holds_per_answer=(\d\.\d{3})"
)


def test_the_command_prints_the_measured_line_last(capsys):
    argv = ["--parties", "3", "--seed", "4", "--team0", "robot", "--team1", "passive"]
    assert robots_main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    match = LAST_LINE.fullmatch(lines[-1])
    assert match, lines[-1]
    parties, wins = int(match[1]), int(match[2])
    assert parties == 3 and 0 <= wins <= 3
    assert float(match[3]) == pytest.approx(wins / parties, abs=0.001)
    assert float(match[4]) <= float(match[3]) <= float(match[5])


def test_the_command_plays_every_policy_and_prints_the_style(capsys):
    assert set(POLICIES) == {
        "robot",
        "robot-confirme",
        "robot-debutant",
        "robot-v1",
        "sensible",
        "random",
        "passive",
        "ordago-always",
        "hold-all",
        "refuse-all",
    }
    for policy in POLICIES:
        line = run_match(1, 3, policy, "robot", out=lambda _: None)
        assert LAST_LINE.fullmatch(line), line
    run_match(2, 3, "ordago-always", "robot")
    out = capsys.readouterr().out
    assert "style of ordago-always (team 0), per hand" in out
    assert "thrower's percentile" in out
    assert float(out.strip().splitlines()[-1].split("ordagos_per_hand=")[1].split()[0]) > 0.5


def test_the_match_is_deterministic_given_the_seed():
    def strip(line):
        return line.split(" decision_ms_p50")[0]

    lines = [run_match(2, 9, "random", "passive", out=lambda _: None) for _ in range(2)]
    assert strip(lines[0]) == strip(lines[1])
    first, _ = play_party(("robot", "random"), 11, 1, 4, set())
    again, _ = play_party(("robot", "random"), 11, 1, 4, set())
    assert first == again and first["status"] == "finished" and first["first_mano"] == 1


def test_every_card_code_once_in_a_discard_choice():
    template = {"type": "discard", "min": 1, "max": 4}
    for i in range(0, 40, 4):
        cards = list(CARD_CODES[i : i + 4])
        thrown = best_discard(cards, 8, template)
        assert 1 <= len(thrown) <= 4 and len(set(thrown)) == len(thrown)
        assert set(thrown) <= set(cards)
