"""The computer player's decision (docs/robots.md): a pure function of one seat's observation.

Interim policy, replaced by the sampling robot: the most cautious legal decision, read from the
observation alone (never the state), so it is legal whenever the seat must act.
"""

from __future__ import annotations

from .errors import IllegalAction
from .timeout import least_useful_card
from .types import Action, Observation


def robot_action(obs: Observation) -> Action:
    """The decision of the seat whose observation is ``obs``; IllegalAction if it has none."""
    kinds = {template["type"] for template in obs["legal"]}
    if not kinds:
        raise IllegalAction("not_your_turn", "this seat has nothing to decide")
    if "deal" in kinds:
        return {"type": "deal"}
    if "cut" in kinds:
        return {"type": "cut"}
    if "discard" in kinds:
        cards = list(obs["my_cards"] or [])
        return {"type": "discard", "cards": [least_useful_card(cards, obs["kings"])]}
    for kind in ("pass", "refuse", "see"):
        if kind in kinds:
            return {"type": kind}
    return {"type": sorted(kinds)[0]}
