"""Presence at the live table, and the end of abandoned games and tables.

A seat's open table sockets are its SeatConnection rows. When the last one goes (closed, or
silent past HEARTBEAT_LIMIT_SECONDS), the seat is away until its `deadline` (now +
SEAT_GRACE_SECONDS): a Celery task is scheduled for the deadline, on commit (at most one per
seat per grace period; the sweep takes the absences past that). A (re)connection
from any tab or device bumps the seat's `presence_epoch` and clears the deadline. The task and
the beat sweep (games.tasks) call the same idempotent service, `game_cancel_if_abandoned`,
which cancels through `play.game_finish` only if that same absence is still open. Deadlines
live in the database; the task only hurries them, the sweep is the safety net (lost task, dead
worker, restarted Redis). Never a revoke.

Each row names the web process holding its socket (WebProcess). A process writes its
sockets' heartbeats and its own "alive" once a second (games.heartbeats, `server_alive`); when
it dies without closing its sockets (killed, crashed, restarted), the sweep finds it silent past
WEB_PROCESS_LIMIT_SECONDS and drops its rows at once. The absence of a seat left without a
socket that way starts when its process was last known alive, so the 60 seconds are the
player's, not the time the site took to notice.

Every write locks the game row first (as games.play does), so presence and play are
serialized per game.
"""

import logging
import math
import os
import socket
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from games import broadcast, labels, play, services
from games.models import Game, GameSeat, SeatConnection, Table, WebProcess
from musweb import ratelimit

log = logging.getLogger(__name__)


_server_id: tuple[int, str] | None = None


def server_id() -> str:
    """This process's name on its SeatConnection rows: host, pid and a random part (a pid is
    reused after a restart)."""
    global _server_id
    if _server_id is None or _server_id[0] != os.getpid():
        name = f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        _server_id = (os.getpid(), name)
    return _server_id[1]


def server_alive(*, server: str, heard=(), now=None) -> set[str]:
    """A web process is alive and its sockets `heard` sent a heartbeat since the last call: an
    upsert, a SELECT and an UPDATE, whatever the number of sockets. Returns the channel names
    whose row is gone (the sweep took the socket for dead): the consumer records them again."""
    now = now or timezone.now()
    with transaction.atomic():
        _process_alive(server, now)
        heard = set(heard)
        if not heard:
            return set()
        found = SeatConnection.objects.filter(channel_name__in=heard)
        kept = set(found.values_list("channel_name", flat=True))
        found.update(last_seen=now)
    return heard - kept


def _process_alive(server: str, now) -> None:
    WebProcess.objects.bulk_create(
        [WebProcess(id=server, started_at=now, last_seen=now)],
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=["last_seen"],
    )


def seat_connect(*, game_id: int, user, channel_name: str, server: str | None = None, now=None):
    """Record an open table socket of `user` in game `game_id` (a new tab, a reload, a
    reconnection), held by the web process `server` (this one by default). A seat that was
    away is back: everyone's countdown disappears. Returns False (nothing recorded) if the game
    is over or the user does not play in it."""
    now = now or timezone.now()
    server = server or server_id()
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = GameSeat.objects.filter(game=game, user=user).first() if game else None
        if seat is None or game.status != Game.Status.PLAYING:
            return False
        _process_alive(server, now)
        SeatConnection.objects.update_or_create(
            channel_name=channel_name,
            defaults={
                "game_seat": seat,
                "server_id": server,
                "connected_at": now,
                "last_seen": now,
            },
        )
        was_away = seat.deadline is not None
        seat.presence_epoch += 1
        seat.away_since = seat.deadline = None
        seat.save(update_fields=["presence_epoch", "away_since", "deadline"])
        if was_away:
            broadcast.presence_changed(game.pk)
    return True


def seat_disconnect(*, channel_name: str, now=None):
    """A table socket closed. If it was its seat's last one, the seat is away: returns the
    deadline (else None)."""
    found = (
        SeatConnection.objects.filter(channel_name=channel_name)
        .values_list("game_seat_id", "game_seat__game_id")
        .first()
    )
    if found is None:
        return None
    seat_id, game_id = found
    return _close_connections(game_id, seat_id, Q(channel_name=channel_name), now)


def connections_expire(*, now=None) -> int:
    """Delete the sockets silent past HEARTBEAT_LIMIT_SECONDS (a dead link may never send a
    close) and those of web processes silent past WEB_PROCESS_LIMIT_SECONDS (dead); a seat left
    without any is away. Returns how many were deleted."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.HEARTBEAT_LIMIT_SECONDS)
    silent = SeatConnection.objects.filter(last_seen__lt=limit).values_list(
        "pk", "game_seat_id", "game_seat__game_id"
    )
    for pk, seat_id, game_id in silent:
        # Guarded: a heartbeat that came in meanwhile keeps the socket.
        _close_connections(game_id, seat_id, Q(pk=pk, last_seen__lt=limit), now)
    dead = _dead_process_rows(now).values_list("game_seat_id", "game_seat__game_id").distinct()
    for seat_id, game_id in dead:
        # No socket of its own closed (an empty `which`): only its dead process's rows go.
        _close_connections(game_id, seat_id, Q(pk__in=[]), now)
    WebProcess.objects.filter(last_seen__lt=_process_limit(now), connections=None).delete()
    return len(silent) + len(dead)


def _process_limit(now):
    return now - timedelta(seconds=settings.WEB_PROCESS_LIMIT_SECONDS)


def _dead_process_rows(now):
    return SeatConnection.objects.filter(server__last_seen__lt=_process_limit(now))


def _close_connections(game_id: int, seat_id: int, which: Q, now):
    """Delete the `which` sockets of a seat, and any of its sockets whose web process is dead.
    A seat left with none is away: from now if `which` closed, else from when its dead web
    process was last alive."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock_game(game_id)
        deleted, _ = SeatConnection.objects.filter(which, game_seat_id=seat_id).delete()
        orphans = _dead_process_rows(now).filter(game_seat_id=seat_id)
        gone_since = now if deleted else orphans.aggregate(at=Max("server__last_seen"))["at"]
        deleted += orphans.delete()[0]
        if not deleted or game is None or game.status != Game.Status.PLAYING:
            return None
        if SeatConnection.objects.filter(game_seat_id=seat_id).exists():
            return None  # another tab or device of the same player is still there
        seat = GameSeat.objects.get(pk=seat_id)
        if seat.deadline is not None:
            return seat.deadline
        seat.away_since = gone_since
        seat.deadline = gone_since + timedelta(seconds=settings.SEAT_GRACE_SECONDS)
        seat.save(update_fields=["away_since", "deadline"])
        broadcast.presence_changed(game.pk)
        epoch, deadline = seat.presence_epoch, seat.deadline
        transaction.on_commit(lambda: _schedule_check(seat_id, epoch, deadline))
    return deadline


def _schedule_check(seat_id: int, epoch: int, deadline) -> None:
    """Hurry the deadline with a task due then, at most once per seat per grace period: a
    socket opened and closed in a loop would otherwise queue a task per cycle. An absence that
    gets no task of its own (or whose task the broker could not take) is the sweep's: it finds
    the passed deadline all the same, within SWEEP_SECONDS."""
    from games import tasks

    once = ratelimit.Limit("seat-abandon-check", 1, max(math.ceil(settings.SEAT_GRACE_SECONDS), 1))
    if ratelimit.hit(once, str(seat_id)):
        return
    try:
        tasks.cancel_if_abandoned.apply_async((seat_id, epoch), eta=deadline)
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
        game = _lock_game(game_id)
        seat = GameSeat.objects.select_related("user").get(pk=seat_id)
        if not _absence_expired(game, seat, epoch, now):
            return None
        reason = labels.ABANDONED % {"name": seat.user.username}
        return play.game_finish(game=game, status=Game.Status.CANCELLED, reason=reason)


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
        game = _lock_game(game_id)
        if game is None or game.status != Game.Status.PLAYING:
            return None
        if game.last_action_at > now - timedelta(minutes=minutes):
            return None
        reason = labels.IDLE_GAME % {"minutes": _minutes_text(minutes)}
        return play.game_finish(game=game, status=Game.Status.CANCELLED, reason=reason)


def sweep(*, now=None) -> dict[str, int]:
    """The beat task's work, every SWEEP_SECONDS: expire silent sockets, cancel the seats whose
    deadline passed, the games idle for too long, close the open tables nobody looks at.
    Each step goes through the same guarded services as everything else."""
    now = now or timezone.now()
    expired = connections_expire(now=now)
    due = GameSeat.objects.filter(deadline__lte=now).values_list("pk", flat=True)
    abandoned = sum(game_cancel_if_abandoned(seat_id=pk, now=now) is not None for pk in due)
    idle_since = now - timedelta(minutes=settings.GAME_IDLE_MINUTES)
    idle_games = Game.objects.filter(status=Game.Status.PLAYING, last_action_at__lte=idle_since)
    idle = sum(
        game_cancel_if_idle(game_id=pk, now=now) is not None
        for pk in idle_games.values_list("pk", flat=True)
    )
    unseen_since = now - timedelta(minutes=settings.OPEN_TABLE_IDLE_MINUTES)
    unseen = Table.objects.filter(status=Table.Status.OPEN, last_seen__lte=unseen_since)
    closed = sum(
        services.table_close_if_idle(table_id=pk, now=now) is not None
        for pk in unseen.values_list("pk", flat=True)
    )
    counts = {"expired": expired, "abandoned": abandoned, "idle": idle, "closed": closed}
    if any(counts.values()):
        log.info("sweep: %s", counts)
    return counts


def presence_seconds(game: Game, *, now=None) -> dict[int, int]:
    """{seat number: whole seconds left} for the away seats of a game (seats prefetched)."""
    now = now or timezone.now()
    return {
        seat.number: max(0, math.ceil((seat.deadline - now).total_seconds()))
        for seat in game.seats.all()
        if seat.deadline is not None
    }


def _minutes_text(minutes: float) -> str:
    return str(int(minutes)) if float(minutes).is_integer() else f"{minutes:g}"


def _lock_game(game_id: int) -> Game | None:
    return Game.objects.select_for_update().filter(pk=game_id).first()
