"""« Jouer maintenant »: seat a player at the public table of their modality closest to full,
or open one. Seats and tables go through games.services.salle like any other, so its checks
(one active seat, a suspended account, the table's lock) hold; a table filled meanwhile is
skipped for the next one. The choice and the seat are one transaction under a lock per
modality (games.services.locks.quickplay): simultaneous players meet at one table."""

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from games.models import SEAT_COUNT, Seat, Table
from games.services import locks, salle
from games.services.errors import SalleError

#: Tables tried before opening one: each try that loses a race moves to the next.
CANDIDATES = 5


def play_now(
    *, user, kings: int, client_seed: str | None = None, shown_commitment: str | None = None
) -> Seat:
    """The seat `user` gets: a free seat (the lowest) at the fullest open public table of
    `kings`, the oldest first among equals; if every one filled meanwhile, a new table, whose
    secret is the one the form showed the commitment of (`shown_commitment`). The player sits
    with their browser's `client_seed` either way (blank: drawn by the site, recorded so)."""
    if kings not in Table.Kings.values:
        raise SalleError(_("Choisissez une modalité : 4 rois ou 8 rois."))
    with transaction.atomic():
        locks.quickplay(kings)
        return _seat_at_fullest(
            user=user, kings=kings, client_seed=client_seed, shown_commitment=shown_commitment
        )


def _seat_at_fullest(
    *, user, kings: int, client_seed: str | None, shown_commitment: str | None
) -> Seat:
    candidates = (
        Table.objects.filter(status=Table.Status.OPEN, private=False, kings=kings)
        .exclude(seats__user=user)  # their own table: seat_take would move them, not seat them
        .annotate(seated=Count("seats"))
        .filter(seated__lt=SEAT_COUNT)
        .order_by("-seated", "created", "pk")
        .values_list("pk", flat=True)[:CANDIDATES]
    )
    for table_id in list(candidates):
        taken = set(Seat.objects.filter(table_id=table_id).values_list("number", flat=True))
        free = [n for n in range(SEAT_COUNT) if n not in taken]
        if not free:
            continue
        try:
            return salle.seat_take(
                user=user, table_id=table_id, number=free[0], client_seed=client_seed
            )
        except SalleError:
            # Lost a race (the table filled, started or closed meanwhile): try the next. A
            # refusal about the player (seated elsewhere, suspended) comes again just below.
            continue
    table = salle.table_create(
        user=user, kings=kings, client_seed=client_seed, shown_commitment=shown_commitment
    )
    return table.seats.get(user=user)
