"""One decision at the table, however it came: the table page's form POSTed over HTTP
(games.views.act) or the same form's fields sent up the player's open table socket
(games.live.consumers.TableConsumer). Both parse, apply and answer here, so the guards are the
same: the version check, the engine's legality, the French refusals, never a 500.

The answer is the actor's own regions (out of band) and the version they show, with the status
the POST answers with: 200, 409 (stale version), 422 (refused), 403 (not seated), 429 (too
many decisions: a bare flash, nothing rendered, see `too_fast`)."""

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from core import ratelimit
from games import forms, selectors
from games.display import fragments, game_cache, regions
from games.models import Game
from games.services import play
from games.services.errors import Refused

log = logging.getLogger(__name__)

TOO_FAST = gettext_lazy("Trop de décisions d’affilée : attendez un instant avant de rejouer.")
#: A player over the limit is logged at most once per this many seconds.
TOO_FAST_LOGGED = ratelimit.Limit("decisions-too-fast-logged", count=1, seconds=60)


def decisions_per_user() -> ratelimit.Limit:
    """Per player, decisions at the table however sent (POST, socket, every tab): far above a
    person's pace (settings.DECISIONS_PER_SECOND), while each one costs a transaction and a
    render for every seat."""
    return ratelimit.Limit("decisions", count=settings.DECISIONS_PER_SECOND, seconds=1)


def too_fast(user) -> bool:
    """Count one decision of `user`; True past the limit (refused without any render)."""
    if not ratelimit.hit(decisions_per_user(), user.pk):
        return False
    if not ratelimit.hit(TOO_FAST_LOGGED, user.pk):
        log.warning(
            "decisions of user %s: over %s a second, refused",
            user.pk,
            settings.DECISIONS_PER_SECOND,
        )
    return True


def too_fast_answer() -> "Answer":
    """The short refusal past the limit: the flash alone, no table render."""
    flash = regions.render_region("flash", {"flash": str(TOO_FAST), "oob": True})
    return Answer(429, flash, None)


@dataclass(frozen=True)
class Answer:
    status: int
    html: str
    version: int | None  # the version the regions show (None: a bare flash)
    # the new version's pushes to `peers` (decide's), {(user id, language): (html, version)
    # or None}
    pushes: dict = field(default_factory=dict)


def apply(
    *, user, table_id: int, data: QueryDict, committed: Callable[[Game], None] | None = None
) -> Game:
    """Parse the form's fields and apply the decision; raises Refused (a French message).
    `committed(game)`: called once the decision is committed, before its broadcast."""
    version, action = forms.parse_decision(data)
    # The actor renders this very copy (locked, with its table and seats); the other players'
    # sockets in this process render it too instead of loading it again: cached on commit,
    # before the broadcast that makes them render it (this hook is registered before the
    # decision's own). The cached copy of the version the decision was made on is played on,
    # if the row locked is still at that version.
    with transaction.atomic():
        game = play.game_lock_to_play(table_id=table_id, known=game_cache.latest(table_id=table_id))
        transaction.on_commit(lambda: _remember(game, committed))
        return play.game_play_as(game=game, user=user, version=version, action=action)


def _remember(game: Game, committed: Callable[[Game], None] | None) -> None:
    game_cache.remember(game)
    if committed is not None:
        committed(game)


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
    also rendered for `peers` (the readers, (user, language), of the game's other sockets in
    this web process), each in their language, in the same hop: their pushes need no hop of
    their own (games.live.push_fanout). Past the player's limit of decisions, the short refusal
    (too_fast_answer) and nothing else."""
    if too_fast(user):
        return too_fast_answer()
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
        flash = regions.render_region("flash", {"flash": error.message, "oob": True})
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
