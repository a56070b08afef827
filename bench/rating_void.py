"""What a rating correction costs (moderation.services.partie_rating_void): it rates again the
ratings from the voided partie on, so its time grows with the parties that ended after it.
For a few sizes of history, prints the time and query count of a void as it was before
that (a full rebuild in the void's transaction, whatever the partie), then of a void of a
recent partie (the 20th from the end: the usual case, a complaint about a partie just played)
and of the oldest one (the worst case: everything rated again). Each void starts from the same
ratings, in a transaction rolled back (the database is left as it was, vacuumed); the best of
three runs is printed. Run against a migrated database:

    DATABASE_URL=... python -m bench.rating_void 100 1000 5000
"""

import os
import sys
import time
from datetime import timedelta
from unittest import mock

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "musweb.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Permission  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.models import Game, GameSeat, Table  # noqa: E402
from moderation import services  # noqa: E402
from records import services as records  # noqa: E402
from records.models import Rating, RatingChange  # noqa: E402

PLAYERS = 40
# Each void is timed this many times, the best printed: the dev machine is shared, and the
# other loads only ever add time.
REPEATS = 3


class Rollback(Exception):
    pass


def history(parties: int, users: list) -> list[Game]:
    """`parties` finished parties between four of `users` (rotating), inserted directly: the
    rebuild reads only their status, end time, winner and seats."""
    start = timezone.now() - timedelta(days=365)
    tables = Table.objects.bulk_create(
        Table(host=users[i % PLAYERS], kings=4, status=Table.Status.CLOSED) for i in range(parties)
    )
    games = Game.objects.bulk_create(
        Game(
            table=table,
            kings=4,
            status=Game.Status.FINISHED,
            state={},
            winning_team=i % 2,
            finished_at=start + timedelta(minutes=i),
        )
        for i, table in enumerate(tables)
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, number=n, user=users[(i * 3 + n * 7) % PLAYERS])
        for i, game in enumerate(games)
        for n in range(4)
    )
    return games


def timed(label: str, game: Game, staff, *, full_rebuild: bool = False) -> None:
    """Void `game`'s rating as `staff` (fetched again, as a request would), REPEATS times,
    each rolled back, and print the best time and the query count. `full_rebuild`: as
    before the re-rating from the point."""
    rebuild = records.ratings_rebuild
    rerate = (lambda since: rebuild()) if full_rebuild else rebuild
    times = []
    for _ in range(REPEATS):
        staff = type(staff).objects.get(pk=staff.pk)
        try:
            with transaction.atomic(), mock.patch.object(records, "ratings_rebuild", rerate):
                began = time.perf_counter()
                with CaptureQueriesContext(connection) as queries:
                    services.partie_rating_void(game=game, by=staff, reason="bench")
                times.append(time.perf_counter() - began)
                raise Rollback
        except Rollback:
            pass
    took = min(times)
    print(f"  {label:<34} {took * 1000:8.1f} ms, {len(queries):>3} queries")


def measure(parties: int) -> None:
    try:
        with transaction.atomic():
            model = get_user_model()
            users = [model.objects.create(username=f"bench-void-{n}") for n in range(PLAYERS)]
            staff = model.objects.create(username="bench-void-staff", is_staff=True)
            staff.user_permissions.add(Permission.objects.get(codename="can_moderate"))
            games = history(parties, users)
            records.ratings_rebuild()
            print(f"{parties} parties:")
            # The recent void first: each rolled-back void leaves its inserted rating changes
            # as dead rows the next ones scan, and the recent one leaves the fewest.
            timed("void, 20th from the end", games[-20], staff)
            timed("void, oldest", games[0], staff)
            timed("void, full rebuild (before)", games[-20], staff, full_rebuild=True)
            raise Rollback
    except Rollback:
        pass


def vacuum() -> None:
    """Clear the dead rows the rolled-back runs left in the tables a void scans."""
    with connection.cursor() as cursor:
        for model in (Table, Game, GameSeat, Rating, RatingChange):
            cursor.execute(f"VACUUM {model._meta.db_table}")


def main(sizes: list[int]) -> None:
    for size in sizes:
        vacuum()
        measure(size)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 1000, 5000])
