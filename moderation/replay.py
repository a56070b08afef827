"""The staff's replay of a game, hand by hand, rebuilt with the engine from the stored decks
and reshuffles and the "play" rows of the action log. Staff see every card: the hands as dealt
and as shown at the end of the hand (or as held when the game stopped mid-hand)."""

import copy
import json

from games import engine
from games.display import vocabulary
from games.display.table_view import card_view
from games.models import GameAction


def replay_game(game) -> dict:
    """{"players", "teams", "hands", "scores", "matches_stored", "error"} for the template."""
    stored = game.state
    players = _players(game)
    teams = [f"{players[0]} et {players[2]}", f"{players[1]} et {players[3]}"]
    plays = game.actions.filter(kind=GameAction.Kind.PLAY).order_by("seq")
    state = engine.new_partie(
        kings=game.kings,
        first_mano=stored["first_mano"],
        decks=copy.deepcopy(stored["decks"]),
        reshuffles=copy.deepcopy(stored["reshuffles"]),
    )
    hands = [_hand_start(state)]
    error = None
    for row in plays:
        try:
            state = engine.apply(state, row.seat, row.payload)
        except engine.IllegalAction as exc:
            error = f"Action n° {row.seq} ({players[row.seat]}) refusée au rejeu : {exc.reason}"
            break
        if row.payload.get("type") == "deal":
            hands.append(_hand_start(state))
        else:
            hands[-1]["actions"].append(f"{players[row.seat]} : {action_text(row.payload)}")
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


def action_text(action: dict) -> str:
    """One decision in French, discarded cards named (staff see them)."""
    kind = action.get("type")
    if kind == "discard":
        names = ", ".join(vocabulary.card_name(code) for code in action.get("cards", []))
        return f"écarte {names}"
    if kind == "bet":
        return f"Mise {action.get('amount')}"
    if kind == "raise":
        return f"Relance à {action.get('to')}"
    return vocabulary.ACTION_LABELS.get(kind or "", str(kind))


def _players(game) -> list[str]:
    names = ["?"] * 4
    for seat in game.seats.select_related("user"):
        names[seat.number] = seat.user.username
    return names


def _hand_start(state: dict) -> dict:
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
                "team": seat % 2 + 1,
                "dealt": [card_view(code, state["kings"]) for code in hand["dealt"][seat]],
                "final": [card_view(code, state["kings"]) for code in final[seat]],
            }
            for seat in range(4)
        ],
        "actions": hand["actions"],
        "lances": [_lance_view(rec, players, teams) for rec in record["lances"]],
        "scores_after": record["scores_after"],
    }


def _lance_view(rec: dict, players, teams) -> dict:
    team, seat = rec.get("winner_team"), rec.get("winner_seat")
    winner = ""
    if team is not None:
        winner = teams[team] + (f" ({players[seat]})" if seat is not None else "")
    stake = rec.get("stake")
    return {
        "name": vocabulary.lance_name(rec["lance"]),
        "outcome": vocabulary.outcome_name(rec["outcome"]),
        "stake": "órdago" if stake == "ordago" else stake,
        "winner": winner,
        "deje": rec.get("deje") or 0,
        "points": rec.get("points") or 0,
    }
