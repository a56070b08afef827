"""The staff's replay of a game, hand by hand, rebuilt with the engine from the stored decks
and reshuffles and the "play" rows of the action log. Staff see every card: the hands as dealt
and as shown at the end of the hand (or as held when the game stopped mid-hand)."""

import copy
import json
from typing import Any, cast

from django.utils.translation import gettext as _

from games import engine, vocabulary
from games.display.table_view import card_view, lance_winner
from games.engine import State, team_of
from games.engine.types import LanceRecord, Word
from games.models import GameAction


def replay_game(game, players: list[str] | None = None, done=None) -> dict:
    """{"players", "teams", "hands", "scores", "matches_stored", "error"} for the template.
    `done`: what `replayed(game, players)` returned, when the caller needs the states too."""
    stored = game.state
    players = players or _players(game)
    teams = [
        _("%(first)s et %(second)s") % {"first": players[0], "second": players[2]},
        _("%(first)s et %(second)s") % {"first": players[1], "second": players[3]},
    ]
    state, steps, error = done or replayed(game, players)
    hands = [_hand_start(state)]
    for row, after in steps:
        if row.payload.get("type") == "deal":
            hands.append(_hand_start(after))
        else:
            said = vocabulary.labelled(players[row.seat], action_text(row.payload))
            hands[-1]["actions"].append(said)
    state = steps[-1][1] if steps else state
    records = engine.hand_records(state)
    return {
        "players": players,
        "teams": teams,
        "hands": [
            _hand_view(number, hand, record, state, players, teams)
            for number, (hand, record) in enumerate(zip(hands, records, strict=False), start=1)
        ],
        "scores": list(state["scores"]),
        "matches_stored": error is None and json.loads(json.dumps(state)) == stored,
        "error": error,
    }


def initial_state(game) -> State:
    """The partie as dealt: the engine's new partie from the decks and reshuffles it stored."""
    stored = game.state
    return engine.new_partie(
        kings=game.kings,
        first_mano=stored["first_mano"],
        decks=copy.deepcopy(stored["decks"]),
        reshuffles=copy.deepcopy(stored["reshuffles"]),
    )


def replayed(game, players: list[str]) -> tuple[State, list[tuple[GameAction, State]], str | None]:
    """(the state as dealt, [(each "play" row of the log, the state after it)], the error of
    a row the engine refused, where the replay stopped, or None): every state of the partie."""
    state = initial_state(game)
    first: State = state
    steps: list[tuple[GameAction, State]] = []
    for row in game.actions.filter(kind=GameAction.Kind.PLAY).order_by("seq"):
        try:
            state = engine.apply(state, row.seat, row.payload)
        except engine.IllegalAction as exc:
            error = _("Action n° %(seq)s (%(player)s) refusée au rejeu : %(reason)s") % {
                "seq": row.seq,
                "player": players[row.seat],
                "reason": exc.reason,
            }
            return first, steps, error
        steps.append((row, state))
    return first, steps, None


def action_text(action: dict[str, Any]) -> str:
    """One decision in French as the table words it, but discarded cards named (staff see
    them)."""
    if action["type"] == "discard":
        names = ", ".join(vocabulary.card_name(code) for code in action["cards"])
        return _("écarte %(cards)s") % {"cards": names}
    return vocabulary.word_text(cast(Word, action))


def _players(game) -> list[str]:
    names = ["?"] * 4
    for seat in game.seats.select_related("user"):
        names[seat.number] = seat.user.username
    return names


def _hand_start(state: State) -> dict:
    return {"dealt": [list(cards) for cards in state["hand"]["cards"]], "actions": []}


def _hand_view(number, hand, record, state, players, teams) -> dict:
    shown = record.get("hands_shown")
    closed = shown is not None
    final = [shown[str(s)] for s in range(4)] if closed else state["hand"]["cards"]
    mano = record.get("mano")
    return {
        "number": number,
        "mano": players[mano] if mano is not None else "—",
        "closed": closed,
        "seats": [
            {
                "number": seat,
                "player": players[seat],
                "team": team_of(seat) + 1,
                "dealt": [card_view(code, state["kings"]) for code in hand["dealt"][seat]],
                "final": [card_view(code, state["kings"]) for code in final[seat]],
            }
            for seat in range(4)
        ],
        "actions": hand["actions"],
        "lances": [_lance_view(rec, players, teams) for rec in record["lances"]],
        "scores_after": record["scores_after"],
    }


def _lance_view(rec: LanceRecord, players, teams) -> dict:
    stake = rec["stake"]
    return {
        "name": vocabulary.lance_name(rec["lance"]),
        "outcome": vocabulary.outcome_name(rec["outcome"]),
        "stake": _("órdago") if stake == "ordago" else stake,
        "winner": lance_winner(rec, players, teams) or "",
        "deje": rec["deje"],
        "points": rec["points"],
    }
