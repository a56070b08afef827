"""The robots' decisions are named by ROBOT_VERSION (the reviews are keyed by it): a change of
any level's decisions without a new version fails here, so no review made by the old robot is
shown as the new one's."""

from __future__ import annotations

import hashlib
import json

from games.engine import apply, new_partie, observation, robot_action, to_act
from games.engine.random_play import pick_action
from games.engine.robot import LEVELS, ROBOT_VERSION
from games.engine.robot_v1 import robot_v1_action
from games.engine.shuffle import SeededShuffler

#: ROBOT_VERSION → the fingerprint of the decisions below. A new robot: bump the version and
#: record the fingerprint the failure prints.
FINGERPRINTS = {
    "31.5": "82925d612374162f1a24b794d45b3132faf98ed31c3f73c04231a66b03577c07",
}


def decisions_fingerprint() -> str:
    """Every level's decisions over seeded parties, robots of one level against each other,
    against random players and against robot-v1 (whose órdagos switch on the robot's readings
    of the other team)."""
    digest = hashlib.sha256()
    for level in LEVELS:
        for seed in range(6):
            rng = SeededShuffler(seed)
            state = new_partie(kings=4 if seed % 2 else 8, first_mano=seed % 4, shuffler=rng)
            random_seats = {1, 3} if seed == 2 else set()
            v1_seats = {1, 3} if seed >= 3 else set()
            while state["status"] != "finished":
                seat = to_act(state)[0]
                if seat in random_seats:
                    action = pick_action(state, seat, rng)
                elif seat in v1_seats:
                    action = robot_v1_action(observation(state, seat))
                else:
                    action = robot_action(observation(state, seat), level)
                    digest.update(json.dumps([level, seat, action], sort_keys=True).encode())
                state = apply(state, seat, action, shuffler=rng)
    return digest.hexdigest()


def test_the_robots_decisions_are_those_of_their_version():
    found = decisions_fingerprint()
    assert FINGERPRINTS.get(ROBOT_VERSION) == found, (
        f"the robots decide differently from ROBOT_VERSION {ROBOT_VERSION!r}: bump it "
        f"(games/engine/robot.py) and record {found!r} for the new version"
    )
