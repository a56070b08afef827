"""Every write of live play. Each runs in one transaction that locks the game row
(games.services.locks), so the four players of a game are served one after the other.

A player's click, a robot's decision and the decision made for a seat out of time all go
through the one `game_play_locked`: the same version check, engine call and writes. A game
ends only through `game_finish` (`game_finish_locked` for a caller holding the lock). Each
function: docs/services.md (« Play »).
"""

import logging
import secrets

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast, engine, selectors, signals, vocabulary
from games.models import Game, GameAction, GameSeat, Seat, SeedOrigin, Table
from games.services import clock, locks
from games.services.errors import GameOver, IllegalMove, NotSeated, StaleVersion

log = logging.getLogger(__name__)

#: Enqueued by name: nothing imports games.tasks (see its docstring).
TURN_TIME_OUT = "games.tasks.turn_time_out"
ROBOT_PLAY = "games.tasks.robot_play"


def game_create(*, table: Table, decks=None, first_mano: int | None = None) -> Game:
    """Deal the first hand of a started table (the caller holds the table's row lock).

    A table opened with a secret deals the verifiable shuffle (docs/fair-shuffle.md): the
    first mano and every deck derived from its secret and the four seeds, fixed now, in seat
    order. A table opened before it shipped (no secret) keeps the old randomness (secrets).
    `decks` and `first_mano` are for tests only: a game dealt with them is not derived, so it
    is recorded as dealt with the old randomness too."""
    seats = list(table.seats.all())
    fair = bool(table.server_seed) and decks is None and first_mano is None
    fairness: dict = {}
    if fair:
        ordered = sorted(seats, key=lambda s: s.number)
        seeds = [
            engine.robot_seed(table.commitment, s.number) if s.robot else s.client_seed
            for s in ordered
        ]
        deal = engine.FairDeal(bytes.fromhex(table.server_seed), seeds)
        state = engine.new_partie(
            kings=table.kings, first_mano=deal.first_mano(), shuffler=deal.shuffler()
        )
        fairness = {
            "fairness": Game.FAIRNESS_V1,
            "server_seed": table.server_seed,
            "commitment": table.commitment,
            "client_seeds": seeds,
            "seed_origins": [SeedOrigin.ROBOT if s.robot else s.seed_origin for s in ordered],
        }
    else:
        rng = secrets.SystemRandom()
        if first_mano is None:
            first_mano = rng.randrange(4)
        state = engine.new_partie(
            kings=table.kings, first_mano=first_mano, decks=decks, shuffler=rng
        )
    host_seat = next(seat.number for seat in seats if seat.user_id == table.host_id)
    robots = {seat.number for seat in seats if seat.robot}
    now = timezone.now()
    turn_clock = clock.advance(
        clock.new_clock(table.clock, robots), state, host_seat=host_seat, now=clock.ms(now)
    )
    turn_clock["scheduled"] = clock.task_due(turn_clock, clock.ms(now))
    game = Game.objects.create(
        table=table,
        kings=table.kings,
        state=state,
        version=state["version"],
        last_action_at=now,
        clock=turn_clock,
        turn_deadline=clock.to_datetime(clock.earliest_deadline(turn_clock)),
        **fairness,
    )
    GameSeat.objects.bulk_create(
        GameSeat(
            game=game,
            number=seat.number,
            user_id=seat.user_id,
            robot=seat.robot,
            robot_level=seat.robot_level,
        )
        for seat in seats
    )
    schedule_turn_time_out(game)
    schedule_robot_play(game, robots)
    return game


def game_apply_action(
    *,
    user,
    version: int,
    action: dict,
    table_id: int | None = None,
    game_id: int | None = None,
    known: Game | None = None,
) -> Game:
    """Apply one decision of `user` if it was taken at the current `version`, to the game of
    `table_id` (the table's POST endpoint: no query to find the game first, a table has one
    game) or to the game `game_id`. Returns the game with its table and its seats (and their
    users) prefetched, for the actor's own render. `known`: a copy of that game at hand (the
    web process's cache), reused if it is still the current version (locks.game_to_play_from).
    A caller that acts once the decision is committed, before its broadcast, runs the two
    steps itself in its own transaction (games.decisions.apply)."""
    with transaction.atomic():
        game = game_lock_to_play(table_id=table_id, game_id=game_id, known=known)
        return game_play_as(game=game, user=user, version=version, action=action)


def game_lock_to_play(
    *, table_id: int | None = None, game_id: int | None = None, known: Game | None = None
) -> Game:
    """The first step of `game_apply_action`, in the caller's transaction: the game of
    `table_id` or `game_id` locked with its table and seats, or NotSeated."""
    if (table_id is None) == (game_id is None):
        raise TypeError("game_apply_action needs one of table_id and game_id")
    return _lock_game_to_play(game_id, table_id=table_id, known=known)


def game_play_as(*, game: Game, user, version: int, action: dict) -> Game:
    """The second step of `game_apply_action`: `user`'s decision on the locked `game`."""
    seat = _seat_number(game, user)
    return game_play_locked(game=game, seat=seat, version=version, action=action)


def game_play_locked(
    *, game: Game, seat: int, version: int, action: dict, timed_out: bool = False, now=None
) -> Game:
    """Apply `seat`'s `action` to `game`, locked by the caller with its table and seats
    (locks.game_to_play), if it is playing and still at `version`: the player's click, or
    (`timed_out`) the decision the site makes for a seat whose clock ran out. The clock
    advances in the same UPDATE of the game; the task of its new earliest deadline is queued
    on commit."""
    if game.status != Game.Status.PLAYING:
        raise GameOver(_("La partie est terminée."))
    if version != game.version:
        raise StaleVersion(vocabulary.STALE_VERSION)
    # The engine lets any seat deal (docs/replay.md); at the site the host deals from the score
    # screen, and a forged "deal" from another seat is refused here.
    host_seat = _host_seat(game)
    is_deal = isinstance(action, dict) and action.get("type") == "deal"
    if is_deal and seat != host_seat:
        raise IllegalMove(vocabulary.NOT_HOST_DEAL, "not_host")
    try:
        state = engine.apply(game.state, seat, action, shuffler=shuffler_for(game))
    except engine.IllegalAction as error:
        message = vocabulary.illegal_message(error.code, error.params)
        raise IllegalMove(message, error.code) from None
    now = now or timezone.now()
    game.state, game.version, game.last_action_at = state, state["version"], now
    game.clock = clock.advance(
        game.clock,
        state,
        host_seat=host_seat,
        now=clock.ms(now),
        acted=seat,
        timed_out=timed_out,
        dealt=is_deal,
    )
    game.turn_deadline = clock.to_datetime(clock.earliest_deadline(game.clock))
    task_at = clock.task_due(game.clock, clock.ms(now))
    if task_at is not None:
        game.clock["scheduled"] = task_at
    played = GameAction(
        game=game, seq=game.version, seat=seat, kind=GameAction.Kind.PLAY, payload=action, at=now
    )
    if state["status"] == "finished":
        reason = vocabulary.end_reason("won")
        _finish(game, status=Game.Status.FINISHED, reason=reason, by=None, log=[played])
        return game
    _save_play(game, played)
    broadcast.game_changed(game.pk, game.version)
    if task_at is not None:
        schedule_turn_time_out(game)
    schedule_robot_play(game, {s.number for s in game.seats.all() if s.robot})
    return game


def shuffler_for(game: Game):
    """What shuffles the next deck or reshuffle of `game`: derived for a verifiable game (from
    the stored state alone), secrets for one dealt before the verifiable shuffle."""
    if game.fairness == Game.FAIRNESS_V1:
        deal = engine.FairDeal(bytes.fromhex(game.server_seed), game.client_seeds)
        return deal.shuffler(game.state)
    return secrets.SystemRandom()


#: The game's columns one decision changes: a single UPDATE.
GAME_PLAY_FIELDS = ("state", "version", "last_action_at", "updated", "clock", "turn_deadline")


def _play_sql() -> tuple[str, list, list]:
    """The statement of `_save_play`, and the fields whose values it takes, in order."""
    quote = connection.ops.quote_name
    action_fields = [f for f in GameAction._meta.concrete_fields if not f.primary_key]
    game_fields = [Game._meta.get_field(name) for name in GAME_PLAY_FIELDS]
    sql = (
        f"WITH played AS (INSERT INTO {quote(GameAction._meta.db_table)}"
        f" ({', '.join(quote(f.column) for f in action_fields)})"
        f" VALUES ({', '.join(['%s'] * len(action_fields))}))"
        f" UPDATE {quote(Game._meta.db_table)}"
        f" SET {', '.join(f'{quote(f.column)} = %s' for f in game_fields)}"
        f" WHERE {quote(Game._meta.pk.column)} = %s"
    )
    return sql, action_fields, game_fields


_PLAY_SQL = _play_sql()


def _save_play(game: Game, played: GameAction) -> None:
    """A decision's two writes, the log row INSERTed and the game's GAME_PLAY_FIELDS UPDATEd,
    in one statement built once: at every decision, the ORM's `save()` of each cost more CPU
    than the rest of its writing (the query compiled each time) and one more round trip. The
    values are prepared by the fields themselves, as `save()` prepares them (`updated` set
    now, the JSON adapted). The log row's id is not read back: nothing uses it."""
    sql, action_fields, game_fields = _PLAY_SQL
    values = [f.get_db_prep_save(f.pre_save(played, True), connection) for f in action_fields]
    values += [f.get_db_prep_save(f.pre_save(game, False), connection) for f in game_fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, game.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"game {game.pk}: the decision's UPDATE changed no row")


def _host_seat(game: Game) -> int | None:
    """The host's seat, from the game's table and prefetched seats (no query)."""
    return next((s.number for s in game.seats.all() if s.user_id == game.table.host_id), None)


def schedule_turn_time_out(game: Game) -> None:
    """Queue the check of the game's earliest deadline for then, after commit (the caller
    noted it in the clock's `scheduled`). A task that finds nothing due queues the next one
    (games.services.time_outs); one the broker could not take is the sweep's."""
    if game.turn_deadline is None:
        return
    game_id, deadline = game.pk, game.turn_deadline

    def send():
        try:
            current_app.send_task(TURN_TIME_OUT, args=(game_id, clock.ms(deadline)), eta=deadline)
        except Exception:
            log.warning("game %s: the turn clock's check was not queued; the sweep will", game_id)

    transaction.on_commit(send)


def schedule_robot_play(game: Game, robots: set[int]) -> None:
    """If one of the `robots` seats must act in the game's new state, queue its decision
    (games.services.robots.robot_play) for ROBOT_PAUSE_SECONDS after commit, named by the
    version it was queued at: a task that finds the game moved on does nothing. The score
    screen's deal is the host's, a person's: no robot acts there."""
    state = game.state
    if not robots or state["status"] != "playing" or state["phase"] == "hand_over":
        return
    if not robots.intersection(engine.to_act(state)):
        return
    game_id, version = game.pk, game.version

    def send():
        try:
            current_app.send_task(
                ROBOT_PLAY, args=(game_id, version), countdown=settings.ROBOT_PAUSE_SECONDS
            )
        except Exception:
            log.warning("game %s: the robot's decision was not queued; the sweep will", game_id)

    transaction.on_commit(send)


def game_finish(*, game: Game, status: str, reason: dict | str, by=None) -> Game:
    """End `game` (status "finished" or "cancelled") for `reason` (French, shown to the
    players), `by` a user (a moderator) or None (the system). Idempotent: a game that has
    already ended is returned unchanged."""
    with transaction.atomic():
        locked = _lock_game_to_play(game.pk)
        return game_finish_locked(game=locked, status=status, reason=reason, by=by)


def game_finish_locked(*, game: Game, status: str, reason: dict | str, by=None) -> Game:
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


def _finish(game: Game, *, status: str, reason: dict | str, by, log=()) -> None:
    """End a locked game: one UPDATE of the game, one INSERT into the log (the end row, after
    the pending `log` rows), one UPDATE of its seats' results, the table closed and its seats
    freed, then the broadcasts. `reason`: games.vocabulary.end_reason's code, or a text kept
    as it is written."""
    if isinstance(reason, str):
        reason = {"code": "text", "text": reason} if reason else {}
    now = timezone.now()
    game.status, game.end_reason, game.finished_at = status, reason, now
    game.winning_team = game.state["winner"] if status == Game.Status.FINISHED else None
    game.version += 1
    game.clock, game.turn_deadline = clock.stopped(game.clock), None
    game.save(
        update_fields=[
            *GAME_PLAY_FIELDS,
            *("status", "winning_team", "finished_at", "end_reason"),
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
    # The records (ratings) of the partie, in this same transaction: ended once, counted once.
    signals.partie_ended.send(sender=Game, game=game)
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


def _lock_game_to_play(game_id, *, table_id=None, known: Game | None = None) -> Game:
    if known is not None and (known.pk == game_id or known.table_id == table_id):
        game = locks.game_to_play_from(known)
    else:
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
