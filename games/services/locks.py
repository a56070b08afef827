"""One row lock per kind of row, taken at the start of a write's transaction
(`select_for_update`). Each returns the locked row, or None if there is none.

Lock order, to stay deadlock-free: a revanche row (before the table it opens), the table row,
then the user row, then the game row. A caller
that already holds the game's lock passes the locked game on (games.services.play's
`game_finish_locked`) rather than locking it twice.
"""

from django.contrib.auth import get_user_model

from games import selectors
from games.models import Game, Revanche, Table


def table(table_id: int) -> Table | None:
    return Table.objects.select_for_update().filter(pk=table_id).first()


def user(user_id: int):
    """The user row: serializes one player's own writes and reads a ban committed meanwhile."""
    return get_user_model().objects.select_for_update().filter(pk=user_id).first()


def game(game_id: int) -> Game | None:
    """The game row alone: one query (presence, deadlines, moderation)."""
    return Game.objects.select_for_update().filter(pk=game_id).first()


def game_to_play(*, game_id: int | None = None, table_id: int | None = None) -> Game | None:
    """The game row locked (not its table's), found by its id or by its table (Game.table is
    one to one), its table joined and its seats prefetched for the render that follows: one
    query for the game, one for its seats."""
    lookup = {"pk": game_id} if table_id is None else {"table_id": table_id}
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("table")
        .prefetch_related(selectors.game_seats_prefetch())
        .filter(**lookup)
        .first()
    )


def revanche(game_id: int):
    """The revanche offered after a game: taken before any table or user lock (its acceptance
    opens a table and seats its players)."""
    return Revanche.objects.select_for_update().filter(game_id=game_id).first()
