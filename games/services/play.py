"""Every write of live play. Each runs in one transaction that locks the game row
(games.services.locks), so the four players of a game are served one after the other.

- `game_create`: called by `salle.table_start`, in its transaction.
- `game_apply_action`: one player's decision (the table's POST endpoint, which names the game
  by its table).
- `game_finish`: THE one way a game ends, finished by the engine or cancelled (abandonment,
  moderation): status, result of each player, the end row of the log, the table closed and its
  seats freed, the broadcasts. A caller that already holds the game's lock (deadlines,
  moderation) calls `game_finish_locked`.
"""

import secrets

from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast, engine, selectors
from games.display import vocabulary
from games.models import Game, GameAction, GameSeat, Seat, Table
from games.services import locks
from games.services.errors import GameOver, IllegalMove, NotSeated, StaleVersion


def game_create(*, table: Table, decks=None, first_mano: int | None = None) -> Game:
    """Deal the first hand of a started table (the caller holds the table's row lock).
    `decks` and `first_mano` are for tests only; the site draws both with secrets."""
    rng = secrets.SystemRandom()
    if first_mano is None:
        first_mano = rng.randrange(4)
    state = engine.new_partie(kings=table.kings, first_mano=first_mano, decks=decks, shuffler=rng)
    game = Game.objects.create(
        table=table, kings=table.kings, state=state, version=state["version"]
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, number=seat.number, user_id=seat.user_id) for seat in table.seats.all()
    )
    return game


def game_apply_action(
    *, user, version: int, action: dict, table_id: int | None = None, game_id: int | None = None
) -> Game:
    """Apply one decision of `user` if it was taken at the current `version`, to the game of
    `table_id` (the table's POST endpoint: no query to find the game first, a table has one
    game) or to the game `game_id`. Returns the game with its table and its seats (and their
    users) prefetched, for the actor's own render."""
    if (table_id is None) == (game_id is None):
        raise TypeError("game_apply_action needs one of table_id and game_id")
    with transaction.atomic():
        game = _lock_game_to_play(game_id, table_id=table_id)
        seat = _seat_number(game, user)
        if game.status != Game.Status.PLAYING:
            raise GameOver(_("La partie est terminée."))
        if version != game.version:
            raise StaleVersion(vocabulary.STALE_VERSION)
        # The engine lets any seat deal (docs/replay.md); at the site the host deals from the score
        # screen, and a forged "deal" from another seat is refused here.
        is_deal = isinstance(action, dict) and action.get("type") == "deal"
        if is_deal and user.pk != game.table.host_id:
            raise IllegalMove(vocabulary.NOT_HOST_DEAL, "not_host")
        try:
            state = engine.apply(game.state, seat, action, shuffler=secrets.SystemRandom())
        except engine.IllegalAction as error:
            message = vocabulary.illegal_message(error.code, error.params)
            raise IllegalMove(message, error.code) from None
        game.state, game.version, game.last_action_at = state, state["version"], timezone.now()
        played = GameAction(
            game=game, seq=game.version, seat=seat, kind=GameAction.Kind.PLAY, payload=action
        )
        if state["status"] == "finished":
            reason = _("Partie gagnée.")
            _finish(game, status=Game.Status.FINISHED, reason=reason, by=None, log=[played])
        else:
            played.save()
            game.save(update_fields=["state", "version", "last_action_at", "updated"])
            broadcast.game_changed(game.pk, game.version)
    return game


def game_finish(*, game: Game, status: str, reason: str, by=None) -> Game:
    """End `game` (status "finished" or "cancelled") for `reason` (French, shown to the
    players), `by` a user (a moderator) or None (the system). Idempotent: a game that has
    already ended is returned unchanged."""
    with transaction.atomic():
        locked = _lock_game_to_play(game.pk)
        return game_finish_locked(game=locked, status=status, reason=reason, by=by)


def game_finish_locked(*, game: Game, status: str, reason: str, by=None) -> Game:
    """`game_finish` for a caller whose transaction already holds the game's row lock
    (locks.game or locks.game_to_play): the same checks, without locking twice."""
    if status not in (Game.Status.FINISHED, Game.Status.CANCELLED):
        raise ValueError(f"a game ends finished or cancelled, not {status!r}")
    if game.status != Game.Status.PLAYING:
        return game
    if status == Game.Status.FINISHED and game.state["status"] != "finished":
        raise ValueError("only the engine finishes a partie; cancel it instead")
    _finish(game, status=status, reason=reason, by=by)
    return game


def _finish(game: Game, *, status: str, reason: str, by, log=()) -> None:
    """End a locked game: one UPDATE of the game, one INSERT into the log (the end row, after
    the pending `log` rows), one UPDATE of its seats' results, the table closed and its seats
    freed, then the broadcasts."""
    now = timezone.now()
    game.status, game.end_reason, game.finished_at = status, reason, now
    game.winning_team = game.state["winner"] if status == Game.Status.FINISHED else None
    game.version += 1
    game.save(
        update_fields=[
            *("state", "version", "last_action_at", "updated", "status"),
            *("winning_team", "finished_at", "end_reason"),
        ]
    )
    by_id = getattr(by, "pk", None)
    end = GameAction(
        game=game,
        seq=game.version,
        kind=GameAction.Kind.END,
        payload={"status": status, "reason": reason, "by": by_id},
        at=now,
    )
    GameAction.objects.bulk_create([*log, end])
    # No seat waits for its player any more: the sweep's deadline index forgets them. Their
    # `away_since` stays: when a player was lost is worth keeping for the staff.
    GameSeat.objects.filter(game=game).update(result=_result_expression(game), deadline=None)
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.CLOSED, updated=now)
    Seat.objects.filter(table_id=game.table_id).update(active=False)
    broadcast.game_ended(game.pk, status=status, reason=reason)
    broadcast.salle_changed()


def _result_expression(game: Game):
    if game.winning_team is None:
        return Value(GameSeat.Result.CANCELLED)
    winners = [game.winning_team, game.winning_team + 2]
    return Case(
        When(number__in=winners, then=Value(GameSeat.Result.WON)),
        default=Value(GameSeat.Result.LOST),
    )


def _lock_game_to_play(game_id, *, table_id=None) -> Game:
    try:
        if table_id is None:
            game = locks.game_to_play(game_id=int(game_id))
        else:
            game = locks.game_to_play(table_id=int(table_id))
    except (TypeError, ValueError):
        game = None
    if game is None:
        raise NotSeated(vocabulary.NOT_SEATED)
    return game


def _seat_number(game: Game, user) -> int:
    number = selectors.seat_number(game, user)
    if number is None:
        raise NotSeated(vocabulary.NOT_SEATED)
    return number
