"""One decision at the table, however it came: the table page's form POSTed over HTTP
(games.views.act) or the same form's fields sent up the player's open table socket
(games.live.consumers.TableConsumer). Both parse, apply and answer here, so the guards are the
same: the version check, the engine's legality, the French refusals, never a 500.

The answer is the actor's own regions (out of band) and the version they show, with the status
the POST answers with: 200, 409 (stale version), 422 (refused), 403 (not seated)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.http import QueryDict

from games import forms, selectors
from games.display import fragments, game_cache, table_view
from games.models import Game
from games.services import play
from games.services.errors import Refused


@dataclass(frozen=True)
class Answer:
    status: int
    html: str
    version: int | None  # the version the regions show (None: a bare flash)
    # the new version's pushes to `peers` (decide's), {user id: (html, version) or None}
    pushes: dict = field(default_factory=dict)


def apply(
    *, user, table_id: int, data: QueryDict, committed: Callable[[Game], None] | None = None
) -> Game:
    """Parse the form's fields and apply the decision; raises Refused (a French message).
    `committed(game)`: called once the decision is committed, before its broadcast."""
    version, action = forms.parse_decision(data)

    # The actor renders this very copy (locked, with its table and seats); the other players'
    # sockets in this process render it too instead of loading it again: cached on commit,
    # before the broadcast that makes them render it. The cached copy of the version the
    # decision was made on is played on, if the row locked is still at that version.
    def remembered(game: Game) -> None:
        game_cache.remember(game)
        if committed is not None:
            committed(game)

    return play.game_apply_action(
        table_id=table_id,
        user=user,
        version=version,
        action=action,
        committed=remembered,
        known=game_cache.latest,
    )


def decide(
    *,
    user,
    table_id: int,
    data: QueryDict,
    request=None,
    peers: Sequence = (),
    committed: Callable[[Game], None] | None = None,
) -> Answer:
    """Apply a decision and render the actor's answer: the fresh regions, or on a refusal the
    regions as they are with the French message in the decision panel. An applied decision is
    also rendered for `peers` (the users of the game's other sockets in this web process), in
    the same hop: their pushes need no hop of their own (games.live.push_fanout)."""
    try:
        game = apply(user=user, table_id=table_id, data=data, committed=committed)
    except Refused as error:
        return refused(user=user, table_id=table_id, error=error, request=request)
    seat = selectors.seat_number(game, user)
    html = fragments.table_regions(game, seat, request=request)
    pushes = fragments.table_pushes(game.pk, peers, min_version=game.version) if peers else {}
    return Answer(200, html, game.version, pushes)


def refused(*, user, table_id: int, error: Refused, request=None) -> Answer:
    found = selectors.game_for_player(user=user, table_id=table_id)
    if found is None:
        flash = table_view.render_region("flash", {"flash": error.message, "oob": True})
        return Answer(403, flash, None)
    game, seat = found
    html = fragments.table_regions(game, seat, refusal=error.message, request=request)
    return Answer(error.status, html, game.version)


def socket_fields(message: dict) -> QueryDict:
    """The form's fields as the table socket sends them ({"type": "decide", "fields": {name:
    value or [values]}}), as the QueryDict a POST would carry; anything else is dropped and
    parse_decision refuses what is missing."""
    data = QueryDict(mutable=True)
    fields = message.get("fields")
    if not isinstance(fields, dict):
        return data
    for name, value in fields.items():
        values = value if isinstance(value, list) else [value]
        if isinstance(name, str) and all(isinstance(v, str | int) for v in values):
            data.setlist(name, [str(v) for v in values])
    return data
