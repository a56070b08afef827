"""Every write of the salle (live play's writes are in games.services.play). Each runs in one
transaction that first locks the table row (games.services.locks), so two players acting on one
table are served one after the other.

A player's own clicks are rate-limited (`salle_write_count`, called by the views, not here:
a ban frees the seat through these services whatever the player's count). A table left by its
last player before any game is deleted, not kept closed: only a table that was played at is
worth keeping."""

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast
from games.models import SEAT_COUNT, Seat, Table
from games.services import invitations, locks, play
from games.services.errors import SalleError
from musweb import ratelimit

#: Per player, every salle write (open, sit, move, leave, start): far above what a person
#: clicks, and each costs a transaction plus a render for every open salle.
SALLE_WRITES = ratelimit.Limit("salle-writes", count=30, seconds=60)
#: Per player, tables opened.
TABLE_OPENINGS = ratelimit.Limit("salle-table-openings", count=10, seconds=600)


def salle_write_count(*, user, opening: bool = False) -> None:
    """Count one salle write of `user` (`opening`: a table opened), refused past the limits."""
    for limit in (SALLE_WRITES, TABLE_OPENINGS) if opening else (SALLE_WRITES,):
        if ratelimit.hit(limit, user.pk):
            seconds = ratelimit.retry_after(limit, user.pk)
            raise SalleError(
                _("Trop d’actions dans la salle : réessayez dans %(seconds)d s.")
                % {"seconds": seconds}
            )


def table_create(*, user, kings: int, clock: str | None = None, private: bool = False) -> Table:
    """Open a table with the given modality and turn clock (a Table.Clock value; None: the
    TURN_CLOCK_DEFAULT); the host sits at seat 0. A `private` table is not listed: it gets an
    invitation token (games.services.invitations)."""
    if kings not in Table.Kings.values:
        raise SalleError(_("Choisissez une modalité : 4 rois ou 8 rois."))
    clock = settings.TURN_CLOCK_DEFAULT if clock is None else clock
    if clock not in Table.Clock.values:
        raise SalleError(_("Choisissez un temps de jeu : rapide, normal ou lent."))
    with transaction.atomic():
        _lock_user(user)
        _check_not_seated_elsewhere(user)
        table = Table.objects.create(
            host=user,
            kings=kings,
            clock=clock,
            private=private,
            invite_token=invitations.new_token() if private else None,
        )
        _insert_seat(table=table, user=user, number=0)
        broadcast.salle_changed()
    return table


def seat_take(*, user, table_id: int, number: int, invite_token: str | None = None) -> Seat:
    """Sit at a free seat of an open table, or move there from another seat of the same table.
    A private table takes a newcomer only with its current `invite_token`."""
    if not isinstance(number, int) or not 0 <= number < SEAT_COUNT:
        raise SalleError(_("Cette place n’existe pas."))
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_open(table)
        _lock_user(user)
        seats = {seat.number: seat for seat in table.seats.all()}
        mine = next((s for s in seats.values() if s.user_id == user.pk), None)
        if mine is None and table.private:
            invitations.check_token(table, invite_token)
        if mine is None and len(seats) >= SEAT_COUNT:
            raise SalleError(_("Cette table est complète."))
        if mine is not None and mine.number == number:
            raise SalleError(_("Vous êtes déjà à cette place."))
        if number in seats:
            raise SalleError(_("Cette place vient d’être prise par quelqu’un d’autre."))
        if mine is not None:
            mine.number = number
            mine.save(update_fields=["number"])
            seat = mine
        else:
            _check_not_seated_elsewhere(user)
            seat = _insert_seat(table=table, user=user, number=number)
        broadcast.salle_changed()
    return seat


def seat_leave(*, user, table_id: int) -> Table:
    """Leave an unstarted table. A leaving host hands over to the next seated player
    (in seat order); the last one to leave deletes the table (nothing was played there)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_open(table)
        seats = list(table.seats.order_by("number"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise SalleError(_("Vous n’êtes pas assis à cette table."))
        mine.delete()
        others = [s for s in seats if s.pk != mine.pk]
        if not others:
            # An open table has no game yet, so nothing refers to it any more.
            table.delete()
            table.status = Table.Status.CLOSED
        else:
            if table.host_id == user.pk:
                after = [s for s in others if s.number > mine.number] or others
                table.host_id = after[0].user_id
            table.save(update_fields=["status", "host", "updated"])
        broadcast.salle_changed()
    return table


def table_start(*, user, table_id: int, decks=None, first_mano: int | None = None) -> Table:
    """The host starts a full table: the game is dealt in the same transaction and every
    seated player goes to the table page. `decks` and `first_mano`: for tests only."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_can_start(table, user)
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status", "updated"])
        play.game_create(table=table, decks=decks, first_mano=first_mano)
        broadcast.salle_changed(started_table_id=table.pk)
    return table


def tables_seen_by(user_ids, *, now=None) -> int:
    """These users have the salle open: the open tables where they sit are being looked at.
    One UPDATE whatever their number (SalleConsumer on connect and disconnect; their
    heartbeats, written once a second by games.heartbeats)."""
    now = now or timezone.now()
    seated = Seat.objects.filter(user_id__in=list(user_ids), active=True).values("table_id")
    return Table.objects.filter(pk__in=seated, status=Table.Status.OPEN).update(last_seen=now)


def table_close_if_idle(*, table_id: int, now=None) -> Table | None:
    """Close an open table none of whose players has had the salle open for
    OPEN_TABLE_IDLE_MINUTES: its seats are freed. Idempotent; None if nothing was done."""
    now = now or timezone.now()
    with transaction.atomic():
        table = locks.table(table_id)
        limit = now - timedelta(minutes=settings.OPEN_TABLE_IDLE_MINUTES)
        if table is None or table.status != Table.Status.OPEN or table.last_seen > limit:
            return None
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status", "updated"])
        Seat.objects.filter(table=table).update(active=False)
        broadcast.salle_changed()
    return table


def _check_can_start(table: Table, user) -> None:
    _check_open(table)
    if table.host_id != user.pk:
        raise SalleError(_("Seul l’hôte de la table peut lancer la partie."))
    if table.seats.count() != SEAT_COUNT:
        raise SalleError(_("Il faut quatre joueurs assis pour lancer la partie."))


def _lock_table(table_id) -> Table:
    try:
        table = locks.table(int(table_id))
    except (TypeError, ValueError):
        table = None
    if table is None:
        raise SalleError(_("Cette table n’existe pas."))
    return table


def _lock_user(user) -> None:
    """Serialize one player's own actions (two tables created at once, two seats taken), and
    refuse them once the account is suspended: a request already on its way when the ban
    committed reads the ban here, under the lock (moderation.services.user_ban)."""
    locked = locks.user(user.pk)
    if locked is None or not locked.is_active:
        raise SalleError(_("Votre compte est suspendu."))


def _check_open(table: Table) -> None:
    if table.status == Table.Status.PLAYING:
        raise SalleError(_("La partie a déjà commencé à cette table."))
    if table.status != Table.Status.OPEN:
        raise SalleError(_("Cette table est fermée."))


def _check_not_seated_elsewhere(user) -> None:
    if Seat.objects.filter(user=user, active=True).exists():
        raise SalleError(
            _("Vous êtes déjà assis à une table : quittez-la avant d’en rejoindre une autre.")
        )


def _insert_seat(*, table: Table, user, number: int) -> Seat:
    """Insert under a savepoint: the database constraints are the last word on a race."""
    try:
        with transaction.atomic():
            return Seat.objects.create(table=table, user=user, number=number)
    except IntegrityError:
        raise SalleError(
            _("Vous êtes déjà assis à une table : quittez-la avant d’en rejoindre une autre.")
        ) from None
