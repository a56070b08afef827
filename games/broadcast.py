"""The one place that sends to the channel layer. Always after commit, always thin: an event
says *that* the salle changed, and each consumer renders its own user's view."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

SALLE_GROUP = "salle"


def salle_changed(*, started_table_id: int | None = None) -> None:
    """Tell every open salle to re-render, once the current transaction commits.

    `started_table_id` names a table that has just started, so consumers of its seated
    players send them to the table page.
    """
    event = {"type": "salle.changed", "started_table_id": started_table_id}
    transaction.on_commit(lambda: _send(SALLE_GROUP, event))


def _send(group: str, event: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, event)
