"""Barajamos rules engine: the whole Mus partie in pure Python (stdlib only, no Django, no I/O).

Modules: ``cards`` (codes, modalities, points), ``hands`` (evaluators as precomputed tables),
``betting`` (one lance's envite), ``machine`` (the state machine), ``scoring`` (showdown and
count), ``observation`` (what one seat may see), ``serialization`` (JSON), ``replay`` (the CLI of
REPLAY.md), ``shuffle`` (seeded hashlib shuffler), ``random_play`` (random legal play, for the
tests and the benchmark), ``bench``.

The API is the contract the Django shell is written against (fixed: add, never rename).
It is kept verbatim in :mod:`games.engine.contract`; the package exports every name it
lists.
"""

from .cards import CARD_CODES
from .errors import ILLEGAL_CODES, IllegalAction, ReplayError
from .machine import apply, legal_actions, new_partie, to_act
from .observation import hand_records, observation
from .replay import replay, replay_document
from .serialization import dumps, loads
from .shuffle import SeededShuffler, seeded_shuffler

__all__ = [
    "CARD_CODES",
    "ILLEGAL_CODES",
    "IllegalAction",
    "ReplayError",
    "SeededShuffler",
    "apply",
    "dumps",
    "hand_records",
    "legal_actions",
    "loads",
    "new_partie",
    "observation",
    "replay",
    "replay_document",
    "seeded_shuffler",
    "to_act",
]
