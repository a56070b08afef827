"""Every write of the records: a partie's ratings as the Finisher ends it, and the rebuild of
all ratings from the games' records (the same function over the same parties in the same
order, so the same numbers).

A rated partie is a finished one between four people (games.selectors.human_game_seats): a
cancelled partie, or one with a robot seat, moves nobody's rating; nor does one whose rating
the moderation voided (RatingVoid, moderation.services.partie_rating_void), which the rebuild
skips. The Finisher's rating need not look for a void: only a finished partie can be voided,
under its row lock, so after the Finisher has committed.
"""

from django.db import connection, transaction

from games.models import Game, GameSeat
from records import rating
from records.models import Rating, RatingChange, RatingVoid


def is_rated(game: Game, seats: list[GameSeat]) -> bool:
    return (
        game.status == Game.Status.FINISHED
        and game.winning_team is not None
        and len(seats) == 4
        and not any(seat.robot for seat in seats)
    )


def partie_rate(game: Game) -> list[RatingChange]:
    """Rate `game` as it ends, inside the Finisher's transaction: the four players' Rating rows
    created if new, locked (in user order: two parties ending together never deadlock), moved,
    and one RatingChange each: four queries (the game's seats come prefetched from its lock).
    Once: the Finisher ends a partie once under its row lock, and the RatingChange (game,
    user) constraint would refuse a second rating. A partie not rated changes nothing."""
    if game.status != Game.Status.FINISHED:
        return []
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    if not is_rated(game, seats):
        return []
    user_ids = [seat.user_id for seat in seats]
    mu, sigma = rating.initial()
    start = rating.points((mu, sigma))
    Rating.objects.bulk_create(
        [
            Rating(user_id=u, mu=mu, sigma=sigma, points=start, updated=game.finished_at)
            for u in user_ids
        ],
        ignore_conflicts=True,
    )
    locked = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(user_id__in=user_ids).order_by("pk")
    }
    current = [locked[u] for u in user_ids]
    changes = _apply(game, seats, current)
    Rating.objects.bulk_update(current, ["mu", "sigma", "points", "parties", "updated"])
    return RatingChange.objects.bulk_create(changes)


def _apply(game: Game, seats: list[GameSeat], current: list[Rating]) -> list[RatingChange]:
    """Move the four `current` ratings (in seat order) by the partie's result, in memory, and
    return the history rows. The one place both the Finisher and the rebuild go through."""
    after = rating.after_partie([(r.mu, r.sigma) for r in current], game.winning_team)
    changes = []
    for seat, row, (mu, sigma) in zip(seats, current, after, strict=True):
        change = RatingChange(
            game_id=game.pk,
            user_id=seat.user_id,
            at=game.finished_at,
            won=seat.number % 2 == game.winning_team,
            mu_before=row.mu,
            sigma_before=row.sigma,
            points_before=row.points,
            mu=mu,
            sigma=sigma,
            points=rating.points((mu, sigma)),
        )
        row.mu, row.sigma, row.points = mu, sigma, change.points
        row.parties += 1
        row.updated = game.finished_at
        changes.append(change)
    return changes


def ratings_rebuild() -> int:
    """Forget every rating and rate again every finished partie between four people whose
    rating was not voided, in the order they ended; returns how many parties were rated. The
    tables are locked first (the Finisher's receiver waits, then rates its partie on top of the
    rebuilt numbers). Also what a void and its undo run, inside their transaction: the numbers
    after a correction are a rebuild's by construction."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                f"LOCK TABLE {Rating._meta.db_table}, {RatingChange._meta.db_table} "
                "IN EXCLUSIVE MODE"
            )
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        games = (
            Game.objects.filter(status=Game.Status.FINISHED)
            .exclude(pk__in=RatingVoid.objects.values("game_id"))
            .order_by("finished_at", "pk")
        )
        seats_by_game: dict[int, list[GameSeat]] = {}
        for seat in GameSeat.objects.filter(game__in=games).order_by("game_id", "number"):
            seats_by_game.setdefault(seat.game_id, []).append(seat)
        ratings: dict[int, Rating] = {}
        changes: list[RatingChange] = []
        rated = 0
        mu, sigma = rating.initial()
        start = rating.points((mu, sigma))
        for game in games:
            seats = seats_by_game.get(game.pk, [])
            if not is_rated(game, seats):
                continue
            current = [
                ratings.setdefault(
                    s.user_id,
                    Rating(user_id=s.user_id, mu=mu, sigma=sigma, points=start, parties=0),
                )
                for s in seats
            ]
            changes += _apply(game, seats, current)
            rated += 1
        Rating.objects.bulk_create(ratings.values(), batch_size=1000)
        RatingChange.objects.bulk_create(changes, batch_size=1000)
    return rated
