"""One row lock per kind of row, taken at the start of a write's transaction
(`select_for_update`). Each returns the locked row, or None if there is none.

Lock order, to stay deadlock-free: a revanche row (before the table it opens) or the
quick play's advisory lock (before the table it chooses), the table row,
then the user row, then the game row. A caller
that already holds the game's lock passes the locked game on (games.services.play's
`game_finish_locked`) rather than locking it twice.
"""

import copy

from django.contrib.auth import get_user_model
from django.db import connection

from games import selectors
from games.models import Game, GameSeat, Revanche, Table

#: First key of the transaction-level advisory locks of « Jouer maintenant » (the second is
#: the modality): an arbitrary constant no other lock of the site uses.
QUICKPLAY_LOCK = 0x6D757331


def quickplay(kings: int) -> None:
    """Serialise « Jouer maintenant » for one modality until the transaction ends: the choice
    of a table and the seat taken there are one step, so players clicking at the same instant
    meet at one table. An advisory lock: there is no row to lock before a table exists. Taken
    before any table or user lock."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [QUICKPLAY_LOCK, int(kings)])


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


#: The game row locked, and what may have changed in it or its seats without a new version: the
#: clock (a check queued, a deadline dropped) and the seats' absences (their deadlines).
_LOCK_KNOWN = (
    f"SELECT g.version, g.clock, g.turn_deadline, ARRAY(SELECT s.deadline FROM"
    f" {GameSeat._meta.db_table} s WHERE s.game_id = g.id ORDER BY s.number)"
    f" FROM {Game._meta.db_table} g WHERE g.id = %s FOR UPDATE OF g"
)


def game_to_play_from(known: Game) -> Game | None:
    """`game_to_play` for a game of which a copy is at hand with its table and seats (the web
    process's games.display.game_cache): one query, written by hand (it runs at every
    decision), locks the row and reads its version, its clock and its seats' deadlines. If the
    row is still at `known`'s version and its seats' deadlines are `known`'s, the game is a
    copy of `known` (never `known` itself, which other threads render) with the row's clock;
    otherwise it is read as game_to_play reads it. The version read under the lock decides:
    a copy of another version is never played on."""
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_KNOWN, [known.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    version, clock, turn_deadline, deadlines = row
    if version != known.version or deadlines != [s.deadline for s in known.seats.all()]:
        return game_to_play(game_id=known.pk)
    game = copy.copy(known)  # its own fields; the table and the seats are only read
    game.clock = Game._meta.get_field("clock").from_db_value(clock, None, connection)
    game.turn_deadline = turn_deadline
    return game


def revanche(game_id: int):
    """The revanche offered after a game: taken before any table or user lock (its acceptance
    opens a table and seats its players)."""
    return Revanche.objects.select_for_update().filter(game_id=game_id).first()
