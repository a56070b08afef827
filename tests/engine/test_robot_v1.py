"""``robot-v1``, the baseline the robots are measured against, stays frozen: its decisions on
fixed observations match the golden record made from the robot of the first robots issue
before issue 31 replaced it (``data/robot_v1_golden.json``: seed, step, seat, action)."""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path

from games.engine import apply, new_partie, observation, to_act
from games.engine.random_play import pick_action
from games.engine.robot_v1 import robot_v1_action
from games.engine.shuffle import SeededShuffler

GOLDEN = Path(__file__).parent / "data" / "robot_v1_golden.json"


def test_robot_v1_decides_as_recorded_before_the_new_robots():
    rows = json.loads(GOLDEN.read_text())
    assert len(rows) > 400
    checked = 0
    for seed, group in groupby(rows, key=lambda r: r["seed"]):
        wanted = {r["step"]: r for r in group}
        first = next(iter(wanted.values()))
        rng = SeededShuffler(seed)
        state = new_partie(kings=first["kings"], first_mano=first["first_mano"], shuffler=rng)
        step = 0
        while step <= max(wanted):
            seats = to_act(state)
            seat = seats[rng.randbelow(len(seats))]
            if step in wanted:
                assert seat == wanted[step]["seat"]
                obs = observation(state, seat)
                assert robot_v1_action(obs) == wanted[step]["action"], (seed, step)
                checked += 1
            state = apply(state, seat, pick_action(state, seat, rng), shuffler=rng)
            step += 1
    assert checked == len(rows)
