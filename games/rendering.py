"""Per-user salle fragments, shared by the views (HTTP) and the consumer (WebSocket)."""

from django.template.loader import render_to_string
from django.urls import reverse

from games import selectors
from games.models import Table


def salle_context(user) -> dict:
    my_seat = selectors.active_seat_for_user(user)
    tables = selectors.salle_tables()
    return {
        "tables": [{"table": t, "seats": selectors.seat_views(t)} for t in tables],
        "my_seat": my_seat,
        "kings_choices": Table.Kings.choices,
    }


def salle_fragment(user, *, started_table_id: int | None = None) -> str:
    """The #salle fragment for one user, as the consumer pushes it. If the table that has just
    started is the user's, the fragment carries the table page address and the page goes there."""
    context = salle_context(user)
    context["user"] = user
    context["pushed"] = True
    my_seat = context["my_seat"]
    if (
        started_table_id is not None
        and my_seat is not None
        and my_seat.table_id == started_table_id
        and my_seat.table.status == Table.Status.PLAYING
    ):
        context["redirect_to"] = reverse("games:table", args=[started_table_id])
    return render_to_string("games/salle.html#salle", context)
