"""Barajamos rules engine: the whole Mus partie in pure Python (stdlib only, no Django, no I/O),
so that the rules can be tested, replayed and benchmarked without the site.

The site imports from this package only; ``types`` writes the state, the observation and the
actions out once, and mypy checks the engine against them in ``make test``. What each module
holds: docs/engine.md.
"""

from .cards import CARD_CODES, card_points, effective_rank
from .errors import ILLEGAL_CODES, IllegalAction, IllegalCode, ReplayError
from .fairness import FairDeal, FairnessError, FairShuffler, commitment, robot_seed
from .hands import compare, paires_of, total_of
from .machine import apply, legal_actions, new_partie, to_act
from .observation import hand_records, observation
from .replay import replay, replay_document
from .robot import robot_action
from .serialization import dumps, loads
from .shuffle import SeededShuffler, seeded_shuffler
from .timeout import least_useful_card, timeout_action
from .types import (
    TARGET,
    Action,
    ActionType,
    Kings,
    Lance,
    LegalAction,
    Observation,
    Outcome,
    Phase,
    PublicEnvite,
    ReplayDocument,
    Stake,
    State,
    Status,
    Word,
    team_of,
)

__all__ = [
    "CARD_CODES",
    "ILLEGAL_CODES",
    "TARGET",
    "Action",
    "FairDeal",
    "FairShuffler",
    "FairnessError",
    "ActionType",
    "IllegalAction",
    "IllegalCode",
    "Kings",
    "Lance",
    "LegalAction",
    "Observation",
    "Outcome",
    "Phase",
    "PublicEnvite",
    "ReplayDocument",
    "ReplayError",
    "SeededShuffler",
    "Stake",
    "State",
    "Status",
    "Word",
    "apply",
    "card_points",
    "commitment",
    "compare",
    "dumps",
    "effective_rank",
    "hand_records",
    "least_useful_card",
    "legal_actions",
    "loads",
    "new_partie",
    "observation",
    "paires_of",
    "replay",
    "replay_document",
    "robot_seed",
    "robot_action",
    "seeded_shuffler",
    "team_of",
    "timeout_action",
    "to_act",
    "total_of",
]
