"""Reads for the salle and the table page."""

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext

from games import signals
from games.engine import team_of
from games.models import (
    SEAT_COUNT,
    Game,
    GameSeat,
    PhraseMute,
    Revanche,
    RobotLevel,
    Seat,
    Table,
)


@dataclass(frozen=True)
class SeatView:
    number: int
    team: int  # 0: seats 0 and 2; 1: seats 1 and 3
    user: object | None  # the seated User, or None when free
    seed: str = ""  # the seated player's seed for the verifiable shuffle (shown to all)
    seed_origin: str = ""  # who chose it: SeedOrigin (person, robot, site)
    # What the salle shows next to the name (records.selectors.Reputation), when asked for.
    reputation: object | None = None
    robot_level: str = ""  # a robot's level (RobotLevel value); blank for a person

    @property
    def robot_level_label(self) -> str:
        return str(RobotLevel(self.robot_level).label) if self.robot_level else ""

    @property
    def team_label(self) -> str:
        return gettext("Équipe %(number)s") % {"number": self.team + 1}


def seat_views(table: Table) -> list[SeatView]:
    """The four seats of a table in order, free ones included (seats must be prefetched)."""
    by_number = {seat.number: seat for seat in table.seats.all()}
    views = []
    for n in range(SEAT_COUNT):
        seat = by_number.get(n)
        if seat is None:
            views.append(SeatView(n, team_of(n), None))
        else:
            views.append(
                SeatView(
                    n,
                    team_of(n),
                    seat.user,
                    seat.client_seed,
                    seat.seed_origin,
                    robot_level=seat.robot_level,
                )
            )
    return views


SALLE_PAGE_SIZE = 20  # open tables per page of the salle


@dataclass(frozen=True)
class SallePage:
    """What one player's salle shows: their own table (first, whatever the page), one page of
    the other open tables (newest first), and how many parties are being played."""

    my_seat: Seat | None
    my_table: Table | None  # open or playing, with its seats and host
    tables: list[Table]  # this page of the other open tables, with their seats and hosts
    page: int  # 1-based, clamped to the pages there are
    pages: int  # at least 1
    open_count: int  # open tables besides the player's own
    playing_count: int  # tables in play, the player's own included


def salle_page(user, page: int = 1) -> SallePage:
    """One page of the salle, in four queries whatever the number of tables: the user's seat
    (with its table and host), the counts of open and playing tables, the page, the seats."""
    my_seat = active_seat_for_user(user, with_host=True)
    my_table = my_seat.table if my_seat is not None else None
    counts = salle_counts()
    excluded = listed_own_table(my_table)
    tables, page, pages, open_count = open_tables_page(counts, page, excluded=excluded)
    prefetch_related_objects(
        [t for t in (my_table, *tables) if t is not None], table_seats_prefetch()
    )
    return SallePage(
        my_seat=my_seat,
        my_table=my_table,
        tables=tables,
        page=page,
        pages=pages,
        open_count=open_count,
        playing_count=counts.get(Table.Status.PLAYING, 0),
    )


def salle_counts() -> dict[str, int]:
    """{status: number} of the tables the salle counts, in one query: the open public tables
    and every table in play (a private table's partie counts)."""
    return dict(
        Table.objects.filter(status__in=Table.ACTIVE_STATUSES)
        .exclude(status=Table.Status.OPEN, private=True)  # unlisted; their parties count
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )


def listed_own_table(own_table: Table | None) -> int | None:
    """The id of the player's own table if the salle's list of open tables would show it (then
    it is shown apart, and left out of the list and its count)."""
    if own_table is None or own_table.status != Table.Status.OPEN or own_table.private:
        return None
    return own_table.pk


def open_tables_page(
    counts: dict[str, int], page: int, *, excluded: int | None = None
) -> tuple[list[Table], int, int, int]:
    """(tables, page, pages, open count): one page of the open public tables but `excluded`
    (the player's own: `listed_own_table`), newest first, with their hosts (seats not read),
    in one query."""
    open_count = counts.get(Table.Status.OPEN, 0)
    if excluded is not None:
        open_count -= 1
    pages = max(1, -(-open_count // SALLE_PAGE_SIZE))
    page = min(max(page, 1), pages)
    start = (page - 1) * SALLE_PAGE_SIZE
    others = Table.objects.filter(status=Table.Status.OPEN, private=False).select_related("host")
    if excluded is not None:
        others = others.exclude(pk=excluded)
    tables = list(others.order_by("-created", "-pk")[start : start + SALLE_PAGE_SIZE])
    return tables, page, pages, open_count


def table_seats_prefetch() -> Prefetch:
    """A table's seats in order, with their users: the players' names in the salle."""
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))


def active_seat_for_user(user, *, with_host: bool = False) -> Seat | None:
    """The seat the user holds at an open or playing table, if any (with its table, and the
    table's host if asked)."""
    if not user.is_authenticated:
        return None
    related = "table__host" if with_host else "table"
    return Seat.objects.filter(user=user, active=True).select_related(related).first()


def game_for_player(*, user, table_id: int) -> tuple[Game, int] | None:
    """The game of a table and the user's seat number in it, if the user plays there; the
    game's seats (with their users) and its table come along for the render."""
    if not user.is_authenticated:
        return None
    games = Game.objects.filter(table_id=table_id).select_related("table")
    game = games.prefetch_related(game_seats_prefetch()).first()
    if game is None:
        return None
    number = seat_number(game, user)
    return None if number is None else (game, number)


def seat_number(game: Game, user) -> int | None:
    """The user's seat in the game (its seats prefetched), or None."""
    return next((s.number for s in game.seats.all() if s.user_id == user.pk), None)


def game_seat_for_user(*, user, table_id: int) -> tuple[int, int] | None:
    """(game id, seat number) of the user at this table's game, or None: the socket's check."""
    if not user.is_authenticated:
        return None
    found = (
        GameSeat.objects.filter(game__table_id=table_id, user=user)
        .values_list("game_id", "number")
        .first()
    )
    return tuple(found) if found else None


def game_with_seats(game_id: int) -> Game | None:
    games = Game.objects.select_related("table").prefetch_related(game_seats_prefetch())
    return games.filter(pk=game_id).first()


def game_versions(game_ids) -> dict[int, tuple[int, datetime]]:
    """{game id: (version, when the game was last written)} of these games, in one query (the
    sockets' lost-push check: a version younger than its grace may still be on its way)."""
    rows = Game.objects.filter(pk__in=list(game_ids)).values_list("pk", "version", "updated")
    return {pk: (version, updated) for pk, version, updated in rows}


def game_seats_prefetch() -> Prefetch:
    """A game's four seats in order, with their users: the players' names at the table."""
    return Prefetch("seats", queryset=GameSeat.objects.select_related("user").order_by("number"))


def away_seconds(game: Game, *, now=None) -> dict[int, int]:
    """{seat number: whole seconds left} for the away seats of a game (seats prefetched): the
    countdown each player sees before the partie is cancelled. Never a robot's (it holds no
    socket, so it is never away)."""
    now = now or timezone.now()
    return {
        seat.number: max(0, math.ceil((seat.deadline - now).total_seconds()))
        for seat in game.seats.all()
        if seat.deadline is not None and not seat.robot
    }


#: The ends a player's statistics count: a partie played to its end or cancelled.
ENDED_STATUSES = (Game.Status.FINISHED, Game.Status.CANCELLED)


def human_game_seats():
    """The seats of ended parties between four people: the seats every player's statistics
    count (a partie with a robot seat is training, counted apart and in nobody's rating)."""
    robot_seat = GameSeat.objects.filter(game_id=OuterRef("game_id"), robot=True)
    return GameSeat.objects.filter(game__status__in=ENDED_STATUSES).exclude(Exists(robot_seat))


@dataclass(frozen=True)
class Completion:
    """How many ended parties between people a player sat at, and how many of them the
    player's own absence or clock cancelled."""

    ended: int
    abandoned: int

    @property
    def rate(self) -> int | None:
        """Percent of those parties the player stayed to the end of; None before any."""
        if not self.ended:
            return None
        return round(100 * (self.ended - self.abandoned) / self.ended)


def completions(user_ids) -> dict[int, Completion]:
    """{user id: Completion} for these users, in one query (absent: no ended partie)."""
    rows = (
        human_game_seats()
        .filter(user_id__in=list(user_ids))
        .values("user_id")
        .annotate(ended=Count("pk"), abandoned=Count("pk", filter=Q(abandoned=True)))
        .values_list("user_id", "ended", "abandoned")
    )
    return {user_id: Completion(ended, gone) for user_id, ended, gone in rows}


def completion_rate(user) -> int | None:
    """The user's completion rate in percent (None before any ended partie between people):
    what a host's minimum (Table.min_completion) is checked against. Read from the counters
    kept as parties end (records answers games.signals.completion_wanted), never counted
    from the history; `completions` counts it from there."""
    return signals.completion_rate(user.pk)


def usual_wait_seconds(kings: int, *, sample: int) -> float | None:
    """The median time from a public table's opening to its start, over the last `sample`
    started public tables of the modality (one query); None with no data."""
    waits = sorted(
        (game_created - table_created).total_seconds()
        for game_created, table_created in Game.objects.filter(kings=kings, table__private=False)
        .order_by("-created")
        .values_list("created", "table__created")[:sample]
    )
    if not waits:
        return None
    middle = len(waits) // 2
    return waits[middle] if len(waits) % 2 else (waits[middle - 1] + waits[middle]) / 2


def friend_ids(user, among) -> set[int]:
    """Those of the users `among` who have sat at an ended partie with `user` (one query,
    bounded by the names shown: records answers games.signals.friends_wanted from the pairs
    noted as parties end)."""
    among = set(among) - {user.pk}
    if not among or not user.is_authenticated:
        return set()
    return signals.friends(user.pk, among)


def open_revanche(game: Game):
    """The revanche offered after this game, if any (its answers for the table page)."""
    return Revanche.objects.filter(game=game).first()


def robot_offer_due(*, user, table_id: int, now=None) -> bool:
    """Whether `user`, seated at this open table, is offered to fill it with robots: it has
    waited ROBOT_OFFER_SECONDS and has an empty seat (every person seated there is offered it)."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.ROBOT_OFFER_SECONDS)
    table = (
        Table.objects.filter(pk=table_id, status=Table.Status.OPEN, created__lte=since)
        .filter(Exists(Seat.objects.filter(table=OuterRef("pk"), user=user)))
        .annotate(seated=Count("seats"))
        .first()
    )
    return table is not None and table.seated < SEAT_COUNT


def game_to_watch(*, user, table_id: int) -> tuple[Game | None, str]:
    """The game a spectator may watch at this table (its table and seats along) and "", or
    None and why not: "none" (no partie there), "closed" (played « sans spectateurs », or a
    private table whose host did not allow it), "player" (the user plays it: their own page),
    "cancelled" (docs/spectators.md)."""
    if not user.is_authenticated:
        return None, "none"
    games = Game.objects.filter(table_id=table_id).select_related("table")
    game = games.prefetch_related(game_seats_prefetch()).first()
    if game is None:
        return None, "none"
    if seat_number(game, user) is not None:
        return None, "player"
    if not game.table.spectators:
        return None, "closed"
    if game.status == Game.Status.CANCELLED:
        return None, "cancelled"
    return game, ""


def game_id_to_watch(*, user, table_id: int) -> int | None:
    """The socket's check (games.live.consumers.WatchConsumer): the id of the game the user
    may watch at this table, in one query."""
    if not user.is_authenticated:
        return None
    row = (
        Game.objects.filter(table_id=table_id, table__spectators=True)
        .exclude(status=Game.Status.CANCELLED)
        .exclude(seats__user=user)
        .values_list("pk", flat=True)
        .first()
    )
    return row


#: The parties in play the salle weighs for « À la une » and lists with « Regarder »: the
#: longest running first (docs/spectators.md).
PLAYING_POOL = 200


@dataclass(frozen=True)
class PlayingGame:
    """A public partie in play that may be watched, as the salle lists it."""

    game_id: int
    table_id: int
    started: datetime
    scores: list[int]
    hand_number: int
    players: list[tuple[int, str, bool]]  # (user id, name, robot) in seat order


def playing_games(limit: int = PLAYING_POOL) -> list[PlayingGame]:
    """The public parties in play whose tables admit spectators, the longest running first, at
    most `limit`, in one query (the scores and the hand number read from the state's JSON)."""
    rows = (
        GameSeat.objects.filter(
            game__status=Game.Status.PLAYING,
            game__table__private=False,
            game__table__spectators=True,
        )
        .order_by("game__created", "game_id", "number")
        .values_list(
            "game_id",
            "game__table_id",
            "game__created",
            "game__state__scores",
            "game__state__hand_number",
            "user_id",
            "user__username",
            "robot",
        )[: limit * SEAT_COUNT]
    )
    games: dict[int, PlayingGame] = {}
    for game_id, table_id, started, scores, hand, user_id, name, robot in rows:
        game = games.get(game_id)
        if game is None:
            game = games[game_id] = PlayingGame(
                game_id, table_id, started, list(scores or [0, 0]), hand or 1, []
            )
        game.players.append((user_id, name, robot))
    return [g for g in games.values() if len(g.players) == SEAT_COUNT]


def featured_game(games: list[PlayingGame], ratings: dict[int, int | None]) -> PlayingGame | None:
    """« À la une »: of `games` (the longest running first), the one whose four players have
    the highest mean rating (`ratings`: user id -> points, None for an unrated player or a
    robot, left out of the mean), else the longest running."""
    best, best_mean = None, None
    for game in games:
        rated = [ratings.get(user_id) for user_id, _name, _robot in game.players]
        known = [points for points in rated if points is not None]
        mean = sum(known) / len(known) if known else None
        if mean is not None and (best_mean is None or mean > best_mean):
            best, best_mean = game, mean
    if best is not None:
        return best
    return games[0] if games else None


def mean_rating(game: PlayingGame, ratings: dict[int, int | None]) -> int | None:
    known = [ratings.get(u) for u, _name, _robot in game.players]
    known = [points for points in known if points is not None]
    return round(sum(known) / len(known)) if known else None


def phrase_seats(table_id: int) -> list[tuple[int, int, str]]:
    """(seat, user id, name) of the table's players, its partie's if it started: who may speak
    and be muted there (docs/phrases.md)."""
    fields = ("number", "user_id", "user__username")
    seats = GameSeat.objects.filter(game__table_id=table_id).order_by("number")
    found = list(seats.values_list(*fields))
    if found:
        return found
    open_seats = Seat.objects.filter(table_id=table_id, active=True).order_by("number")
    return list(open_seats.values_list(*fields))


def table_is_open(table_id: int) -> bool:
    """Whether the table still waits for its partie (its players talk in the salle)."""
    return Table.objects.filter(pk=table_id, status=Table.Status.OPEN).exists()


def phrase_muted_ids(*, table_id: int, user) -> set[int]:
    """The user ids whose phrases `user` muted at this table."""
    rows = PhraseMute.objects.filter(table_id=table_id, muter=user)
    return set(rows.values_list("muted_id", flat=True))
