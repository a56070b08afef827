"""The partie page's view model: an ended partie explained hand by hand (the table's score
screen, every decision with the discards named, the four hands as dealt and as shown), and
the step-by-step replay, every state rebuilt with the engine from the log
(games.display.replay.replayed, the staff's replay: one rebuild for both).

An ended partie never changes: its rebuild is kept in this process (`ended_replay`, see
docs/records.md), so only the first GET of its page replays it."""

import threading
from collections import OrderedDict

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engine, vocabulary
from games.display.replay import action_text, replay_game, replayed
from games.display.score_screen import Sides, hand_summary
from games.display.table_view import card_view
from games.engine import State, team_of
from games.models import Game, GameAction

#: Ended parties whose rebuild this process keeps, the least recently shown dropped first.
ENDED_REPLAYS_KEPT = 64
_ended_replays: OrderedDict = OrderedDict()
_ended_replays_lock = threading.Lock()


def ended_replay(game, players: list[str]):
    """`replayed(game, players)`, kept for an ended partie: its log and its version never
    change once it ended, so (id, version, players, language) names one rebuild for good. A
    partie being played is rebuilt at each call (its page shows nothing of it anyway)."""
    if game.status == Game.Status.PLAYING:
        return replayed(game, players)
    key = (game.pk, game.version, tuple(players), get_language())
    with _ended_replays_lock:
        done = _ended_replays.get(key)
        if done is not None:
            _ended_replays.move_to_end(key)
            return done
    done = replayed(game, players)
    with _ended_replays_lock:
        _ended_replays[key] = done
        while len(_ended_replays) > ENDED_REPLAYS_KEPT:
            _ended_replays.popitem(last=False)
    return done


def forget_ended_replays() -> None:
    """Empty the kept rebuilds (tests)."""
    with _ended_replays_lock:
        _ended_replays.clear()


def partie_view(game, viewer_seat: int | None, step: int | None) -> dict:
    """Everything the page shows of the ended `game` (seats prefetched with their users), for
    a player at `viewer_seat` or staff (None); `step`: the replay's position (clamped)."""
    players = ["?"] * 4
    for seat in game.seats.all():
        players[seat.number] = seat.user.username
    done = ended_replay(game, players)
    first, steps, _error = done
    summary = replay_game(game, players, done)
    teams = summary["teams"]
    final = steps[-1][1] if steps else first
    records = engine.hand_records(final)
    viewer_team = team_of(viewer_seat or 0)
    before = [0, 0]
    hands = []
    for number, (hand, record) in enumerate(zip(summary["hands"], records, strict=False), 1):
        explained = hand_summary(
            record,
            before,
            Sides(tuple(players), tuple(teams), viewer_team, game.kings),
            last_of_partie=number == len(records) and final["status"] == "finished",
        )
        hands.append({**hand, "explained": explained})
        before = list(record["scores_after"])
    return {
        "players": players,
        "teams": teams,
        "scores": summary["scores"],
        "ordago_text": vocabulary.ordago_win(records[-1]["lances"]) if records else "",
        "hands": hands,
        "replay_error": summary["error"],
        "replay": step_view(first, steps, players, step),
    }


def step_view(
    first: State, steps: list[tuple[GameAction, State]], players: list[str], step: int | None
) -> dict:
    """The replay at `step` (0: as dealt; n: after the n-th decision): what each seat held,
    read from the engine's own observation of that seat, who was to act, the last decision."""
    count = len(steps)
    step = count if step is None else min(max(step, 0), count)
    state = first if step == 0 else steps[step - 1][1]
    seats = []
    for seat in range(4):
        seen = engine.observation(state, seat)
        seats.append(
            {
                "number": seat,
                "player": players[seat],
                "team": team_of(seat) + 1,
                "cards": [card_view(code, state["kings"]) for code in seen["my_cards"] or []],
                "to_act": seat in seen["to_act"],
                "mano": seen["mano"] == seat,
            }
        )
    last = None
    if step:
        row = steps[step - 1][0]
        last = _("%(player)s : %(decision)s") % {
            "player": players[row.seat],
            "decision": action_text(row.payload),
        }
    seen = engine.observation(state, None)
    return {
        "step": step,
        "count": count,
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < count else None,
        "seats": seats,
        "last": last,
        "hand_number": seen["hand_number"],
        "phase": str(vocabulary.PHASE_NAMES.get(seen["phase"], "")),
        "lance": vocabulary.lance_name(seen["lance"]) if seen["lance"] else "",
        "scores": seen["scores"],
    }
