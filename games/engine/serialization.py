"""Canonical JSON for states: ``loads(dumps(s)) == s`` for every state the engine makes."""

from __future__ import annotations

import json


def dumps(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> dict:
    return json.loads(text)
