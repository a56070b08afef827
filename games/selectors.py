"""Reads for the salle and the table page."""

from dataclasses import dataclass

from django.db.models import Prefetch

from games.models import SEAT_COUNT, Game, GameSeat, Seat, Table


@dataclass(frozen=True)
class SeatView:
    number: int
    team: int  # 0: seats 0 and 2; 1: seats 1 and 3
    user: object | None  # the seated User, or None when free

    @property
    def team_label(self) -> str:
        return f"Équipe {self.team + 1}"


def seat_views(table: Table) -> list[SeatView]:
    """The four seats of a table in order, free ones included (seats must be prefetched)."""
    by_number = {seat.number: seat.user for seat in table.seats.all()}
    return [SeatView(n, n % 2, by_number.get(n)) for n in range(SEAT_COUNT)]


def salle_tables() -> list[Table]:
    """Open and playing tables, newest first, with their seats and players."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    return list(
        Table.objects.filter(status__in=Table.ACTIVE_STATUSES)
        .select_related("host")
        .prefetch_related(seats)
        .order_by("-created")
    )


def active_seat_for_user(user) -> Seat | None:
    """The seat the user holds at an open or playing table, if any."""
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(user=user, active=True).select_related("table").first()


def table_for_player(*, user, table_id: int) -> Table | None:
    """The table if the user is seated at it (any status), else None."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    return (
        Table.objects.filter(pk=table_id, seats__user=user)
        .select_related("host")
        .prefetch_related(seats)
        .first()
    )


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


def game_seats_prefetch() -> Prefetch:
    """A game's four seats in order, with their users: the players' names at the table."""
    return Prefetch("seats", queryset=GameSeat.objects.select_related("user").order_by("number"))
