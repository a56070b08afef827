"""The decisions the site makes for the seats whose clock ran out (docs/rules.md section 10).

A task queued for `Game.turn_deadline` and the beat sweep both call `turn_time_out`, which
plays `engine.timeout_action` through `play.game_play_locked`, the path and version check of a
click: run three times, it applies the decision once. A seat out of time CLOCK_MISSES_LIMIT
decisions in a row cancels the partie (docs/services.md, « The turn clock »).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import engine, vocabulary
from games.models import Game
from games.services import clock, locks, play

log = logging.getLogger(__name__)


def turn_time_out(*, game_id: int, now=None, due_ms: int | None = None) -> int:
    """Make the decision of every seat of the game whose deadline has passed at `now`, in seat
    order (who must act is read again after each), or cancel the partie when that seat's misses
    reach CLOCK_MISSES_LIMIT; then queue the check of the next deadline if none is pending.
    `due_ms`: the deadline a task was queued for, which counts as passed even if the worker's
    timer fired a hair early. Idempotent; returns the number of decisions made (a cancellation
    counts as one)."""
    now = now or timezone.now()
    if due_ms is not None:
        now = max(now, clock.to_datetime(due_ms))
    made = 0
    with transaction.atomic():
        game = locks.game_to_play(game_id=game_id)
        while game is not None and game.status == Game.Status.PLAYING:
            seat = clock.first_due(game.clock, clock.ms(now))
            if seat is None:
                break
            made += 1
            _time_out(game, seat, now)
        if game is not None and game.status == Game.Status.PLAYING:
            _schedule_next(game, now)
    if made:
        log.info("game %s: %d decision(s) out of time", game_id, made)
    return made


def _schedule_next(game: Game, now) -> None:
    """A check that found nothing due (a decision was made in time since it was queued) queues
    the one of the current earliest deadline, unless one is already pending for it."""
    task_at = clock.task_due(game.clock, clock.ms(now))
    if task_at is None:
        return
    game.clock["scheduled"] = task_at
    game.save(update_fields=["clock"])
    play.schedule_turn_time_out(game)


def _time_out(game: Game, seat: int, now) -> None:
    """The decision for the locked `game`'s `seat`, out of time, or the partie cancelled."""
    if seat in game.clock.get("robots", ()):
        # A robot never times out (its clock never runs, games.services.clock); a deadline
        # found on one anyway is dropped, never acted on.
        _drop_deadline(game, seat)
        return
    limit = settings.CLOCK_MISSES_LIMIT
    if game.clock["seats"][seat]["misses"] + 1 >= limit:
        gone = next(s for s in game.seats.all() if s.number == seat)
        reason = vocabulary.end_reason("absent", name=gone.user.username, count=limit)
        # The records count this cancellation against this player only.
        gone.abandoned = True
        gone.save(update_fields=["abandoned"])
        play.game_finish_locked(game=game, status=Game.Status.CANCELLED, reason=reason)
        return
    try:
        action = engine.timeout_action(game.state, seat)
    except engine.IllegalAction:
        # A deadline left on a seat with nothing to do (never written so; kept safe): drop it.
        log.warning("game %s: seat %s had a running clock and no decision", game.pk, seat)
        _drop_deadline(game, seat)
        return
    game.clock = clock.record_timeout(game.clock, game.state, seat, action)
    play.game_play_locked(
        game=game, seat=seat, version=game.version, action=action, timed_out=True, now=now
    )


def _drop_deadline(game: Game, seat: int) -> None:
    game.clock = clock.stopped_seat(game.clock, seat)
    game.turn_deadline = clock.to_datetime(clock.earliest_deadline(game.clock))
    game.save(update_fields=["clock", "turn_deadline", "updated"])
