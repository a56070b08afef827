"""The revanche: at the end of a partie, one of its players offers the same four a new partie;
each accepts or declines, live for all, and when all have accepted the new table opens through
games.services.salle (so its checks and its seeds apply).

Its lapse is hurried by a task and the sweep is its safety net; both call
`revanche_lapse_if_due`. Every write locks the revanche row first, before the table and the
users its start locks. The rules of the offer: docs/services.md (« The revanche »).
"""

import logging
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import ratelimit
from games import broadcast, engine, vocabulary
from games.models import SEAT_COUNT, Game, GameSeat, Revanche, Seat, SeedOrigin
from games.services import locks, pending_shuffle, robots, salle
from games.services.errors import SalleError

log = logging.getLogger(__name__)

#: Enqueued by name: nothing imports games.tasks.
LAPSE_CHECK = "games.tasks.revanche_lapse"
YES, NO, WAITING = "yes", "no", ""
#: Per player and partie, revanches offered: a declined offer may be made again, a few times,
#: not in a loop that keeps the other three's pages flashing.
REVANCHE_OFFERS = ratelimit.Limit("revanche-offers", count=3, seconds=600)


class RevancheError(SalleError):
    """A revanche write refused (answered with the table's regions and a flash)."""


def revanche_offer(
    *,
    user,
    table_id: int,
    partner_id: int | None = None,
    client_seed: str | None = None,
    shown_commitment: str | None = None,
) -> Revanche:
    """`user`, a player of the table's finished partie, offers a revanche with `partner_id`
    (one of the other three; None: the same partner as before) facing them. The new table's
    secret is committed now: the one whose commitment the offer form showed the offerer
    (`shown_commitment`, games.services.pending_shuffle), which the offer then shows the
    others; the offerer's `client_seed` comes with the offer, each other person's with their
    « oui » (docs/FAIR-SHUFFLE.md, protocol 1.1)."""
    seed, origin = salle.person_seed(client_seed)
    game = Game.objects.filter(table_id=table_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        raise RevancheError(_("La revanche se propose à la fin d’une partie menée à terme."))
    seats = list(GameSeat.objects.filter(game=game).order_by("number"))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise RevancheError(_("Seuls les joueurs de la partie peuvent proposer une revanche."))
    key = f"{user.pk}:{game.pk}"
    if ratelimit.hit(REVANCHE_OFFERS, key):
        minutes = -(-ratelimit.retry_after(REVANCHE_OFFERS, key) // 60)
        raise RevancheError(
            _("Vous avez déjà proposé plusieurs revanches : réessayez dans %(minutes)d min.")
            % {"minutes": minutes}
        )
    order = _proposed_order(seats, mine, partner_id)
    now = timezone.now()
    with transaction.atomic():
        revanche = _lock_or_create(game, user, now)
        if revanche.status == Revanche.Status.OPEN and revanche.expires_at > now:
            raise RevancheError(_("Une revanche est déjà proposée : répondez-y."))
        if revanche.status == Revanche.Status.STARTED:
            raise RevancheError(_("La revanche a déjà commencé."))
        robots = [n for n, seat in enumerate(order) if seat.robot]
        server_seed = pending_shuffle.take(user, shown_commitment)
        revanche.server_seed = server_seed.hex()
        revanche.commitment = engine.commitment(server_seed)
        revanche.client_seeds = [seed if origin == SeedOrigin.PERSON else "", "", "", ""]
        revanche.host = user
        revanche.seats = [seat.user_id for seat in order]
        revanche.robots = robots
        revanche.answers = [YES if n == 0 or n in robots else WAITING for n in range(SEAT_COUNT)]
        revanche.status, revanche.reason, revanche.table = Revanche.Status.OPEN, {}, None
        revanche.expires_at = now + timedelta(seconds=settings.REVANCHE_SECONDS)
        revanche.save()
        broadcast.revanche_changed(game.pk)
        _start_if_all_accepted(revanche, game)
        if revanche.status == Revanche.Status.OPEN:
            revanche_id, due = revanche.pk, revanche.expires_at
            transaction.on_commit(lambda: _schedule_lapse(revanche_id, due))
    return revanche


def revanche_answer(
    *, user, table_id: int, accept: bool, client_seed: str | None = None
) -> Revanche:
    """A player accepts or declines the open revanche of this table's partie. A "yes" carries
    the player's seed for the new table (`client_seed`, from their browser after the offer
    showed the commitment; blank: drawn by the site at the start, recorded so). The last "yes"
    starts the new partie; a "no" ends the offer."""
    seed, origin = salle.person_seed(client_seed) if accept else ("", SeedOrigin.SITE)
    game = Game.objects.filter(table_id=table_id).first()
    if game is None:
        raise RevancheError(_("Aucune revanche n’est proposée à cette table."))
    now = timezone.now()
    with transaction.atomic():
        revanche = locks.revanche(game.pk)
        if revanche is None or revanche.status != Revanche.Status.OPEN:
            raise RevancheError(_("Aucune revanche n’est proposée à cette table."))
        expired = revanche.expires_at <= now
        if expired:  # the task or the sweep is on its way: the lapse is saved now all the same
            _lapse(revanche, game, vocabulary.revanche_lapse("expired"))
        elif user.pk not in revanche.seats:
            raise RevancheError(_("Seuls les joueurs de la partie peuvent répondre."))
        elif revanche.answers[revanche.seats.index(user.pk)] != WAITING:
            raise RevancheError(_("Vous avez déjà répondu."))
        elif not accept:
            revanche.answers[revanche.seats.index(user.pk)] = NO
            _lapse(revanche, game, vocabulary.revanche_lapse("declined", name=user.username))
        else:
            number = revanche.seats.index(user.pk)
            revanche.answers[number] = YES
            if origin == SeedOrigin.PERSON and len(revanche.client_seeds) == SEAT_COUNT:
                revanche.client_seeds[number] = seed
            revanche.save(update_fields=["answers", "client_seeds"])
            broadcast.revanche_changed(game.pk)
            _start_if_all_accepted(revanche, game)
    if expired:
        raise RevancheError(_("L’offre de revanche a expiré."))
    return revanche


def revanche_lapse_if_due(*, game_id: int | None = None, revanche_id: int | None = None, now=None):
    """Lapse an open offer past its `expires_at`. Idempotent; the lapsed revanche or None."""
    now = now or timezone.now()
    if game_id is None:
        game_id = Revanche.objects.filter(pk=revanche_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return None
    with transaction.atomic():
        revanche = locks.revanche(game_id)
        if revanche is None or revanche.status != Revanche.Status.OPEN:
            return None
        if revanche.expires_at > now:
            return None
        _lapse(revanche, revanche.game, vocabulary.revanche_lapse("expired"))
    return revanche


def _proposed_order(seats: list[GameSeat], mine: GameSeat, partner_id: int | None):
    """The four old seats in the new order: the offerer, then the others with `partner_id`
    facing the offerer (seat 2); the other two keep their turn order."""
    others = [seats[(mine.number + k) % SEAT_COUNT] for k in (1, 2, 3)]
    partner = others[1]
    if partner_id is not None:
        partner = next((s for s in others if s.user_id == partner_id), None)
        if partner is None:
            raise RevancheError(_("Choisissez votre partenaire parmi les joueurs de la partie."))
    opponents = [s for s in others if s is not partner]
    return [mine, opponents[0], partner, opponents[1]]


def _lock_or_create(game: Game, user, now) -> Revanche:
    revanche = locks.revanche(game.pk)
    if revanche is not None:
        return revanche
    try:
        with transaction.atomic():
            return Revanche.objects.create(
                game=game,
                host=user,
                seats=[],
                answers=[],
                status=Revanche.Status.LAPSED,
                expires_at=now,
            )
    except IntegrityError:  # offered by another player at the same instant: theirs is kept
        return locks.revanche(game.pk)


def _lapse(revanche: Revanche, game: Game, reason: dict) -> None:
    revanche.status, revanche.reason = Revanche.Status.LAPSED, reason
    revanche.save(update_fields=["status", "reason", "answers"])
    broadcast.revanche_changed(game.pk)


def _start_if_all_accepted(revanche: Revanche, game: Game) -> None:
    """All said yes: open the new table (private: it is theirs), seat the four in the proposed
    order, start it, all in one savepoint. A player who sat elsewhere meanwhile (or was
    suspended) makes the offer lapse, naming them; nothing of the new table stays."""
    if any(answer != YES for answer in revanche.answers):
        return
    users = {u.pk: u for u in _users(revanche.seats)}
    seeds = revanche.client_seeds if len(revanche.client_seeds) == SEAT_COUNT else [""] * 4
    committed = bytes.fromhex(revanche.server_seed) if revanche.server_seed else None
    levels = (
        {s.user_id: s.robot_level for s in game.seats.all() if s.robot} if revanche.robots else {}
    )
    current = None
    try:
        with transaction.atomic():
            current = users[revanche.seats[0]]
            table = salle.table_create(
                user=current,
                kings=game.kings,
                clock=game.table.clock,
                private=True,
                spectators=game.table.spectators,
                client_seed=seeds[0] or None,
                server_seed=committed,
            )
            for number in range(1, SEAT_COUNT):
                current = users[revanche.seats[number]]
                if number in revanche.robots:
                    # the robot keeps the level it played the partie at
                    level = levels.get(current.pk) or robots.robot_level(None)
                    robots.robot_seat_insert(table, current, number, level)
                else:
                    salle.seat_take(
                        user=current,
                        table_id=table.pk,
                        number=number,
                        invite_token=table.invite_token,
                        client_seed=seeds[number] or None,
                    )
            current = users[revanche.seats[0]]
            table = salle.table_start(user=current, table_id=table.pk)
    except SalleError as error:
        log.info("revanche %s not started for user %s: %s", revanche.pk, current, error.message)
        _lapse(revanche, game, _start_failure(current))
        return
    revanche.status, revanche.table = Revanche.Status.STARTED, table
    revanche.save(update_fields=["status", "table"])
    broadcast.revanche_changed(game.pk, table_id=table.pk)


def _start_failure(user) -> dict:
    """Why the revanche could not start for `user`, as a code every reader reads in their own
    language (the refusal itself spoke to `user` as « vous »)."""
    name = user.username if user else "?"
    users = get_user_model().objects
    if user is not None and not users.filter(pk=user.pk, is_active=True).exists():
        return vocabulary.revanche_lapse("suspended", name=name)
    if user is not None and Seat.objects.filter(user=user, active=True).exists():
        return vocabulary.revanche_lapse("seated_elsewhere", name=name)
    return vocabulary.revanche_lapse("not_started", name=name)


def _users(user_ids):
    return get_user_model().objects.filter(pk__in=user_ids)


def _schedule_lapse(revanche_id: int, due) -> None:
    try:
        current_app.send_task(LAPSE_CHECK, args=(revanche_id,), eta=due)
    except Exception:
        log.warning("revanche %s: the lapse was not queued; the sweep will do it", revanche_id)


def lapsed_due(*, now) -> int:
    """The sweep's step: lapse every open offer past its time."""
    due = Revanche.objects.filter(status=Revanche.Status.OPEN, expires_at__lte=now)
    return sum(
        revanche_lapse_if_due(game_id=game_id, now=now) is not None
        for game_id in due.values_list("game_id", flat=True)
    )
