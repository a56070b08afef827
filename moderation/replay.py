"""The staff's replay of a game, hand by hand, rebuilt with the engine from the stored decks
and reshuffles and the "play" rows of the action log. Staff see every card: the hands as dealt
and as shown at the end of the hand (or as held when the game stopped mid-hand)."""

import copy
import json

from django.utils.translation import gettext as _

from games import engine, vocabulary
from games.display.table_view import card_view, lance_winner
from games.models import GameAction


def replay_game(game) -> dict:
    """{"players", "teams", "hands", "scores", "matches_stored", "error"} for the template."""
    stored = game.state
    players = _players(game)
    teams = [
        _("%(first)s et %(second)s") % {"first": players[0], "second": players[2]},
        _("%(first)s et %(second)s") % {"first": players[1], "second": players[3]},
    ]
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
            error = _("Action n° %(seq)s (%(player)s) refusée au rejeu : %(reason)s") % {
                "seq": row.seq,
                "player": players[row.seat],
                "reason": exc.reason,
            }
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
    """One decision in French as the table words it, but discarded cards named (staff see
    them)."""
    if action["type"] == "discard":
        names = ", ".join(vocabulary.card_name(code) for code in action["cards"])
        return _("écarte %(cards)s") % {"cards": names}
    return vocabulary.word_text(action)


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
    stake = rec["stake"]
    return {
        "name": vocabulary.lance_name(rec["lance"]),
        "outcome": vocabulary.outcome_name(rec["outcome"]),
        "stake": _("órdago") if stake == "ordago" else stake,
        "winner": lance_winner(rec, players, teams) or "",
        "deje": rec["deje"],
        "points": rec["points"],
    }
