"""Per-user fragments of the salle and of the live table, shared by the views (HTTP) and the
consumers (WebSocket)."""

import time
from collections.abc import Collection

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games import engine, forms, selectors
from games.display import game_cache, table_view
from games.models import Game, Table


def salle_context(user, page: int = 1) -> dict:
    """The salle as one player sees it: their own table first, then one page of the other open
    tables (selectors.SALLE_PAGE_SIZE), and the number of parties in play. Bounded: the same
    queries and at most one page of tables whatever the number of tables."""
    salle = selectors.salle_page(user, page)
    my_table = _table_item(salle.my_table) if salle.my_table is not None else None
    return {
        "my_seat": salle.my_seat,
        "my_table": my_table,
        "host_cue": host_cue(user, my_table),
        "tables": [_table_item(t) for t in salle.tables],
        "page": salle.page,
        "pages": salle.pages,
        # the salle's forms post back the page they were on, so the answer shows that page
        "page_query": f"?page={salle.page}" if salle.page > 1 else "",
        "previous_url": salle_url(salle.page - 1) if salle.page > 1 else None,
        "next_url": salle_url(salle.page + 1) if salle.page < salle.pages else None,
        "socket_url": salle_socket_url(salle.page),
        "open_count": salle.open_count,
        "playing_count": salle.playing_count,
        "kings_choices": Table.Kings.choices,
        "clock_choices": forms.clock_choices(),
        "clock_default": settings.TURN_CLOCK_DEFAULT,
        "heartbeat_ms": heartbeat_ms(),
    }


def rules_context() -> dict:
    """The numbers of the rules page's clock section, from the settings: each speed's label,
    seconds per decision and of reserve (« 15 s », « 1 min »), the host's deal, the misses."""
    speeds = []
    for value, label in Table.Clock.choices:
        turn, reserve = settings.TURN_CLOCKS[value]
        speeds.append(
            {
                "label": label,
                "turn": forms.duration_text(turn),
                "reserve": forms.duration_text(reserve),
                "default": value == settings.TURN_CLOCK_DEFAULT,
            }
        )
    return {
        "clock_speeds": speeds,
        "deal": forms.duration_text(settings.DEAL_SECONDS),
        "clock_misses": settings.CLOCK_MISSES_LIMIT,
    }


def _table_item(table: Table) -> dict:
    """One table card of the salle: its seats, and how many are taken (the start is offered
    only to a full table's host)."""
    seats = selectors.seat_views(table)
    seated = sum(1 for seat in seats if seat.user is not None)
    missing = len(seats) - seated
    return {
        "table": table,
        "seats": seats,
        "seated": seated,
        "missing": missing,
        "full": not missing,
    }


def host_cue(user, my_table: dict | None) -> bool:
    """Whether the salle tells `user` that their open table is full and theirs to start (a
    highlighted line and the page title « ● Table complète »)."""
    if my_table is None:
        return False
    table = my_table["table"]
    return my_table["full"] and table.status == Table.Status.OPEN and table.host_id == user.pk


def salle_url(page: int = 1) -> str:
    salle = reverse("games:salle")
    return f"{salle}?page={page}" if page > 1 else salle


def salle_socket_url(page: int = 1) -> str:
    """The salle page's socket; its pushes refresh this page of tables (SalleConsumer)."""
    return f"/ws/salle/?page={page}" if page > 1 else "/ws/salle/"


def heartbeat_ms() -> int:
    """How often the pages send a heartbeat up their socket (static/js/live.js)."""
    return int(settings.HEARTBEAT_SECONDS * 1000)


def salle_fragment(
    user, *, page: int = 1, nav: int = 0, started_table_ids: Collection[int] = ()
) -> tuple[str, int]:
    """The #salle fragment for one user, as the consumer pushes it, and the page it shows (the
    one asked for, or the last one if there are fewer pages now). `nav` is echoed for the page's
    script (static/js/salle.js): the number of page changes the socket had been told of. If the
    user's table is among the tables that have just started, the fragment carries the table
    page address and the page goes there."""
    context = salle_context(user, page)
    context["user"] = user
    context["pushed"] = True
    context["nav"] = nav
    my_seat = context["my_seat"]
    if (
        my_seat is not None
        and my_seat.table_id in started_table_ids
        and my_seat.table.status == Table.Status.PLAYING
    ):
        context["redirect_to"] = reverse("games:table", args=[my_seat.table_id])
    return render_to_string("games/salle.html#salle", context), context["page"]


# ---------------------------------------------------------------- the live table


def table_context(
    game: Game, seat: int, *, flash: str | None = None, refusal: str | None = None
) -> dict:
    """The context of games/table.html for the player at `seat` (the game's seats and table
    prefetched). Built from `observation(state, seat)` only: never another seat's view; the
    away seats show the seconds left before the partie is cancelled, every seat its turn clock
    (Game.clock, read against this server's time)."""
    seats = list(game.seats.all())
    host_seat = next((s.number for s in seats if s.user_id == game.table.host_id), 0)
    away = selectors.away_seconds(game) if game.status == Game.Status.PLAYING else {}
    context = table_view.table_context(
        engine.observation(game.state, seat),
        [s.user.username for s in seats],
        seat,
        action_url=reverse("games:act", args=[game.table_id]),
        salle_url=reverse("games:salle"),
        host_seat=host_seat,
        ws_url=table_socket_url(game.table_id),
        flash=flash,
        refusal=refusal,
        presence=away,
        game_clock=game.clock,
        now_ms=int(time.time() * 1000),
    )
    context["heartbeat_ms"] = heartbeat_ms()
    return context


def table_socket_url(table_id: int) -> str:
    return f"/ws/tables/{table_id}/"


def table_regions(
    game: Game,
    seat: int,
    *,
    flash: str | None = None,
    refusal: str | None = None,
    request=None,
) -> str:
    """Every region of the table for one player, out of band: a POST answer (with `request`)
    or a push (without: htmx sends the CSRF token from <body>'s hx-headers). `refusal`: why
    the player's decision was refused, shown in the decision panel."""
    context = table_context(game, seat, flash=flash, refusal=refusal)
    return table_view.render_regions(context, request=request)


def table_push(game_id: int, user, *, min_version: int | None = None) -> tuple[str, int] | None:
    """What a player's table socket pushes: every region and the game version they show, or
    None if the player is not (or no longer) in this game. With `min_version` (the version an
    event announced) the game may come from the sockets' shared cache (games.display.game_cache)."""
    game = game_cache.game_for_render(game_id, min_version=min_version)
    if game is None:
        return None
    seat = selectors.seat_number(game, user)
    if seat is None:
        return None
    return table_regions(game, seat), game.version


def table_pushes(game_id: int, users, *, min_version: int) -> dict[int, tuple[str, int] | None]:
    """`table_push` for several players of one game at once, {user id: push}: the game is
    read (or taken from the cache) once for all (games.push_batch)."""
    return {user.pk: table_push(game_id, user, min_version=min_version) for user in users}


def leave_fragment(*, redirect_to: str, message: str) -> str:
    """A pushed #flash that tells the page to go elsewhere (static/js/table.js and the salle page
    follow data-redirect), with the French reason meanwhile."""
    return render_to_string(
        "games/table.html#flash-redirect", {"flash": message, "redirect_to": redirect_to}
    )


def game_ended_fragment(table_id: int, reason: str) -> str:
    """A cancelled game: the page goes to the table address, which sends the player to the
    salle with the reason as a message."""
    return leave_fragment(
        redirect_to=reverse("games:table", args=[table_id]), message=cancelled_message(reason)
    )


def cancelled_message(reason: str) -> str:
    if reason:
        return _("La partie a été annulée : %(reason)s") % {"reason": reason}
    return _("La partie a été annulée.")


def kicked_fragments(reason: str) -> str:
    """Sent to every socket of a kicked (suspended) user before it closes: both the table page
    (#flash) and the salle page (#salle) follow data-redirect to the login page, whose
    `?motif=suspension` notice says the session was closed by moderation (the reason itself is
    shown there only after the right password)."""
    login = reverse("accounts:login") + "?motif=suspension"
    salle = render_to_string(
        "games/salle.html#salle-redirect", {"redirect_to": login, "message": reason}
    )
    return leave_fragment(redirect_to=login, message=reason) + salle
