"""Every write of the salle (live play's writes are in games.services.play). Each runs in one
transaction that first locks the table row (games.services.locks), so two players acting on one
table are served one after the other.

A player's own clicks are rate-limited (`salle_write_count`, called by the views, not here:
a ban frees the seat through these services whatever the player's count). A table left by its
last player before any game is deleted, not kept closed: only a table that was played at is
worth keeping."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import ratelimit
from games import broadcast, engine, selectors
from games.engine.fairness import FairnessError, check_client_seed
from games.models import SEAT_COUNT, Seat, SeedOrigin, Table
from games.services import invitations, locks, pending_shuffle, play
from games.services.errors import SalleError

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


def table_create(
    *,
    user,
    kings: int,
    clock: str | None = None,
    client_seed: str | None = None,
    min_completion: int | None = None,
    private: bool = False,
    shown_commitment: str | None = None,
    server_seed: bytes | None = None,
    spectators: bool | None = None,
) -> Table:
    """Open a table with the given modality and turn clock (a Table.Clock value; None: the
    TURN_CLOCK_DEFAULT) and, if given, the minimum completion rate (percent, 1 to 100) a
    player needs to sit; the host sits at seat 0 with `client_seed` (None or blank: drawn by
    the site, and recorded so). The table's secret for the verifiable shuffle is the one the
    form showed the commitment of (`shown_commitment`, games.services.pending_shuffle), or
    `server_seed` (a revanche's, committed by its offer); only its commitment is ever shown
    before the partie ends (docs/fair-shuffle.md). A `private` table is not listed: it gets an
    invitation token (games.services.invitations). `spectators`: whether its partie may be
    watched (None: yes at a public table, no at a private one; docs/spectators.md)."""
    seed, origin = person_seed(client_seed)
    if kings not in Table.Kings.values:
        raise SalleError(_("Choisissez une modalité : 4 rois ou 8 rois."))
    clock = settings.TURN_CLOCK_DEFAULT if clock is None else clock
    if clock not in Table.Clock.values:
        raise SalleError(_("Choisissez un temps de jeu : rapide, normal ou lent."))
    if min_completion is not None and (
        not isinstance(min_completion, int) or not 1 <= min_completion <= 100
    ):
        raise SalleError(_("Le taux exigé est un nombre de 1 à 100 (ou rien)."))
    with transaction.atomic():
        _lock_user(user)
        _check_not_seated_elsewhere(user)
        if server_seed is None:
            server_seed = pending_shuffle.take(user, shown_commitment)
        table = Table.objects.create(
            host=user,
            kings=kings,
            clock=clock,
            min_completion=min_completion,
            server_seed=server_seed.hex(),
            commitment=engine.commitment(server_seed),
            private=private,
            invite_token=invitations.new_token() if private else None,
            spectators=not private if spectators is None else spectators,
        )
        _insert_seat(table=table, user=user, number=0, client_seed=seed, origin=origin)
        broadcast.salle_changed()
    return table


def seat_take(
    *,
    user,
    table_id: int,
    number: int,
    client_seed: str | None = None,
    invite_token: str | None = None,
) -> Seat:
    """Sit at a free seat of an open table with `client_seed` (None or blank: the site draws
    one), or move there from another seat of the same table (the seed goes along; changing it
    is `seat_seed_set`). A private table takes a newcomer only with its current
    `invite_token`."""
    if not isinstance(number, int) or not 0 <= number < SEAT_COUNT:
        raise SalleError(_("Cette place n’existe pas."))
    seed, origin = person_seed(client_seed)
    with transaction.atomic():
        table = lock_table(table_id)
        _check_open(table)
        _lock_user(user)
        seats = {seat.number: seat for seat in table.seats.all()}
        mine = next((s for s in seats.values() if s.user_id == user.pk), None)
        if mine is None and table.private:
            invitations.check_token(table, invite_token)
            invitations.check_not_excluded(table, user)
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
            _check_completion(table, user)
            seat = _insert_seat(
                table=table, user=user, number=number, client_seed=seed, origin=origin
            )
        broadcast.salle_changed()
    return seat


def seat_seed_set(*, user, table_id: int, seed: str) -> Seat:
    """Change one's own seed at an open table: the seeds are fixed when the partie starts."""
    seed, _origin = person_seed(seed, required=True)
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status == Table.Status.PLAYING:
            raise SalleError(_("Les graines sont fixées : la partie a commencé."))
        _check_open(table)
        _check_not_site_run(table)
        mine = table.seats.filter(user=user).first()
        if mine is None:
            raise SalleError(_("Vous n’êtes pas assis à cette table."))
        if mine.client_seed != seed or mine.seed_origin != SeedOrigin.PERSON:
            mine.client_seed, mine.seed_origin = seed, SeedOrigin.PERSON
            mine.save(update_fields=["client_seed", "seed_origin"])
            broadcast.salle_changed()
    return mine


def person_seed(seed: str | None, *, required: bool = False) -> tuple[str, str]:
    """A person's seed as given (surrounding spaces dropped) and its origin: their browser's,
    or, when none is given (a form sent without JavaScript), one the site draws, recorded as
    the site's (it proves nothing: docs/FAIR-SHUFFLE.md, protocol 1.1)."""
    seed = (seed or "").strip()
    if not seed and not required:
        return secrets.token_hex(16), SeedOrigin.SITE
    try:
        return check_client_seed(seed), SeedOrigin.PERSON
    except FairnessError:
        raise SalleError(
            _(
                "Une graine compte de 1 à 64 caractères, chiffres et lettres minuscules "
                "sans accent (0-9, a-z)."
            )
        ) from None


def _check_completion(table: Table, user) -> None:
    """The host's minimum completion rate: a player whose own absences or clock cancelled too
    many of their parties may not sit. A player with no ended partie yet may."""
    if table.min_completion is None:
        return
    rate = selectors.completion_rate(user)
    if rate is not None and rate < table.min_completion:
        raise SalleError(
            _(
                "L’hôte demande d’avoir mené à terme au moins %(required)s %% de ses parties ; "
                "vous en êtes à %(rate)s %%."
            )
            % {"required": table.min_completion, "rate": rate}
        )


def seat_leave(*, user, table_id: int) -> Table:
    """Leave an unstarted table. A leaving host hands over to the next seated person (in seat
    order; never a robot); the last person to leave deletes the table, robots and all (nothing
    was played there, and a table of robots only never exists)."""
    with transaction.atomic():
        table = lock_table(table_id)
        _check_open(table)
        _check_not_site_run(table)
        seats = list(table.seats.order_by("number"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise SalleError(_("Vous n’êtes pas assis à cette table."))
        mine.delete()
        others = [s for s in seats if s.pk != mine.pk and not s.robot]
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


def table_start(
    *, user, table_id: int, decks=None, first_mano: int | None = None, by_site: bool = False
) -> Table:
    """The host starts a full table: the game is dealt in the same transaction and every
    seated player goes to the table page. `by_site`: the site starts a table it opened (a
    tournament's, once its four gave their seeds); nobody else may. `decks` and
    `first_mano`: for tests only."""
    with transaction.atomic():
        table = lock_table(table_id)
        _check_can_start(table, user)
        if not by_site:
            _check_not_site_run(table)
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status", "updated"])
        _draw_missing_seeds(table)
        play.game_create(table=table, decks=decks, first_mano=first_mano)
        broadcast.salle_changed(started_table_id=table.pk)
    return table


def tables_seen_by(user_ids, *, now=None) -> int:
    """These users have the salle open: the open tables where they sit are being looked at.
    One UPDATE whatever their number (SalleConsumer on connect and disconnect; their
    heartbeats, written once a second by games.live.heartbeats)."""
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


def table_close_unstarted(*, table_id: int) -> Table | None:
    """Close an open table whose partie will not be played (a tournament's, a player absent):
    its seats are freed, the table kept (a tournament's partie refers to it)."""
    with transaction.atomic():
        table = locks.table(table_id)
        if table is None or table.status != Table.Status.OPEN:
            return None
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status", "updated"])
        Seat.objects.filter(table=table).update(active=False)
        broadcast.salle_changed()
    return table


def site_run(table: Table) -> bool:
    """A table the site opened and starts itself (a tournament's: tournaments.MatchPartie)."""
    return Table.objects.filter(pk=table.pk, tournament_partie__isnull=False).exists()


def _check_not_site_run(table: Table) -> None:
    if site_run(table):
        raise SalleError(
            _(
                "Table de tournoi : on donne sa graine et on la rejoint depuis la page du "
                "tournoi ; le site lance la partie quand les quatre sont là."
            )
        )


def _check_can_start(table: Table, user) -> None:
    _check_open(table)
    if table.host_id != user.pk:
        raise SalleError(_("Seul l’hôte de la table peut lancer la partie."))
    if table.seats.count() != SEAT_COUNT:
        raise SalleError(_("Il faut quatre joueurs assis pour lancer la partie."))


def _draw_missing_seeds(table: Table) -> None:
    """A person's seat with no seed (taken before the verifiable shuffle shipped, or by a
    caller that gave none) gets one drawn by the site, recorded so, before the seeds are
    fixed; a robot's follows the public rule (play.game_create holds it to the rule too)."""
    for seat in table.seats.all():
        if seat.robot and seat.seed_origin != SeedOrigin.ROBOT:
            seat.client_seed = engine.robot_seed(table.commitment, seat.number)
            seat.seed_origin = SeedOrigin.ROBOT
            seat.save(update_fields=["client_seed", "seed_origin"])
        elif not seat.client_seed:
            seat.client_seed, seat.seed_origin = secrets.token_hex(16), SeedOrigin.SITE
            seat.save(update_fields=["client_seed", "seed_origin"])


def lock_table(table_id) -> Table:
    """The table `table_id` locked for this transaction; a French refusal if there is none."""
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


def _insert_seat(*, table: Table, user, number: int, client_seed: str, origin: str) -> Seat:
    """Insert under a savepoint: the database constraints are the last word on a race."""
    try:
        with transaction.atomic():
            return Seat.objects.create(
                table=table, user=user, number=number, client_seed=client_seed, seed_origin=origin
            )
    except IntegrityError:
        raise SalleError(
            _("Vous êtes déjà assis à une table : quittez-la avant d’en rejoindre une autre.")
        ) from None
