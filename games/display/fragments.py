"""Per-user fragments of the salle and of the live table, shared by the views (HTTP) and the
consumers (WebSocket)."""

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core import jinja
from games import engine, forms, selectors, vocabulary
from games.display import (
    fairness_view,
    game_cache,
    links,
    salle_shared,
    shared_regions,
    table_view,
    talk,
)
from games.display.view_model import TableFacts, TablePage
from games.engine import team_of
from games.live import socket_counts
from games.models import Game, RobotLevel, Table
from games.services import pending_shuffle


class PairsReader(Protocol):
    """What the salle reads of the parejas (pairs.selectors, registered by the pairs app when
    it loads: games never imports the apps built on it)."""

    def seated_pair_names(self, tables) -> dict[tuple[int, int], str]: ...

    def salle_pairs(self, user) -> tuple[list, list]: ...


_pairs: PairsReader | None = None


def register_pairs(reader: PairsReader) -> None:
    global _pairs
    _pairs = reader


def salle_context(
    user, page: int = 1, *, reputations=None, memo: salle_shared.ChangeMemo | None = None
) -> dict:
    """The salle as one player sees it: their own table first, then one page of the other open
    tables (selectors.SALLE_PAGE_SIZE), and the number of parties in play. Bounded: the same
    queries and at most one page of tables whatever the number of tables. `reputations`: the
    entry point's {user id: reputation} reader (records.selectors.reputations), called once
    for every name shown. `memo`: a salle change's (salle_shared), whose sockets read what they
    show alike once (the counts, the parties in play, a page of tables); by default one of
    this render alone, whose reads include the player's own table."""
    memo = memo or salle_shared.ChangeMemo(None)
    my_seat = selectors.active_seat_for_user(user, with_host=True)
    my_table_row = my_seat.table if my_seat is not None else None
    excluded = selectors.listed_own_table(my_table_row)
    own = my_table_row if memo.private else None
    alike = memo.kept(
        ("page", page, excluded), lambda: _salle_alike(memo, page, excluded, own, reputations)
    )
    if own is None and my_table_row is not None:
        own_alike = _shown_tables([my_table_row], reputations)
        my_table, pairs = own_alike["items"][0], own_alike["pairs"]
    else:
        my_table, pairs = alike["own"], alike["pairs"]
    my_table = dict(my_table) if my_table is not None else None
    tables = [dict(item) for item in alike["tables"]]  # the friends are this player's own
    page = alike["page"]
    return {
        "my_seat": my_seat,
        "my_table": my_table,
        "talk": talk.salle_talk(user, my_table_row),
        "host_cue": host_cue(user, my_table),
        "tables": tables,
        "page": page,
        "pages": alike["pages"],
        # the salle's forms post back the page they were on, so the answer shows that page
        "page_query": f"?page={page}" if page > 1 else "",
        "previous_url": salle_url(page - 1) if page > 1 else None,
        "next_url": salle_url(page + 1) if page < alike["pages"] else None,
        "socket_url": salle_socket_url(page, waiting=_waiting_at(my_seat)),
        "open_count": alike["open_count"],
        "playing_count": alike["playing_count"],
        # its words are in the reader's language: once per change and language
        **memo.kept(
            ("playing-words", translation.get_language()),
            lambda: playing_context(alike["playing"], alike["known"]),
        ),
        "kings_choices": Table.Kings.choices,
        "robot_level_choices": RobotLevel.choices,
        "robot_level_default": RobotLevel.EXPERT,
        "clock_choices": forms.clock_choices(),
        "spectator_choices": forms.spectator_choices(),
        "clock_default": settings.TURN_CLOCK_DEFAULT,
        "heartbeat_ms": heartbeat_ms(),
        # « avec ma pareja », and the pair proposals to answer: for a player not seated (one
        # query, for them only).
        **_pair_forms(user, my_seat),
        "my_pair_name": _my_pair_name(my_seat, pairs),
        **friends_context(user, my_table_row, [my_table, *tables]),
        # The forms that may open a table show its commitment before the seed is given.
        "next_commitment": None if my_seat else pending_shuffle.commitment_for(user),
        **waiting_context(my_seat, my_table),
    }


def _salle_alike(memo, page: int, excluded: int | None, own: Table | None, reputations) -> dict:
    """What every player of the salle who asks for `page` (their own open table `excluded`)
    sees alike, in no language (words are rendered when read): the counts, the page of tables
    with their seats, reputations and parejas, the parties in play. `own`: the player's own
    table, read along (a private memo only)."""
    counts = memo.kept(("counts",), selectors.salle_counts)
    playing_count = counts.get(Table.Status.PLAYING, 0)
    rows, page, pages, open_count = selectors.open_tables_page(counts, page, excluded=excluded)
    playing = memo.kept(("playing-pool",), selectors.playing_games) if playing_count else []
    players = {user_id for game in playing for user_id, _name, _robot in game.players}
    shown = _shown_tables([t for t in (own, *rows) if t is not None], reputations, players)
    items = shown["items"]
    return {
        "page": page,
        "pages": pages,
        "open_count": open_count,
        "playing_count": playing_count,
        "own": items[0] if own is not None else None,
        "tables": items[1:] if own is not None else items,
        "pairs": shown["pairs"],
        "playing": playing,
        "known": shown["known"],
    }


def _shown_tables(tables: list[Table], reputations, also_known: Collection[int] = ()) -> dict:
    """The cards of `tables` (their seats read here, in one query), with the reputations of
    their players and of `also_known` (one call), and the parejas seated as partners."""
    prefetch_related_objects(tables, selectors.table_seats_prefetch())
    known = {}
    if reputations is not None:
        seated = {s.user_id for t in tables for s in t.seats.all()}
        if seated or also_known:
            known = reputations(seated | set(also_known))
    pairs = _pairs.seated_pair_names(tables) if _pairs is not None else {}
    return {
        "items": [_table_item(t, known, pairs) for t in tables],
        "pairs": pairs,
        "known": known,
    }


#: The parties in play the salle lists with « Regarder » (the longest running first).
PLAYING_SHOWN = 10


def playing_context(playing: list, known: dict) -> dict:
    """The salle's parties in play that may be watched (the first PLAYING_SHOWN, and how many
    more), and « À la une »: the one whose players have the highest mean rating, else the
    longest running (docs/spectators.md)."""
    ratings = {pk: getattr(reputation, "points", None) for pk, reputation in known.items()}
    featured = selectors.featured_game(playing, ratings)
    return {
        "playing": [_playing_item(game) for game in playing[:PLAYING_SHOWN]],
        "playing_more": max(0, len(playing) - PLAYING_SHOWN),
        "featured": _featured_item(featured, ratings) if featured is not None else None,
    }


def _playing_item(game) -> dict:
    names = [name for _user_id, name, _robot in game.players]
    return {
        "table_id": game.table_id,
        "teams": [table_view.join_names(team_names(names, team)) for team in (0, 1)],
        "scores": game.scores,
        "watch_url": links.url("games:watch", game.table_id),
    }


def team_names(names: list[str], team: int) -> list[str]:
    """The partners of `team`, in seat order."""
    return [name for seat, name in enumerate(names) if team_of(seat) == team]


def _featured_item(game, ratings: dict) -> dict:
    return {
        **_playing_item(game),
        "game_id": game.game_id,
        "mean": selectors.mean_rating(game, ratings),
        "live": {
            "scores": game.scores,
            "hand_number": game.hand_number,
            "status": Game.Status.PLAYING,
        },
    }


def featured_push(game_id: int, *, min_version: int | None = None) -> tuple[str, int] | None:
    """The live part of « À la une » (the score, the hand, the lance under way) for the salle
    sockets that show this game (games.live.push_fanout, FEATURED audience): one render per
    version and process, from the public view only."""
    game = game_cache.game_for_render(game_id, min_version=min_version)
    if game is None:
        return None

    def render() -> str:
        seen = engine.observation(game.state, None)
        live = {
            "scores": seen["scores"],
            "hand_number": seen["hand_number"],
            "lance": vocabulary.lance_name(seen["lance"]) if seen["lance"] else "",
            "status": game.status,
        }
        return render_to_string("games/salle.html#featured-live", {"live": live, "oob": True})

    key = ("featured", game.pk, game.version, game.status, translation.get_language())
    return PUBLIC.kept(key, render), game.version


def _pair_forms(user, my_seat) -> dict:
    formed, waiting = _pairs.salle_pairs(user) if _pairs and my_seat is None else ([], [])
    return {"my_pairs": formed, "pair_proposals": waiting}


def _my_pair_name(my_seat, pairs: dict) -> str | None:
    """The pareja the player sits in as a partner at their table, if any."""
    if my_seat is None:
        return None
    return pairs.get((my_seat.table_id, team_of(my_seat.number)))


def friends_context(user, my_table: Table | None, items) -> dict:
    """The salle's friendly parts: players online and tables waiting, the invitation link of
    the player's private table, the robots offer's time, and the seats of friends (players
    the user has had a partie with) marked on the cards shown (one query)."""
    items = [item for item in items if item is not None]
    seated = {seat.user.pk for item in items for seat in item["seats"] if seat.user is not None}
    friends = selectors.friend_ids(user, seated)
    for item in items:
        item["friends"] = [
            s.user.username for s in item["seats"] if s.user and s.user.pk in friends
        ]
    context = {
        "online_count": socket_counts.online_count(),
        "friends": friends,
        "kings_default": Table.Kings.FOUR,
    }
    if my_table is not None and my_table.status == Table.Status.OPEN:
        if my_table.private and my_table.host_id == user.pk:
            context["invite_url"] = reverse(
                "games:invitation", args=[my_table.pk, my_table.invite_token]
            )
        # Every person seated there is offered the robots once the table has waited.
        due = my_table.created.timestamp() + settings.ROBOT_OFFER_SECONDS
        context["robot_offer_ms"] = int(due * 1000)
    return context


def waiting_context(my_seat, my_table: dict | None) -> dict:
    """While the player's open table is not full: how long such tables usually take to fill
    (one query) and since when the player waits there, in ms with the server's now, for
    static/js/salle.js to count the time waited."""
    if my_seat is None or my_table is None or my_table["full"]:
        return {}
    table = my_table["table"]
    if table.status != Table.Status.OPEN:
        return {}
    return {
        "waiting": {
            "usual": usual_wait_text(table.kings),
            "since_ms": int(my_seat.created.timestamp() * 1000),
            "now_ms": int(time.time() * 1000),
        }
    }


def usual_wait_text(kings: int) -> str:
    """« En général, une table se remplit en ~2 min. », from the last started public tables
    of the modality; honest when there are none."""
    seconds = selectors.usual_wait_seconds(kings, sample=settings.WAIT_SAMPLE_TABLES)
    if seconds is None:
        return _("Pas encore assez de parties pour estimer l’attente habituelle.")
    if seconds < 60:
        return _("En général, une table se remplit en moins d’une minute.")
    return _("En général, une table se remplit en ~%(minutes)d min.") % {
        "minutes": round(seconds / 60)
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


def _table_item(table: Table, reputations: dict | None = None, pairs: dict | None = None) -> dict:
    """One table card of the salle: its seats (with each player's reputation, if known), the
    parejas seated as partners ([(team, name)]), and how many seats are taken (the start is
    offered only to a full table's host)."""
    seats = selectors.seat_views(table)
    if reputations:
        seats = [replace(s, reputation=reputations.get(getattr(s.user, "pk", None))) for s in seats]
    seated = sum(1 for seat in seats if seat.user is not None)
    missing = len(seats) - seated
    return {
        "table": table,
        "robots": sum(1 for seat in seats if getattr(seat.user, "is_robot", False)),
        "fairness": fairness_view.table_fairness(table),
        "seats": seats,
        "seated": seated,
        "missing": missing,
        "full": not missing,
        "pairs": [
            (team, name) for (pk, team), name in sorted((pairs or {}).items()) if pk == table.pk
        ],
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


def salle_socket_url(page: int = 1, *, waiting: int | None = None) -> str:
    """The salle page's socket; its pushes refresh this page of tables (SalleConsumer).
    `waiting`: the open table the page shows the player seated at; if it has started by the
    time the socket connects (its start's push was sent before), the first push redirects."""
    query = {"page": page} if page > 1 else {}
    if waiting is not None:
        query["waiting"] = waiting
    return f"/ws/salle/?{urlencode(query)}" if query else "/ws/salle/"


def _waiting_at(my_seat) -> int | None:
    """The table of the player's seat while it waits for its start."""
    if my_seat is None or my_seat.table.status != Table.Status.OPEN:
        return None
    return my_seat.table_id


def heartbeat_ms() -> int:
    """How often the pages send a heartbeat up their socket (static/js/live.js)."""
    return int(settings.HEARTBEAT_SECONDS * 1000)


@dataclass(frozen=True)
class SalleAsked:
    """What a salle socket's push is for: the page of tables; `nav`, echoed for the page's
    script (static/js/salle.js), the number of page changes the socket had been told of; the
    tables that have just started; the salle change it follows (its event's name), whose parts
    every player sees alike are read and rendered once per change and language
    (`salle_sections`), or None: all of it for this render alone."""

    page: int = 1
    nav: int = 0
    started_table_ids: Collection[int] = ()
    change: str | None = None


def salle_fragment(
    user, asked: SalleAsked | None = None, *, reputations=None, featured: list | None = None
) -> tuple[str, int]:
    """The #salle fragment for one user, as the consumer pushes it, and the page it shows (the
    one asked for, or the last one if there are fewer pages now). If the user's table is among
    the tables that have just started, the fragment carries the table page address and the
    page goes there. `featured`, if given, gets the id of the game shown « À la une » (None if
    none)."""
    asked = asked or SalleAsked()
    memo = salle_shared.CHANGES.memo(asked.change)
    context = salle_context(user, asked.page, reputations=reputations, memo=memo)
    context["user"] = user
    context["pushed"] = True
    context["nav"] = asked.nav
    my_seat = context["my_seat"]
    if (
        my_seat is not None
        and my_seat.table_id in asked.started_table_ids
        and my_seat.table.status == Table.Status.PLAYING
    ):
        context["redirect_to"] = reverse("games:table", args=[my_seat.table_id])
    if featured is not None:  # the socket follows « À la une » live (SalleConsumer)
        shown = context["featured"]
        featured.append(shown["game_id"] if shown is not None else None)
    if any(item["table"].host_id == user.pk for item in context["tables"]):
        # never so (a host sits at their table, shown apart): the plain render, to be sure
        return render_to_string("games/salle.html#salle", context), context["page"]
    context["shared_sections"] = salle_sections(memo, context)
    html = render_to_string("games/salle.html#salle", context)
    return _with_friends(html, context), context["page"]


def salle_sections(memo: salle_shared.ChangeMemo, context: dict) -> dict[str, str]:
    """The salle's parts every player sees alike, rendered once per change and language (and,
    for the page of open tables, per page, own open table, whether the player sits and has a
    table): « À la une », the open tables (the friends marked, filled in by `_with_friends`),
    the parties in play."""
    language = translation.get_language()
    seated = context["my_seat"] is not None
    has_table = context["my_table"] is not None
    excluded = selectors.listed_own_table(context["my_table"]["table"] if has_table else None)
    alike = {
        "page": context["page"],
        "pages": context["pages"],
        "page_query": context["page_query"],
        "previous_url": context["previous_url"],
        "next_url": context["next_url"],
        "open_count": context["open_count"],
        "playing_count": context["playing_count"],
        "tables": context["tables"],
        "my_table": has_table,
        "my_seat": _SEATED if seated else None,
        "shared": True,
        "featured": context["featured"],
        "playing": context["playing"],
        "playing_more": context["playing_more"],
    }
    lists: dict[str, tuple] = {
        "featured": (),
        "open_tables": (context["page"], excluded, seated, has_table),
        "playing": (),
    }
    return {
        name: memo.kept(("section", name, language, *key), partial(_salle_section, name, alike))
        for name, key in lists.items()
    }


class _SeatedElsewhere:
    """The open tables' cards of a player seated at another table: no seat offered."""

    table_id = None


_SEATED = _SeatedElsewhere()

SECTIONS = {"featured": "featured", "open_tables": "salle-open-tables", "playing": "salle-playing"}


def _salle_section(name: str, alike: dict) -> str:
    if name == "featured" and not alike["featured"]:
        return ""
    return render_to_string(f"games/salle.html#{SECTIONS[name]}", alike)


_FRIEND_MARKS = re.compile(r"<!--friend(s?):(\d+)-->")


def _with_friends(html: str, context: dict) -> str:
    """The shared open tables' friend marks filled in for this player: the seats of the players
    they have had a partie with, and each card's line naming them."""
    friends = context["friends"]
    if "<!--friend" not in html:
        return html
    badge = render_to_string("games/salle.html#friend-badge") if friends else ""
    names = {item["table"].pk: item["friends"] for item in context["tables"]}

    def filled(mark: re.Match) -> str:
        number = int(mark.group(2))
        if not mark.group(1):
            return badge if number in friends else ""
        if not names.get(number):
            return ""
        return render_to_string(
            "games/salle.html#friends-badge", {"item": {"friends": names[number]}}
        )

    return _FRIEND_MARKS.sub(filled, html)


# ---------------------------------------------------------------- the live table


def table_context(
    game: Game, seat: int, *, flash: str | None = None, refusal: str | None = None
) -> dict:
    """The context of games/table.html for the player at `seat` (the game's seats and table
    prefetched). Built from `observation(state, seat)` only: never another seat's view; the
    away seats show the seconds left before the partie is cancelled, every seat its turn clock
    (Game.clock, read against this server's time)."""
    shared = _version_parts(game)
    seats, players = shared["seats"], shared["players"]
    away = selectors.away_seconds(game) if game.status == Game.Status.PLAYING else {}
    facts = TableFacts(
        engine.observation(game.state, seat),
        players,
        seat,
        host_seat=shared["host_seat"],
        presence=away,
        game_clock=game.clock,
        now_ms=int(time.time() * 1000),
        robots=shared["robots"],
        alike=shared["alike"],
    )
    page = TablePage(
        action_url=shared["action_url"],
        salle_url=shared["salle_url"],
        ws_url=shared["ws_url"],
        flash=flash,
        refusal=refusal,
    )
    context = table_view.table_context(facts, page)
    context["hint_url"] = shared["hint_url"]
    context["heartbeat_ms"] = heartbeat_ms()
    context["fairness"] = shared["fairness"]
    if game.status != Game.Status.PLAYING:
        # The end screen's way on (records' pages, by URL name: games does not import records).
        context["partie_url"] = links.url("records:partie", game.pk)
        context["review_url"] = links.url("reviews:review", game.pk)  # « Revoir avec le robot »
        context["profiles"] = [
            (s.user.username, links.url("records:profile", s.user.username))
            for s in seats
            if not s.robot
        ]
    if game.status == Game.Status.FINISHED:
        context["revanche"] = revanche_view(game, seat, seats)
    return context


def _version_parts(game: Game) -> dict:
    """What every seat's render of this game version takes alike and no clock changes: the
    seats, the names, the links, the shuffle's panel, and what two players of a team see alike
    (table_view.build_table's `alike`). Worked out once per Game object and
    version (the four renders of a decision's hop share one object: games.display.game_cache);
    a copy played on carries the old parts, redone once its version or status moved."""
    key = (game.version, game.status)
    memo = game.__dict__.get("_version_parts")
    if memo is not None and memo[0] == key:
        return memo[1]
    seats = list(game.seats.all())
    players = [s.user.username for s in seats]
    parts = {
        "seats": seats,
        "players": players,
        "host_seat": next((s.number for s in seats if s.user_id == game.table.host_id), 0),
        # a robot seat: its level's label (True for one from before the levels)
        "robots": [(s.get_robot_level_display() or True) if s.robot else False for s in seats],
        "action_url": links.url("games:act", game.table_id),
        "hint_url": links.url("games:hint", game.table_id),
        "salle_url": links.url("games:salle"),
        "ws_url": table_socket_url(game.table_id),
        "fairness": fairness_view.game_fairness(game, players),
        "alike": {},  # table_view.build_table's, for this version's viewers
    }
    game.__dict__["_version_parts"] = (key, parts)
    return parts


def revanche_view(game: Game, viewer: int, seats) -> dict:
    """The revanche panel of a finished partie for the player at `viewer` (one query): the
    offer's state, each proposed seat's answer, the viewer's buttons, and the partner choice
    of a new offer (the other three players, the current partner first)."""
    offer = selectors.open_revanche(game)
    names = {s.user_id: s.user.username for s in seats}
    me = seats[viewer]
    partner = seats[(viewer + 2) % 4]
    others = [partner, *(s for s in seats if team_of(s.number) != team_of(viewer))]
    context = {
        "offer_url": reverse("games:revanche_offer", args=[game.table_id]),
        "answer_url": reverse("games:revanche_answer", args=[game.table_id]),
        "partners": [] if me.robot else [(s.user_id, s.user.username) for s in others],
        "status": "none",
    }
    if (offer is None or offer.status == "lapsed") and not me.robot:
        # The offer form shows the new table's commitment before the offerer's seed is given.
        context["next_commitment"] = pending_shuffle.commitment_for(me.user)
    if offer is None or not offer.seats:
        return context
    context["commitment"] = offer.commitment
    context["status"] = offer.status
    context["reason"] = offer.reason_text
    context["host"] = names.get(offer.host_id, "")
    labels = {"yes": _("accepte"), "no": _("décline"), "": _("en attente…")}
    context["rows"] = [
        {
            "name": names.get(user_id, "?"),
            "team": team_of(number) + 1,
            "answer": answer,
            "state": answer or "waiting",  # the CSS class and data attribute
            "label": labels[answer],
            "me": user_id == me.user_id,
        }
        for number, (user_id, answer) in enumerate(zip(offer.seats, offer.answers, strict=True))
    ]
    mine = next((r for r in context["rows"] if r["me"]), None)
    context["can_answer"] = offer.status == "open" and mine is not None and mine["answer"] == ""
    context["expires_ms"] = int(offer.expires_at.timestamp() * 1000)
    context["now_ms"] = int(time.time() * 1000)  # the page counts down on the server's clock
    if offer.table_id:
        context["table_url"] = reverse("games:table", args=[offer.table_id])
    return context


def cancelled_context(game: Game) -> dict:
    """The page of a cancelled partie at its table's address: why, and the shuffle revealed."""
    players = [s.user.username for s in game.seats.all()]
    return {
        "game": game,
        "message": cancelled_message(game.end_reason),
        "scores": game.state["scores"],
        "fairness": fairness_view.game_fairness(game, players),
        "salle_url": reverse("games:salle"),
        "partie_url": reverse("records:partie", args=[game.pk]),
        "review_url": reverse("reviews:review", args=[game.pk]),
    }


def table_socket_url(table_id: int) -> str:
    return f"/ws/tables/{table_id}/"


# ---------------------------------------------------------------- the spectators' table

#: The regions a spectator's page holds: no hand of their own, no decision to make.
PUBLIC_REGIONS: tuple[str, ...] = tuple(
    name for name in shared_regions.REGIONS if name not in ("my-hand", "decision-panel")
)


def watch_version(version: int, *, oob: bool = False) -> str:
    """The version a spectator's page shows, the engine's as on a player's decision panel (its
    socket's pushes carry it: the panel is not on a spectator's page)."""
    swap = ' hx-swap-oob="true"' if oob else ""
    return f'<div id="watch-version" data-version="{int(version)}" hidden{swap}></div>\n'


def watch_socket_url(table_id: int) -> str:
    return f"/ws/tables/{table_id}/regarder/"


def public_context(game: Game) -> dict:
    """The context of games/watch.html and of its regions: the table as it is shown to all,
    built from `observation(state, None)` only (no seat's cards; the hands the table shows at
    the end of a hand), with the banners and the clocks (docs/spectators.md)."""
    shared = _version_parts(game)
    away = selectors.away_seconds(game) if game.status == Game.Status.PLAYING else {}
    facts = TableFacts(
        engine.observation(game.state, None),
        shared["players"],
        None,
        host_seat=shared["host_seat"],
        presence=away,
        game_clock=game.clock,
        now_ms=int(time.time() * 1000),
        robots=shared["robots"],
        alike=shared["alike"],
    )
    page = TablePage(
        action_url="", salle_url=shared["salle_url"], ws_url=watch_socket_url(game.table_id)
    )
    context = table_view.table_context(facts, page)
    context["heartbeat_ms"] = heartbeat_ms()
    context["spectator"] = True
    context["table_id"] = game.table_id
    context["watch_version"] = watch_version(game.state["version"])
    return context


class PublicRenders:
    """The spectators' render of each game version, kept for the few latest: one render serves
    every spectator socket of a game in this process (games.live.push_fanout), however many
    and whenever each asks. Keyed by what it shows: the version, the status, and the away
    seats' deadlines (a presence change redraws it, a clock's tick does not), and the language.
    A push without a version (a connect, a presence change, an ending) is rendered afresh: its
    clocks start from now, not from when the version was first rendered."""

    def __init__(self, size: int = 512):
        self.size = size
        self.renders = 0  # how many renders were made (tests and bench.cpu count them)
        self._kept: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()

    def push(self, game_id: int, *, min_version: int | None = None) -> tuple[str, int] | None:
        """Every public region, out of band, and the version shown; None if the game is gone
        or no longer watchable."""
        game = game_cache.game_for_render(game_id, min_version=min_version)
        if game is None or not game.table.spectators:
            return None
        away = tuple((s.number, s.deadline) for s in game.seats.all() if s.deadline is not None)
        key = ("table", game.pk, game.version, game.status, away, translation.get_language())

        def render() -> str:
            regions = shared_regions.render_regions(
                public_context(game), scope=game.pk, names=PUBLIC_REGIONS
            )
            return watch_version(game.state["version"], oob=True) + regions

        return self.kept(key, render, fresh=min_version is None), game.version

    def kept(self, key: tuple, render, *, fresh: bool = False) -> str:
        """The render kept under `key`, else `render()`'s, kept (two threads missing the same
        key may both render it: the same text). `fresh`: rendered now whatever is kept."""
        with self._lock:
            html = None if fresh else self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
                return html
        html = render()
        with self._lock:
            self.renders += 1
            self._kept[key] = html
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return html

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.renders = 0


PUBLIC = PublicRenders()


def public_push(game_id: int, *, min_version: int | None = None) -> tuple[str, int] | None:
    return PUBLIC.push(game_id, min_version=min_version)


def watchers_fragment(game_id: int) -> str:
    """Who watches the game, for its players' page: the count and the names, out of band."""
    return str(jinja.macro("games/_watchers.html", "push", socket_counts.watchers(game_id)))


def table_regions(
    game: Game,
    seat: int,
    *,
    flash: str | None = None,
    refusal: str | None = None,
    request=None,
    shared: bool = True,
) -> str:
    """Every region of the table for one player, out of band: a POST answer (with `request`)
    or a push (without: htmx sends the CSRF token from <body>'s hx-headers). `refusal`: why
    the player's decision was refused, shown in the decision panel. The regions the game's
    other players see alike are rendered once, and a region that did not change since an
    earlier render is not rendered again (games.display.shared_regions), unless not `shared`:
    a lone render (a connect) that no other player renders with."""
    context = table_context(game, seat, flash=flash, refusal=refusal)
    scope = game.pk if shared else None
    return shared_regions.render_regions(context, request=request, scope=scope)


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
    if min_version is not None:
        return table_regions(game, seat), game.version
    # A render without a version (a connect, a presence change) is its socket's alone, and
    # says who watches (pushed on its own when that changes: docs/spectators.md).
    html = table_regions(game, seat, shared=False)
    if game.table.spectators:
        html += "\n" + watchers_fragment(game.pk)
    return html, game.version


Reader = tuple[Any, str]  # a socket's user and its language
Pushes = dict[tuple[int, str], tuple[str, int] | None]


def table_pushes(game_id: int, readers: Iterable[Reader], *, min_version: int) -> Pushes:
    """`table_push` for the readers of one game at once, {(user id, language): push}, each in
    its reader's language: the game is read (or taken from the cache) once for all
    (games.live.push_fanout), each player rendered once per language their sockets read, a
    language's renders together (the regions alike for several players are shared within it:
    games.display.shared_regions)."""
    by_language: dict[str, dict[int, Any]] = {}
    for user, language in readers:
        by_language.setdefault(language, {})[user.pk] = user
    pushes: Pushes = {}
    for language, users in by_language.items():
        with translation.override(language):
            for pk, user in users.items():
                pushes[pk, language] = table_push(game_id, user, min_version=min_version)
    return pushes


def leave_fragment(*, redirect_to: str, message: str) -> str:
    """A pushed #flash that tells the page to go elsewhere (static/js/table.js and the salle page
    follow data-redirect), with the French reason meanwhile."""
    return render_to_string(
        "games/table.html#flash-redirect", {"flash": message, "redirect_to": redirect_to}
    )


def game_ended_fragment(table_id: int, reason: dict | str) -> str:
    """A cancelled game: the page goes to the table address, which sends the player to the
    salle with the reason as a message."""
    return leave_fragment(
        redirect_to=reverse("games:table", args=[table_id]), message=cancelled_message(reason)
    )


def cancelled_message(reason: dict | str) -> str:
    """Why the partie was cancelled (a stored end reason), in the active language."""
    reason = vocabulary.end_reason_text(reason)
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
