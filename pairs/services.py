"""Every write of the parejas: a proposal, its answer, a dissolution, and a pair's seating
(a table opened with both seats of a team theirs, « Jouer maintenant à deux »).

Locks: the pair row first, then what the salle's services lock (the table, then each user);
the proposal, which has no pair row yet, locks its two users in id order. The database's
constraints (Pair's unique ones) are the last word on two proposals or names at once. A
player's proposals are rate-limited (`proposal_count`, called by the views like the salle's
own count)."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core import ratelimit
from games.models import Seat, Table
from games.services import locks, salle
from games.services.errors import SalleError
from pairs import names
from pairs.errors import PairError
from pairs.models import NAME_HOLDING, Pair

#: Per player, pairs proposed: far above the few a person makes, far below a flood of them.
PROPOSALS = ratelimit.Limit("pair-proposals", count=10, seconds=60 * 60)
#: Tables tried by « Jouer maintenant à deux » before opening one.
CANDIDATES = 5


def proposal_count(*, user) -> None:
    """Count one proposal of `user`, refused past PROPOSALS."""
    if ratelimit.hit(PROPOSALS, user.pk):
        seconds = ratelimit.retry_after(PROPOSALS, user.pk)
        raise PairError(
            _("Trop de propositions de pareja : réessayez dans %(minutes)d min.")
            % {"minutes": max(1, round(seconds / 60))}
        )


def pair_propose(*, user, partner_name: str, name: str) -> Pair:
    """`user` proposes to the player named `partner_name` to form the pair `name`."""
    name = names.clean(name)
    names.check(name)
    # Case aside: the user names' look-alike rule makes two names differing only by case
    # impossible, so this finds one player at most.
    partner = (
        get_user_model().objects.filter(username__iexact=str(partner_name or "").strip()).first()
    )
    if partner is None:
        raise PairError(_("Aucun joueur ne porte ce nom."))
    if partner.pk == user.pk:
        raise PairError(_("Une pareja se forme à deux : proposez-la à un autre joueur."))
    if partner.is_robot:
        raise PairError(_("Les robots ne forment pas de pareja."))
    with transaction.atomic():
        first, second = sorted([user.pk, partner.pk])
        locked = {pk: locks.user(pk) for pk in (first, second)}
        if not locked[user.pk].is_active:
            raise PairError(_("Votre compte est suspendu."))
        if not locked[partner.pk].is_active:
            raise PairError(
                _("%(name)s ne peut pas former de pareja : son compte est suspendu.")
                % {"name": partner.username}
            )
        _check_no_current_pair(user, partner)
        skeleton = names.skeleton(name)
        _check_name_free(skeleton)
        try:
            with transaction.atomic():
                return Pair.objects.create(
                    name=name,
                    skeleton=skeleton,
                    slug=names.slug(name),
                    proposer=user,
                    partner=partner,
                )
        except IntegrityError:
            # Another proposal committed between the checks and the insert: say which.
            _check_no_current_pair(user, partner)
            _check_name_free(skeleton)
            raise PairError(_("Cette proposition croise une autre : réessayez.")) from None


def _check_no_current_pair(user, partner) -> None:
    current = Pair.objects.filter(
        Q(proposer=user, partner=partner) | Q(proposer=partner, partner=user),
        status__in=[Pair.Status.PROPOSED, Pair.Status.ACTIVE],
    ).first()
    if current is None:
        return
    if current.status == Pair.Status.ACTIVE:
        raise PairError(
            _("Vous formez déjà la pareja « %(pair)s » avec %(name)s.")
            % {"pair": current.name, "name": partner.username}
        )
    raise PairError(
        _("Une proposition de pareja attend déjà entre vous et %(name)s : « %(pair)s ».")
        % {"pair": current.name, "name": partner.username}
    )


def _check_name_free(skeleton: str) -> None:
    if Pair.objects.filter(skeleton=skeleton, status__in=NAME_HOLDING).exists():
        raise PairError(
            _(
                "Ce nom est déjà pris par une pareja, ou lui ressemble trop : "
                "choisissez-en un autre."
            )
        )


def pair_accept(*, user, pair_id) -> Pair:
    """The invited player accepts: the pair is formed, and counts from the next partie."""
    with transaction.atomic():
        pair = _lock_pair(pair_id)
        if pair is None or user.pk not in pair.member_ids():
            raise PairError(_("Cette proposition de pareja n’existe pas."))
        if pair.status == Pair.Status.ACTIVE:
            raise PairError(_("Cette pareja est déjà formée."))
        if pair.status != Pair.Status.PROPOSED:
            raise PairError(_("Cette proposition n’est plus valable."))
        if user.pk != pair.partner_id:
            raise PairError(
                _("C’est à %(name)s d’accepter cette proposition.")
                % {"name": pair.partner.username}
            )
        _lock_members_active(pair)
        pair.status, pair.accepted_at = Pair.Status.ACTIVE, timezone.now()
        pair.save(update_fields=["status", "accepted_at"])
    return pair


def pair_decline(*, user, pair_id) -> Pair:
    """The invited player declines, or the proposer withdraws: the name is free again."""
    with transaction.atomic():
        pair = _lock_pair(pair_id)
        if pair is None or user.pk not in pair.member_ids():
            raise PairError(_("Cette proposition de pareja n’existe pas."))
        if pair.status != Pair.Status.PROPOSED:
            raise PairError(_("Cette proposition n’est plus en attente."))
        pair.status, pair.ended_at, pair.ended_by = Pair.Status.DECLINED, timezone.now(), user
        pair.save(update_fields=["status", "ended_at", "ended_by"])
    return pair


def pair_dissolve(*, user, pair_id) -> Pair:
    """Either member ends the pair. Its page, record and rating stay; a partie begun before
    counts for it as it ends (pairs.models)."""
    with transaction.atomic():
        pair = _lock_pair(pair_id)
        if pair is None or user.pk not in pair.member_ids():
            raise PairError(_("Vous n’êtes pas membre de cette pareja."))
        if pair.status != Pair.Status.ACTIVE:
            raise PairError(_("Cette pareja n’est pas formée : il n’y a rien à dissoudre."))
        pair.status, pair.ended_at, pair.ended_by = Pair.Status.DISSOLVED, timezone.now(), user
        pair.save(update_fields=["status", "ended_at", "ended_by"])
    return pair


def _lock_pair(pair_id) -> Pair | None:
    try:
        pk = int(pair_id)
    except (TypeError, ValueError):
        return None
    return (
        Pair.objects.select_for_update(of=("self",))
        .select_related("proposer", "partner")
        .filter(pk=pk)
        .first()
    )


def _lock_members_active(pair: Pair) -> None:
    """Both members' rows locked in id order; refused if either was suspended meanwhile."""
    for pk in sorted(pair.member_ids()):
        member = locks.user(pk)
        if member is None or not member.is_active:
            name = pair.proposer if pk == pair.proposer_id else pair.partner
            raise PairError(
                _("%(name)s ne peut pas former de pareja : son compte est suspendu.")
                % {"name": name.username}
            )


# ---------------------------------------------------------------- playing as a pair


def _active_pair_of(user, pair_id) -> Pair:
    """The active pair `pair_id` of `user`, locked: its seating is one write at a time."""
    pair = _lock_pair(pair_id)
    if pair is None or user.pk not in pair.member_ids():
        raise PairError(_("Choisissez une de vos parejas."))
    if pair.status != Pair.Status.ACTIVE:
        raise PairError(_("Cette pareja n’est plus formée."))
    return pair


def _check_both_can_sit(pair: Pair, user) -> None:
    """Neither may be seated at a table already; the partner is named when it is them."""
    if Seat.objects.filter(user=user, active=True).exists():
        raise PairError(
            _("Vous êtes déjà assis à une table : quittez-la avant d’en rejoindre une autre.")
        )
    partner = pair.other(user)
    if not partner.is_active:
        raise PairError(
            _("%(name)s ne peut pas s’asseoir : son compte est suspendu.")
            % {"name": partner.username}
        )
    if Seat.objects.filter(user=partner, active=True).exists():
        raise PairError(
            _(
                "%(name)s a déjà une place à une table : la pareja s’assoit ensemble quand "
                "les deux sont libres."
            )
            % {"name": partner.username}
        )


def _seat_partner(pair: Pair, user, table: Table, number: int) -> Seat:
    """Seat the partner; a refusal says it is about them, not about the player who clicked."""
    partner = pair.other(user)
    try:
        return salle.seat_take(
            user=partner, table_id=table.pk, number=number, invite_token=table.invite_token
        )
    except SalleError as error:
        raise PairError(
            _("%(name)s ne peut pas s’asseoir à cette table : %(why)s")
            % {"name": partner.username, "why": error.message}
        ) from None


def table_create_with_pair(
    *,
    user,
    pair_id,
    kings: int,
    clock: str | None = None,
    client_seed: str | None = None,
    min_completion: int | None = None,
    private: bool = False,
) -> Table:
    """Open a table « avec ma pareja »: the player at seat 0, their partner facing them at
    seat 2 (the partner's seed is drawn by the site; they may change it until the start)."""
    with transaction.atomic():
        pair = _active_pair_of(user, pair_id)
        _check_both_can_sit(pair, user)
        table = salle.table_create(
            user=user,
            kings=kings,
            clock=clock,
            client_seed=client_seed,
            min_completion=min_completion,
            private=private,
        )
        _seat_partner(pair, user, table, 2)
    return table


def play_now_as_pair(*, user, pair_id, kings: int) -> Seat:
    """« Jouer maintenant à deux »: both members at the fullest open public table of `kings`
    where one team's two seats are free (the oldest first among equals), or at a new table.
    Each try is a savepoint: a table filled meanwhile is left as it was for the next one. Under
    « Jouer maintenant »'s lock of the modality (locks.quickplay), like a player alone."""
    if kings not in Table.Kings.values:
        raise PairError(_("Choisissez une modalité : 4 rois ou 8 rois."))
    with transaction.atomic():
        locks.quickplay(kings)
        pair = _active_pair_of(user, pair_id)
        _check_both_can_sit(pair, user)
        for table_id in _tables_with_a_free_team(kings):
            taken = set(Seat.objects.filter(table_id=table_id).values_list("number", flat=True))
            team = next((t for t in (0, 1) if not {t, t + 2} & taken), None)
            if team is None:
                continue
            try:
                with transaction.atomic():
                    seat = salle.seat_take(user=user, table_id=table_id, number=team)
                    _seat_partner(pair, user, seat.table, team + 2)
                    return seat
            except SalleError:
                # Lost a race (the table filled, started or closed): try the next. A refusal
                # about either player comes again at the new table just below.
                continue
        table = table_create_with_pair(user=user, pair_id=pair.pk, kings=kings)
        return table.seats.get(user=user)


def _tables_with_a_free_team(kings: int) -> list[int]:
    """Open public tables of `kings` where a team's two seats are free, fullest first."""
    team_taken = [
        Exists(Seat.objects.filter(table=OuterRef("pk"), number__in=[team, team + 2]))
        for team in (0, 1)
    ]
    return list(
        Table.objects.filter(status=Table.Status.OPEN, private=False, kings=kings)
        .filter(~team_taken[0] | ~team_taken[1])
        .annotate(seated=Count("seats"))
        .order_by("-seated", "created", "pk")
        .values_list("pk", flat=True)[:CANDIDATES]
    )
