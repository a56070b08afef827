"""Robot parties played with the engine alone: what bench.review and bench.review_live review."""

from games import engine
from games.engine.shuffle import SeededShuffler


def robot_partie(seed: int, kings: int) -> engine.State:
    rng = SeededShuffler(seed)
    state = engine.new_partie(kings=kings, first_mano=seed % 4, shuffler=rng)
    while state["status"] != "finished":
        seat = engine.to_act(state)[0]
        action = engine.robot_action(engine.observation(state, seat))
        state = engine.apply(state, seat, action, shuffler=rng)
    return state


def decisions(state: engine.State) -> int:
    """The decisions a review of the four seats analyses (the deals aside)."""
    return sum(1 for _, action in state["actions"] if action["type"] != "deal")
