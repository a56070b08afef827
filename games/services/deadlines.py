"""An away seat's deadline, and the cancellations it (or idleness) leads to.

When a seat's last socket goes (games.services.presence), its `deadline` is now +
SEAT_GRACE_SECONDS and a Celery task is scheduled for then, on commit (at most one per seat per
grace period; the sweep takes the absences past that). The task and the beat sweep
(games.services.sweep) call the same idempotent service, `game_cancel_if_abandoned`, which
cancels through the Finisher (games.services.play) only if that same absence is still open.
Deadlines live in the database; the task only hurries them, the sweep is the safety net (lost
task, dead worker, restarted Redis). Never a revoke.
"""

import logging
import math
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import ratelimit
from games import broadcast, vocabulary
from games.models import Game, GameSeat
from games.services import locks, play

log = logging.getLogger(__name__)

#: Enqueued by name: nothing imports games.tasks (see its docstring).
ABANDONMENT_CHECK = "games.tasks.cancel_if_abandoned"


def absence_start(*, game: Game, seat: GameSeat, gone_since):
    """The locked `game`'s `seat` has no socket left since `gone_since`: its deadline, set now
    unless an absence is already open, and the check scheduled for it after commit. A robot
    holds no socket and is never away: none (never written so; kept safe)."""
    if seat.robot:
        return None
    if seat.deadline is not None:
        return seat.deadline
    seat.away_since = gone_since
    seat.deadline = gone_since + timedelta(seconds=settings.SEAT_GRACE_SECONDS)
    seat.save(update_fields=["away_since", "deadline"])
    broadcast.presence_changed(game.pk)
    seat_id, epoch, deadline = seat.pk, seat.presence_epoch, seat.deadline
    transaction.on_commit(lambda: _schedule_check(seat_id, epoch, deadline))
    return deadline


def _schedule_check(seat_id: int, epoch: int, deadline) -> None:
    """Hurry the deadline with a task due then, at most once per seat per grace period: a
    socket opened and closed in a loop would otherwise queue a task per cycle. An absence that
    gets no task of its own (or whose task the broker could not take) is the sweep's: it finds
    the passed deadline all the same, within SWEEP_SECONDS."""
    once = ratelimit.Limit("seat-abandon-check", 1, max(math.ceil(settings.SEAT_GRACE_SECONDS), 1))
    if ratelimit.hit(once, str(seat_id)):
        return
    try:
        current_app.send_task(ABANDONMENT_CHECK, args=(seat_id, epoch), eta=deadline)
    except Exception:
        log.warning("seat %s: the abandonment check was not queued; the sweep will do it", seat_id)


def game_cancel_if_abandoned(*, seat_id: int, epoch: int | None = None, now=None) -> Game | None:
    """Cancel the seat's game if that same absence is still open: the game is playing, the
    seat's deadline has passed, no socket of the seat came back and (when given) the epoch is
    still `epoch`. Idempotent; returns the cancelled game, or None if nothing was done."""
    now = now or timezone.now()
    game_id = GameSeat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
    if game_id is None:
        return None
    with transaction.atomic():
        game = locks.game(game_id)
        seat = GameSeat.objects.select_related("user").get(pk=seat_id)
        if not _absence_expired(game, seat, epoch, now):
            return None
        reason = vocabulary.end_reason("abandoned", name=seat.user.username)
        # The records count this cancellation against this player only.
        seat.abandoned = True
        seat.save(update_fields=["abandoned"])
        return play.game_finish_locked(game=game, status=Game.Status.CANCELLED, reason=reason)


def _absence_expired(game: Game, seat: GameSeat, epoch: int | None, now) -> bool:
    return (
        game.status == Game.Status.PLAYING
        and seat.deadline is not None
        and seat.deadline <= now
        and (epoch is None or seat.presence_epoch == epoch)
        and not seat.connections.exists()
    )


def game_cancel_if_idle(*, game_id: int, now=None) -> Game | None:
    """Cancel a game where nobody has acted for GAME_IDLE_MINUTES. Idempotent."""
    now = now or timezone.now()
    minutes = settings.GAME_IDLE_MINUTES
    with transaction.atomic():
        game = locks.game(game_id)
        if game is None or game.status != Game.Status.PLAYING:
            return None
        if game.last_action_at > now - timedelta(minutes=minutes):
            return None
        reason = vocabulary.end_reason("idle", minutes=_minutes_text(minutes))
        return play.game_finish_locked(game=game, status=Game.Status.CANCELLED, reason=reason)


def _minutes_text(minutes: float) -> str:
    return str(int(minutes)) if float(minutes).is_integer() else f"{minutes:g}"
