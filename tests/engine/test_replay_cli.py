"""The replay command, run as staff would run it: ``python -m games.engine replay FILE|-``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.engine import replay

from .helpers import WORKED, deck_for

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def game(actions, **extra) -> dict:
    doc = {"kings": 8, "first_mano": 0, "decks": [deck_for(WORKED, 0)], "actions": actions}
    doc.update(extra)
    return doc


WORKED_ACTIONS = (
    [[0, {"type": "cut"}]]
    + [[s, {"type": "pass"}] for s in [0, 1, 2, 3] * 2]
    + [[s, {"type": "pass"}] for s in [0, 1, 2]]
)


def test_replay_prints_the_document_and_exits_0(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game(WORKED_ACTIONS)))
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    doc = json.loads(proc.stdout)
    assert set(doc) >= {"status", "scores", "winner", "to_act", "hands"}
    assert doc["status"] == "hand_over" and doc["scores"] == [6, 5] and doc["winner"] is None
    assert doc["to_act"] == [0, 1, 2, 3]
    (hand,) = doc["hands"]
    assert hand["mano"] == 0 and hand["scores_after"] == [6, 5]
    assert hand["hands_shown"] == {str(s): WORKED[s] for s in range(4)}
    assert hand["lances"][0] == {
        "lance": "grand",
        "outcome": "paso",
        "stake": None,
        "winner_team": 0,
        "winner_seat": 0,
        "deje": 0,
        "points": 1,
    }
    assert [r["lance"] for r in hand["lances"]] == ["grand", "petit", "paires", "jeu"]


def test_replay_reads_standard_input_mid_hand():
    actions = [[0, {"type": "mus"}], [1, {"type": "cut"}], [1, {"type": "bet", "amount": 2}]]
    proc = run("replay", "-", stdin=json.dumps(game(actions)))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["status"] == "playing" and doc["to_act"] == [2, 0]
    assert doc["hands"][0]["mano"] == 1 and "hands_shown" not in doc["hands"][0]


def test_illegal_action_exits_2_naming_its_index():
    actions = WORKED_ACTIONS[:4] + [[2, {"type": "bet", "amount": 2}]]
    proc = run("replay", "-", stdin=json.dumps(game(actions)))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "action 4: seat 2 cannot bet now: it is seat 3's turn\n"


def test_card_not_held_and_malformed_actions_exit_2():
    for bad in (
        [0, {"type": "discard", "cards": ["1b"]}],
        [0, {"type": "bet", "amount": 2, "x": 1}],
        [7, {"type": "mus"}],
        "nonsense",
    ):
        actions = [[0, {"type": "mus"}], [1, {"type": "mus"}], [2, {"type": "mus"}]]
        actions += [[3, {"type": "mus"}], bad]
        proc = run("replay", "-", stdin=json.dumps(game(actions)))
        assert proc.returncode == 2, bad
        assert proc.stdout == ""
        assert proc.stderr.startswith("action 4: ") and proc.stderr.count("\n") == 1


def test_malformed_file_exits_2_with_one_line(tmp_path):
    bad_deck = game([])
    bad_deck["decks"][0][0] = bad_deck["decks"][0][1]
    missing = game([])
    del missing["kings"]
    for text in ("{not json", json.dumps(bad_deck), json.dumps(missing), "[]"):
        proc = run("replay", "-", stdin=text)
        assert proc.returncode == 2, text
        assert proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and not proc.stderr.startswith("action")
    proc = run("replay", str(tmp_path / "absent.json"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_seed_and_given_reshuffles_replay_the_same(tmp_path):
    mus4 = [[s, {"type": "mus"}] for s in (0, 1, 2, 3)]
    actions = []
    doc = game([])
    st = replay(kings=8, first_mano=0, decks=doc["decks"], actions=[], seed=3)
    for _ in range(3):  # three rounds of four changes each: the pioche runs out
        actions += mus4
        st = replay(kings=8, first_mano=0, decks=doc["decks"], actions=actions, seed=3)
        for s in (0, 1, 2, 3):
            actions.append([s, {"type": "discard", "cards": list(st["hand"]["cards"][s])}])
            st = replay(kings=8, first_mano=0, decks=doc["decks"], actions=actions, seed=3)
    assert st["reshuffles"]
    by_seed = run("replay", "-", stdin=json.dumps(game(actions, seed=3)))
    given = run("replay", "-", stdin=json.dumps(game(actions, reshuffles=st["reshuffles"])))
    assert by_seed.returncode == given.returncode == 0
    assert by_seed.stdout == given.stdout


def test_usage_error_exits_2():
    proc = run("nonsense")
    assert proc.returncode == 2 and proc.stdout == ""
