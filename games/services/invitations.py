"""Private tables: their invitation link, its renewal, and the host's removal of a guest.

A private table (Table.private) is not listed in the salle; a newcomer sits there only with
its current token (salle.seat_take checks it here). The token is `secrets.token_urlsafe(32)`
(256 random bits) and is compared with `secrets.compare_digest` against the table found by
its id, so the comparison's time says nothing about the token. Renewing the token kills the
old link at once. Link use is rate-limited per client address (the views) and per player (the
salle's own limit, `salle.salle_write_count`); a suspended player is refused by the salle's
user lock like everywhere else."""

import secrets

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import ratelimit
from games import broadcast
from games.models import SEAT_COUNT, Table
from games.services import locks
from games.services.errors import SalleError

#: Per client address, invitation pages opened and seats taken from a link: far above what
#: friends need, far below what guessing would.
LINK_USES = ratelimit.Limit("invitation-link-uses", count=30, seconds=60)

LINK_INVALID = gettext_lazy(
    "Ce lien d’invitation n’est plus valable : demandez-en un nouveau à l’hôte."
)


class InvitationError(SalleError):
    status = 404


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_matches(table: Table, token: str | None) -> bool:
    """Whether `token` is the private table's current token, in constant time."""
    if not table.private or not table.invite_token or not isinstance(token, str):
        return False
    return secrets.compare_digest(table.invite_token.encode(), token.encode())


def check_token(table: Table, token: str | None) -> None:
    if not token_matches(table, token):
        raise InvitationError(str(LINK_INVALID))


def link_use_count(client_ip: str) -> None:
    """Count one use of an invitation link from this address, refused past LINK_USES."""
    if ratelimit.hit(LINK_USES, client_ip):
        seconds = ratelimit.retry_after(LINK_USES, client_ip)
        error = SalleError(
            _("Trop de liens d’invitation ouverts : réessayez dans %(seconds)d s.")
            % {"seconds": seconds}
        )
        error.status = 429
        raise error


def table_for_link(*, table_id: int, token: str) -> Table:
    """The private table this link opens (its seats and host along), or InvitationError. A
    started, full or closed table is returned too: the page says so."""
    table = (
        Table.objects.select_related("host").prefetch_related("seats__user").filter(pk=table_id)
    ).first()
    if table is None or not token_matches(table, token):
        raise InvitationError(str(LINK_INVALID))
    return table


def link_status(table: Table) -> str:
    """Why a guest cannot sit from the link, in French, or "" if they can."""
    if table.status == Table.Status.PLAYING:
        return _("La partie a déjà commencé à cette table : le lien ne sert plus.")
    if table.status == Table.Status.CLOSED:
        return _("Cette table est fermée : le lien ne sert plus.")
    if len(table.seats.all()) >= SEAT_COUNT:
        return _("Cette table est complète : il n’y a plus de place libre.")
    return ""


def token_renew(*, user, table_id: int) -> Table:
    """The host draws a new token: the old link stops working at once."""
    with transaction.atomic():
        table = _lock_hosted_open_private(user, table_id)
        table.invite_token = new_token()
        table.save(update_fields=["invite_token", "updated"])
    return table


def guest_remove(*, user, table_id: int, number: int) -> Table:
    """The host of an open private table frees a guest's seat before the start. The guest
    could come back with the same link: the host renews it to prevent that."""
    with transaction.atomic():
        table = _lock_hosted_open_private(user, table_id)
        seat = table.seats.filter(number=number).first()
        if seat is None:
            raise SalleError(_("Cette place est déjà libre."))
        if seat.user_id == user.pk:
            raise SalleError(_("Pour partir vous-même, quittez la table."))
        seat.delete()
        broadcast.salle_changed()
    return table


def _lock_hosted_open_private(user, table_id) -> Table:
    try:
        table = locks.table(int(table_id))
    except (TypeError, ValueError):
        table = None
    if table is None or not table.private:
        raise SalleError(_("Cette table privée n’existe pas."))
    if table.host_id != user.pk:
        raise SalleError(_("Seul l’hôte de la table peut faire cela."))
    if table.status != Table.Status.OPEN:
        raise SalleError(_("La partie a déjà commencé à cette table."))
    return table
