"""Replaying a partie from its decks and actions: ``python -m games.engine replay FILE|-``.

Follows ``docs/replay.md`` to the letter: one JSON document on stdout and exit 0; an illegal action
gives exit 2, nothing on stdout and ``action N: reason`` (N 0-based) as the only stderr line; a
malformed file (bad JSON, a bad deck, a missing field) gives exit 2 and a one-line reason.

Choices: ``decks`` must give a deck for every hand the actions deal (a ``deal`` with no deck left
is an illegal action, "no deck given for hand N"); reshuffles missing from ``reshuffles`` are
drawn from :func:`seeded_shuffler` seeded by ``seed`` (0 when ``seed`` is absent too).
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any, cast

from .errors import IllegalAction, ReplayError
from .machine import apply, check_seat, new_partie, parse_action, to_act
from .observation import hand_records
from .shuffle import seeded_shuffler
from .types import Action, Kings, ReplayDocument, State


def replay_document(state: State) -> ReplayDocument:
    """docs/replay.md's output document for a state."""
    return {
        "status": state["status"],
        "scores": list(state["scores"]),
        "winner": state["winner"],
        "to_act": to_act(state),
        "hands": hand_records(state),
    }


def replay(
    *,
    kings: Kings,
    first_mano: int,
    decks: list[list[str]],
    actions: list[Any],
    reshuffles: list[list[str]] | None = None,
    seed: int | None = None,
) -> State:
    """The final state after ``actions``; ReplayError(index, reason) at the first illegal one.

    Errors of the inputs themselves (decks, kings, ...) raise IllegalAction from new_partie.
    """
    if seed is not None:
        shuffler = seeded_shuffler(seed)
    elif reshuffles is None:
        shuffler = seeded_shuffler(0)
    else:
        shuffler = None
    state = new_partie(
        kings=kings, first_mano=first_mano, decks=decks, reshuffles=reshuffles, shuffler=shuffler
    )
    for index, pair in enumerate(actions):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ReplayError(index, "not a [seat, action] pair", "malformed_action")
        seat, action = pair
        try:
            if state["status"] == "hand_over" and len(state["decks"]) <= state["hand_number"]:
                check_seat(seat)
                if parse_action(action)["type"] == "deal":
                    raise ReplayError(
                        index, f"no deck given for hand {state['hand_number'] + 1}", "no_deck"
                    )
            state = apply(state, seat, cast(Action, action), shuffler=shuffler)
        except IllegalAction as exc:
            raise ReplayError(index, exc.reason, exc.code) from None
    return state


class InputError(Exception):
    pass


def json_object(text: str) -> dict[str, Any]:
    """The JSON object of a command's input (InputError: not JSON, or not an object)."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InputError(f"invalid JSON: {str(exc).splitlines()[0]}") from None
    if not isinstance(doc, dict):
        raise InputError("the input must be a JSON object")
    return doc


def _parse_input(text: str) -> dict[str, Any]:
    doc = json_object(text)
    for key in ("kings", "first_mano", "decks", "actions"):
        if key not in doc:
            raise InputError(f"missing field {key!r}")
    if type(doc["kings"]) is not int or doc["kings"] not in (4, 8):
        raise InputError("kings must be 4 or 8")
    if type(doc["first_mano"]) is not int or not 0 <= doc["first_mano"] <= 3:
        raise InputError("first_mano must be a seat 0-3")
    if not isinstance(doc["decks"], list) or not doc["decks"]:
        raise InputError("decks must be a non-empty list of decks")
    if not isinstance(doc["actions"], list):
        raise InputError("actions must be a list of [seat, action] pairs")
    if doc.get("reshuffles") is not None and not isinstance(doc["reshuffles"], list):
        raise InputError("reshuffles must be a list of card lists")
    seed = doc.get("seed")
    if seed is not None and type(seed) is not int:
        raise InputError("seed must be an integer")
    return doc


def run(
    path: str,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """The ``replay`` command; returns the exit status."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        doc = _parse_input(text)
        state = replay(
            kings=doc["kings"],
            first_mano=doc["first_mano"],
            decks=doc["decks"],
            actions=doc["actions"],
            reshuffles=doc.get("reshuffles"),
            seed=doc.get("seed"),
        )
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror or exc}", file=stderr)
        return 2
    except UnicodeDecodeError:
        print(f"cannot read {path}: not UTF-8 text", file=stderr)
        return 2
    except InputError as exc:
        print(f"invalid input: {exc}", file=stderr)
        return 2
    except IllegalAction as exc:  # raised by new_partie: bad deck / reshuffle
        print(f"invalid input: {exc.reason}", file=stderr)
        return 2
    except ReplayError as exc:
        print(f"action {exc.index}: {exc.reason}", file=stderr)
        return 2
    stdout.write(json.dumps(replay_document(state), indent=2, ensure_ascii=False) + "\n")
    return 0
