"""Fixed-deck scenarios: every betting path, the count, the first-hand rule, discards, 40."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply, hand_records, observation, to_act
from games.engine.shuffle import seeded_shuffler

from .helpers import WORKED, deck_for, pass_all, play, start, strings


def lances(state):
    return {r["lance"]: r for r in hand_records(state)[-1]["lances"]}


def cut(state, seat=0):
    return play(state, (seat, "cut"))


def test_worked_example_scores_six_five():
    st = start(WORKED, kings=8, mano=0)
    st = cut(st)
    st = pass_all(st, [0, 1, 2, 3])  # grand
    st = pass_all(st, [0, 1, 2, 3])  # petit
    assert st["hand"]["declarations"]["paires"] == [True, True, True, False]
    assert st["hand"]["betting"]["eligible"] == [0, 1, 2]
    st = pass_all(st, [0, 1, 2])  # paires; jeu unopposed (team 1)
    assert st["status"] == "hand_over"
    assert st["scores"] == [6, 5]
    rec = lances(st)
    assert (rec["grand"]["winner_seat"], rec["grand"]["points"]) == (0, 1)
    assert (rec["petit"]["winner_seat"], rec["petit"]["points"]) == (2, 1)
    assert (rec["paires"]["winner_seat"], rec["paires"]["points"]) == (2, 4)
    assert rec["jeu"]["outcome"] == "unopposed"
    assert (rec["jeu"]["winner_team"], rec["jeu"]["points"]) == (1, 5)
    assert "point" not in rec
    assert hand_records(st)[0]["hands_shown"]["1"] == WORKED[1]
    assert hand_records(st)[0]["scores_after"] == [6, 5]


@pytest.mark.parametrize(
    "moves,deje",
    [
        ([(0, "bet 2"), (1, "refuse"), (3, "refuse")], 1),
        ([(0, "bet 2"), (1, "raise 6"), (3, "refuse"), (0, "refuse"), (2, "refuse")], 2),
        (
            [(0, "bet 2"), (3, "raise 6"), (1, "refuse"), (2, "raise 10"), (0, "refuse")]
            + [(1, "refuse"), (3, "refuse")],
            6,
        ),
        ([(0, "bet 10"), (1, "ordago"), (0, "refuse"), (2, "refuse")], 10),
        ([(0, "ordago"), (1, "refuse"), (3, "refuse")], 1),
    ],
)
def test_deje_examples(moves, deje):
    st = cut(start(WORKED, kings=8))
    st = play(st, *moves)
    rec = lances(st)["grand"]
    assert rec["outcome"] == "refused"
    assert rec["deje"] == deje
    assert rec["winner_seat"] is None
    bettors = rec["winner_team"]
    assert st["scores"][bettors] == deje and st["scores"][1 - bettors] == 0
    # the hand goes on with Petit, even after a refused órdago
    assert st["hand"]["lance"] == "petit" and st["status"] == "playing"


def test_refused_bet_wins_whatever_the_cards():
    st = cut(start(WORKED, kings=8))
    st = play(st, (0, "pass"), (1, "bet 3"), (0, "refuse"), (2, "refuse"))
    st = pass_all(st, [0, 1, 2, 3])  # petit
    st = pass_all(st, [0, 1, 2])  # paires
    rec = lances(st)["grand"]
    assert (rec["winner_team"], rec["deje"], rec["points"]) == (1, 1, 0)
    # grand would have gone to seat 0 en paso: team 1 has 1 (deje) + 5 (jeu)
    assert st["scores"] == [5, 6]


def test_hold_waits_for_the_partner_then_counts_the_stake():
    st = cut(start(WORKED, kings=8))
    st = play(st, (0, "bet 2"), (1, "hold"))
    assert to_act(st) == [3]  # partner may still raise
    st = play(st, (3, "refuse"))
    assert lances(st)["grand"]["outcome"] == "held"
    st = pass_all(st, [0, 1, 2, 3])
    st = pass_all(st, [0, 1, 2])
    rec = lances(st)["grand"]
    assert (rec["stake"], rec["winner_seat"], rec["points"]) == (2, 0, 2)
    assert st["scores"] == [7, 5]


def test_both_voters_may_act_at_once_in_either_order():
    st = cut(start(WORKED, kings=8))
    st = play(st, (0, "bet 2"))
    assert to_act(st) == [1, 3]
    a = play(st, (3, "refuse"), (1, "hold"))
    assert lances(a)["grand"]["outcome"] == "held"


def test_raise_then_hold():
    st = cut(start(WORKED, kings=8))
    st = play(st, (0, "bet 2"), (1, "raise 5"), (3, "refuse"))
    assert st["hand"]["betting"]["stake"] == 5 and st["hand"]["betting"]["held"] == 2
    assert to_act(st) == [0, 2]
    st = play(st, (2, "hold"), (0, "refuse"))
    rec = lances(st)["grand"]
    assert (rec["outcome"], rec["stake"]) == ("held", 5)


def test_most_aggressive_vote_wins():
    st = cut(start(WORKED, kings=8))
    st = play(st, (0, "bet 2"), (1, "raise 4"), (3, "raise 9"))
    assert st["hand"]["betting"]["stake"] == 9
    assert st["hand"]["betting"]["bettor_team"] == 1
    words = st["hand"]["words"][-2:]
    assert words == [
        {"seat": 1, "type": "raise", "lance": "grand", "to": 4},
        {"seat": 3, "type": "raise", "lance": "grand", "to": 9},
    ]


def test_held_ordago_ends_the_partie_on_that_lance():
    st = cut(start(WORKED, kings=8))
    st = pass_all(st, [0, 1, 2, 3])  # grand en paso: never counted
    st = play(st, (0, "ordago"), (3, "hold"))  # final at once: seat 1 need not vote
    assert st["status"] == "finished"
    rec = lances(st)["petit"]
    assert (rec["outcome"], rec["stake"], rec["winner_seat"], rec["points"]) == (
        "ordago",
        "ordago",
        2,
        0,
    )
    assert st["winner"] == 0 and st["scores"] == [0, 0]
    assert to_act(st) == []
    assert observation(st, 1)["hands_shown"]["0"] == WORKED[0]
    with pytest.raises(IllegalAction) as exc:
        apply(st, 0, {"type": "deal"})
    assert exc.value.code == "game_finished"


def test_ordago_over_a_held_stake_then_held():
    st = cut(start(WORKED, kings=8))
    st = play(st, (0, "bet 10"), (3, "ordago"))
    b = st["hand"]["betting"]
    assert (b["stake"], b["held"], b["bettor_team"]) == ("ordago", 10, 1)
    st = play(st, (2, "hold"))
    assert st["status"] == "finished" and st["winner"] == 0  # seat 0 has the best Grand


def test_paires_and_jeu_only_eligible_players_speak():
    hands = {
        0: ["12o", "12c", "11o", "4o"],  # par, 34 jeu
        1: ["7o", "7c", "5o", "1o"],  # par, no jeu
        2: ["1c", "2o", "4c", "6o"],  # nothing, no jeu
        3: ["10o", "11c", "12e", "1e"],  # no paires, 31
    }
    st = cut(start(hands))
    st = pass_all(st, [0, 1, 2, 3])
    st = pass_all(st, [0, 1, 2, 3])
    assert st["hand"]["lance"] == "paires"
    assert st["hand"]["betting"]["eligible"] == [0, 1]
    with pytest.raises(IllegalAction) as exc:
        apply(st, 2, {"type": "pass"})
    assert exc.value.code == "not_eligible"
    st = play(st, (0, "bet 2"))
    assert to_act(st) == [1]
    with pytest.raises(IllegalAction) as exc:
        apply(st, 3, {"type": "hold"})
    assert exc.value.code == "not_eligible"
    st = play(st, (1, "hold"))  # only eligible voter: final
    assert st["hand"]["lance"] == "jeu"
    assert st["hand"]["betting"]["eligible"] == [0, 3]
    st = play(st, (0, "bet 2"), (3, "raise 4"), (0, "hold"))
    assert st["status"] == "hand_over"
    rec = lances(st)
    assert (rec["paires"]["winner_seat"], rec["paires"]["points"]) == (0, 2 + 1)
    assert (rec["jeu"]["winner_seat"], rec["jeu"]["points"]) == (3, 4 + 3)
    obs = observation(st, 2)
    assert [w for w in obs["words"] if w["type"] == "declare" and w["lance"] == "jeu"] == [
        {"seat": s, "type": "declare", "lance": "jeu", "has": has}
        for s, has in [(0, True), (1, False), (2, False), (3, True)]
    ]


def test_unopposed_paires_and_paires_not_played_when_nobody_has_them():
    hands = {
        0: ["12o", "12c", "11o", "4o"],  # par, 34
        1: ["7o", "6c", "5o", "1o"],
        2: ["1c", "2o", "4c", "6o"],
        3: ["10o", "11c", "3e", "1e"],
    }
    st = pass_all(pass_all(cut(start(hands)), range(4)), range(4))
    rec = lances(st)["paires"]
    assert (rec["outcome"], rec["winner_team"], rec["winner_seat"]) == ("unopposed", 0, 0)
    assert st["hand"]["lance"] is None and st["status"] == "hand_over"  # jeu unopposed too
    rec = lances(st)
    assert (rec["paires"]["winner_seat"], rec["paires"]["points"]) == (0, 1)
    assert (rec["jeu"]["outcome"], rec["jeu"]["points"]) == ("unopposed", 2)

    nobody = {
        0: ["12o", "11o", "7o", "2e"],
        1: ["1o", "2c", "5o", "6o"],
        2: ["1c", "2o", "4c", "7c"],
        3: ["10o", "11c", "3e", "5e"],
    }
    st = pass_all(pass_all(cut(start(nobody)), range(4)), range(4))
    rec = lances(st)["paires"]
    assert (rec["outcome"], rec["winner_team"], rec["winner_seat"], rec["points"]) == (
        "none",
        None,
        None,
        0,
    )
    assert st["hand"]["lance"] == "point"  # nobody has Jeu either


def test_point_gives_its_extra_point():
    nobody = {
        0: ["12o", "11o", "7o", "2e"],  # 29: the best Point
        1: ["1o", "2c", "5o", "6o"],
        2: ["1c", "2o", "4c", "7c"],
        3: ["10o", "11c", "3e", "5e"],  # 28
    }
    st = pass_all(pass_all(cut(start(nobody)), range(4)), range(4))
    assert st["hand"]["lance"] == "point"
    assert st["hand"]["declarations"]["jeu"] == [False] * 4
    st = play(st, (0, "pass"), (1, "bet 2"), (2, "hold"))
    assert to_act(st) == [0]
    st = play(st, (0, "refuse"))
    rec = lances(st)["point"]
    assert (rec["outcome"], rec["winner_seat"], rec["points"]) == ("held", 0, 3)
    assert "jeu" not in lances(st)
    # en paso the Point is worth 1, refused it is worth the deje now and 1 at the end
    st2 = pass_all(pass_all(pass_all(cut(start(nobody)), range(4)), range(4)), range(4))
    assert lances(st2)["point"]["points"] == 1
    st3 = pass_all(pass_all(cut(start(nobody)), range(4)), range(4))
    st3 = play(st3, (0, "pass"), (1, "bet 2"), (0, "refuse"), (2, "refuse"))
    rec = lances(st3)["point"]
    assert (rec["outcome"], rec["deje"], rec["points"], rec["winner_team"]) == ("refused", 1, 1, 1)


def test_first_hand_cutter_becomes_mano_and_the_mano_moves_on():
    h1 = deck_for(WORKED, 2)  # drawn mano 2 is dealt first
    h2 = deck_for(WORKED, 1)
    h3 = deck_for(WORKED, 2)
    from games.engine import new_partie

    st = new_partie(kings=8, first_mano=2, decks=[h1, h2, h3])
    obs = observation(st, None)
    assert (obs["mano"], obs["first_speaker"], obs["to_act"]) == (None, 2, [2])
    assert st["hand"]["cards"][2] == WORKED[2]
    st = play(st, (2, "mus"), (3, "mus"), (0, "cut"))
    assert st["hand"]["mano"] == 0  # seat 0 cut: it speaks first in every lance
    assert to_act(st) == [0]
    st = pass_all(st, [0, 1, 2, 3])
    st = pass_all(st, [0, 1, 2, 3])
    st = pass_all(st, [0, 1, 2])
    assert st["scores"] == [6, 5]  # seat 0 mano: same as the worked example
    assert hand_records(st)[0]["mano"] == 0
    st = play(st, (3, "deal"))
    assert st["hand_number"] == 2 and st["hand"]["mano"] == 1 and to_act(st) == [1]
    assert st["hand"]["cards"][1] == WORKED[1]  # hand 2 is dealt from its mano
    st = play(st, (1, "cut"))
    assert st["hand"]["mano"] == 1
    st = pass_all(st, [1, 2, 3, 0])
    st = pass_all(st, [1, 2, 3, 0])
    st = pass_all(st, [1, 2, 0])
    assert st["status"] == "hand_over"
    # mano 1 now wins the ties: seat 0 and 2 have K K 7 A / K K A A: grand to seat 0 still
    st = play(st, (0, "deal"))
    assert st["hand_number"] == 3 and st["hand"]["mano"] == 2
    assert [r["mano"] for r in hand_records(st)] == [0, 1, 2]
    assert len(hand_records(st)) == 3 and "hands_shown" not in hand_records(st)[2]


def test_discards_are_replaced_from_the_mano_and_earlier_discards_reshuffled():
    pioche = ["1e", "1b", "2e", "2b", "4e", "4b", "5e", "5b"]
    hands = {
        0: ["12o", "12c", "11o", "4o"],
        1: ["7o", "7c", "5o", "1o"],
        2: ["1c", "2o", "4c", "6o"],
        3: ["10o", "11c", "12e", "3e"],
    }
    deck = deck_for(hands, 1, pioche)  # drawn mano: seat 1
    from games.engine import new_partie

    st = new_partie(kings=4, first_mano=1, decks=[deck])
    st = play(st, (1, "mus"), (2, "mus"), (3, "mus"), (0, "mus"))
    assert st["phase"] == "discard" and to_act(st) == [1, 2, 3, 0]
    st = play(st, (0, "discard 12o"), (2, "discard 1c 2o"))
    obs = observation(st, 3)
    assert obs["discard_ready"] == [True, False, True, False]
    assert not {"12o", "1c", "2o"} & strings(obs)
    st = play(st, (1, "discard 7o 7c 5o"), (3, "discard 10o"))
    # served from seat 1: 3 cards, then seat 2: 2, seat 3: 1, seat 0: 1
    assert st["hand"]["cards"][1] == ["1o", "1e", "1b", "2e"]
    assert st["hand"]["cards"][2] == ["4c", "6o", "2b", "4e"]
    assert st["hand"]["cards"][3] == ["11c", "12e", "3e", "4b"]
    assert st["hand"]["cards"][0] == ["12c", "11o", "4o", "5e"]
    assert observation(st, None)["discard_rounds"] == [[1, 3, 2, 1]]
    assert observation(st, None)["pioche_size"] == 24 - 7
    # round 2: everybody changes four (17 -> 1 left in the pioche)
    st = play(st, (1, "mus"), (2, "mus"), (3, "mus"), (0, "mus"))
    round1 = ["12o", "1c", "2o", "7o", "7c", "5o", "10o"]
    round2 = [c for s in (1, 2, 3, 0) for c in st["hand"]["cards"][s]]
    for s in range(4):
        st = play(st, (s, {"type": "discard", "cards": list(st["hand"]["cards"][s])}))
    assert observation(st, None)["pioche_size"] == 1
    assert st["reshuffles"] == []
    # round 3: the pioche runs out at seat 1 (served first); rounds 1 and 2 are reshuffled
    st = play(st, (1, "mus"), (2, "mus"), (3, "mus"), (0, "mus"))
    round3 = {s: list(st["hand"]["cards"][s]) for s in range(4)}
    last = st["hand"]["pioche"][0]
    for s in range(3):
        st = play(st, (s, {"type": "discard", "cards": round3[s]}))
    # no reshuffle order and no shuffler: refused, the state is left as it was
    before = repr(st)
    with pytest.raises(IllegalAction) as exc:
        apply(st, 3, {"type": "discard", "cards": round3[3]})
    assert exc.value.code == "no_randomness"
    assert repr(st) == before
    # a supplied order that is not exactly the earlier discards is refused
    with pytest.raises(IllegalAction) as exc:
        apply(dict(st, reshuffles=[["1o", "2o"]]), 3, {"type": "discard", "cards": round3[3]})
    assert exc.value.code == "invalid_reshuffle"
    done = apply(st, 3, {"type": "discard", "cards": round3[3]}, shuffler=seeded_shuffler(5))
    order = done["reshuffles"][0]
    assert sorted(order) == sorted(round1 + round2)  # this round's discards stay out
    assert done["hand"]["cards"][1] == [last, *order[:3]]
    assert done["hand"]["cards"][2] == order[3:7]
    assert done["hand"]["cards"][0] == order[11:15]
    assert observation(done, None)["pioche_size"] == 23 - 15
    assert done["hand"]["old_discards"] == [c for s in (1, 2, 3, 0) for c in round3[s]]
    # a supplied order is used as given
    given = list(reversed(order))
    st_given = dict(st, reshuffles=[given])
    done2 = apply(st_given, 3, {"type": "discard", "cards": round3[3]})
    assert done2["hand"]["cards"][1] == [last, *given[:3]]


def test_end_at_40_during_the_count_stops_it():
    st = start(WORKED, kings=8)
    st["scores"] = [39, 36]
    st = cut(st)
    st = pass_all(pass_all(pass_all(st, range(4)), range(4)), [0, 1, 2])
    assert st["status"] == "finished" and st["winner"] == 0
    assert st["scores"] == [40, 36]  # team 1's unopposed Jeu (5) is never counted
    rec = lances(st)
    assert [rec[k]["points"] for k in ("grand", "petit", "paires", "jeu")] == [1, 0, 0, 0]
    assert rec["jeu"]["winner_team"] == 1
    assert to_act(st) == []


def test_deje_reaching_40_ends_at_once():
    st = start(WORKED, kings=8)
    st["scores"] = [10, 39]
    st = cut(st)
    st = play(st, (0, "pass"), (1, "bet 2"), (2, "refuse"), (0, "refuse"))
    assert st["status"] == "finished" and st["winner"] == 1 and st["scores"] == [10, 40]
    assert [r["lance"] for r in hand_records(st)[0]["lances"]] == ["grand"]
    assert observation(st, 0)["hands_shown"] is not None


def test_bet_of_40_is_counted_in_lance_order():
    st = start(WORKED, kings=8)
    st["scores"] = [0, 37]
    st = cut(st)
    st = play(st, (0, "bet 40"), (1, "hold"), (3, "refuse"))
    assert st["status"] == "playing"  # a plain bet, counted at the end
    st = pass_all(pass_all(st, range(4)), [0, 1, 2])
    assert st["status"] == "finished" and st["winner"] == 0 and st["scores"] == [40, 37]


def test_several_hands_in_a_row_accumulate():
    from games.engine import new_partie

    decks = [deck_for(WORKED, m) for m in (0, 1, 2)]
    st = new_partie(kings=8, first_mano=0, decks=decks)
    totals = []
    for n in range(3):
        mano = st["hand"]["mano"] if n else 0
        order = [(mano + i) % 4 for i in range(4)]
        st = play(st, (order[0], "cut"))
        while st["phase"] == "lance":
            st = play(st, (to_act(st)[0], "pass"))
        totals.append(list(st["scores"]))
        if n < 2:
            st = play(st, (0, "deal"))
    assert totals[0] == [6, 5]
    assert totals[1][0] > 6 and totals[2][0] > totals[1][0]
    assert [r["scores_after"] for r in hand_records(st)] == totals
