"""Who is at the live table: a seat's open table sockets are its SeatConnection rows, each
naming the web process (WebProcess) that holds its socket.

When the last socket goes, the seat is away and games.services.deadlines takes over; a dead
process's rows are dropped by the sweep, and the absence counts from when it was last known
alive, so the grace period is the player's, not the time the site took to notice. Every write
locks the game row first, so presence and play are serialized per game (docs/services.md,
« Presence »).
"""

import os
import socket
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from games import broadcast
from games.models import Game, GameSeat, SeatConnection, WebProcess
from games.services import deadlines, locks

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
        game = locks.game(game_id)
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
        game = locks.game(game_id)
        deleted, _ = SeatConnection.objects.filter(which, game_seat_id=seat_id).delete()
        orphans = _dead_process_rows(now).filter(game_seat_id=seat_id)
        gone_since = now if deleted else orphans.aggregate(at=Max("server__last_seen"))["at"]
        deleted += orphans.delete()[0]
        if not deleted or game is None or game.status != Game.Status.PLAYING:
            return None
        if SeatConnection.objects.filter(game_seat_id=seat_id).exists():
            return None  # another tab or device of the same player is still there
        seat = GameSeat.objects.get(pk=seat_id)
        return deadlines.absence_start(game=game, seat=seat, gone_since=gone_since)
