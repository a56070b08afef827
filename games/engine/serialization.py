"""Canonical JSON for states: ``loads(dumps(s)) == s`` for every state the engine makes."""

from __future__ import annotations

import json
from typing import cast

from .types import State


def dumps(state: State) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> State:
    return cast(State, json.loads(text))
