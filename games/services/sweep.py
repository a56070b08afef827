"""The beat's safety net, every SWEEP_SECONDS (games.tasks.sweep_abandoned). It never ends a
game itself: each step goes through the same guarded, idempotent services as everything else."""

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.postgres.aggregates import ArrayAgg
from django.utils import timezone

from games.models import Game, GameSeat, Table
from games.services import deadlines, presence, revanche, robots, salle, time_outs

#: A robot's decision not made this long after its pause (its task lost: the broker was down,
#: the worker died) is the sweep's to make.
ROBOT_STALL_SECONDS = 10

log = logging.getLogger(__name__)


def sweep(*, now=None) -> dict[str, int]:
    """The beat task's work, every SWEEP_SECONDS: expire silent sockets, decide for the seats
    whose turn clock ran out (a lost task, a dead worker), make the robots' decisions whose task
    was lost, cancel the seats whose deadline passed, the games idle for too long, close the
    open tables nobody looks at, lapse the revanche offers past their time.
    Each step goes through the same guarded services as everything else."""
    now = now or timezone.now()
    expired = presence.connections_expire(now=now)
    clocks = Game.objects.filter(turn_deadline__lte=now).values_list("pk", flat=True)
    timed_out = sum(time_outs.turn_time_out(game_id=pk, now=now) for pk in clocks)
    stalled_since = now - timedelta(seconds=settings.ROBOT_PAUSE_SECONDS + ROBOT_STALL_SECONDS)
    # Read without a lock; only a game whose turn is a robot's is locked (robot_play checks
    # again under the lock): idle practice tables waiting on their person cost nothing each.
    stalled = (
        Game.objects.filter(
            status=Game.Status.PLAYING, last_action_at__lte=stalled_since, seats__robot=True
        )
        .annotate(robot_seats=ArrayAgg("seats__number"))
        .values_list("pk", "version", "state", "robot_seats")
    )
    robot_moves = sum(
        robots.robot_play(game_id=pk, version=version)
        for pk, version, state, robot_seats in stalled
        if robots.robot_seat_to_act(state, robot_seats) is not None
    )
    due = GameSeat.objects.filter(deadline__lte=now).values_list("pk", flat=True)
    abandoned = sum(
        deadlines.game_cancel_if_abandoned(seat_id=pk, now=now) is not None for pk in due
    )
    idle_since = now - timedelta(minutes=settings.GAME_IDLE_MINUTES)
    idle_games = Game.objects.filter(status=Game.Status.PLAYING, last_action_at__lte=idle_since)
    idle = sum(
        deadlines.game_cancel_if_idle(game_id=pk, now=now) is not None
        for pk in idle_games.values_list("pk", flat=True)
    )
    unseen_since = now - timedelta(minutes=settings.OPEN_TABLE_IDLE_MINUTES)
    # A tournament's table waits for its four on the tournament's page: its own rule ends it.
    unseen = Table.objects.filter(
        status=Table.Status.OPEN, last_seen__lte=unseen_since, tournament_partie__isnull=True
    )
    closed = sum(
        salle.table_close_if_idle(table_id=pk, now=now) is not None
        for pk in unseen.values_list("pk", flat=True)
    )
    lapsed = revanche.lapsed_due(now=now)
    counts = {
        "expired": expired,
        "timed_out": timed_out,
        "robot_moves": robot_moves,
        "abandoned": abandoned,
        "idle": idle,
        "closed": closed,
        "revanches_lapsed": lapsed,
    }
    if any(counts.values()):
        log.info("sweep: %s", counts)
    return counts
