"""Every write of the records: a partie's ratings and its players' tallies (PlayerTally) as the
Finisher ends it, the tallies' rebuild, and the rebuild of
the ratings from the games' records, all of them or from a corrected partie on (the same
function over the same parties in the same order, so the same numbers).

A rated partie is a finished one between four people (games.selectors.human_game_seats): a
cancelled partie, or one with a robot seat, moves nobody's rating; nor does one whose rating
the moderation voided (RatingVoid, moderation.services.partie_rating_void), which the rebuild
skips. The Finisher's rating need not look for a void: only a finished partie can be voided,
under its row lock, so after the Finisher has committed.
"""

from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q, RowRange, Window

from games.engine import team_of
from games.models import Game, GameSeat
from pairs.selectors import pairs_at
from records import rating
from records.models import (
    PairRating,
    PairRatingChange,
    PlayedWith,
    PlayerTally,
    Rating,
    RatingChange,
    RatingVoid,
)

_TALLIES = PlayerTally._meta.db_table
_SEATS = GameSeat._meta.db_table
#: The four seats of a partie without a robot seat, added to their players' tallies.
_TALLY_UPSERT = (
    f"INSERT INTO {_TALLIES} (user_id, ended, abandoned)"
    f" SELECT s.user_id, 1, s.abandoned::int FROM {_SEATS} s WHERE s.game_id = %s"
    f" AND NOT EXISTS (SELECT 1 FROM {_SEATS} r WHERE r.game_id = s.game_id AND r.robot)"
    f" ON CONFLICT (user_id) DO UPDATE SET ended = {_TALLIES}.ended + EXCLUDED.ended,"
    f" abandoned = {_TALLIES}.abandoned + EXCLUDED.abandoned"
)


def partie_tally(game: Game) -> None:
    """Count an ended partie between four people in its players' tallies, inside the
    Finisher's transaction: one statement, once (the Finisher ends a partie once). A partie
    with a robot seat is training: counted in nobody's."""
    with connection.cursor() as cursor:
        cursor.execute(_TALLY_UPSERT, [game.pk])


_PLAYED_WITH = PlayedWith._meta.db_table
#: Every two people of a partie (robot seats left out), each way, once ever: a partie
#: writes 12 rows at most, whatever its players' histories.
_PLAYED_WITH_INSERT = (
    f"INSERT INTO {_PLAYED_WITH} (user_id, other_id)"
    f" SELECT a.user_id, b.user_id FROM {_SEATS} a JOIN {_SEATS} b"
    f" ON b.game_id = a.game_id AND b.user_id <> a.user_id"
    f" WHERE a.game_id = %s AND NOT a.robot AND NOT b.robot"
    f" ON CONFLICT (user_id, other_id) DO NOTHING"
)


def partie_played_with(game: Game) -> None:
    """Note who played with whom at an ended partie (the salle's friends), inside the
    Finisher's transaction: one statement."""
    with connection.cursor() as cursor:
        cursor.execute(_PLAYED_WITH_INSERT, [game.pk])


def played_with_rebuild(game_seats=GameSeat, played_with=PlayedWith) -> int:
    """Every pair noted again from the ended parties (the migration that made them, a
    repair): returns how many rows. `game_seats`, `played_with`: the models, or their
    historical forms in a migration."""
    seats, pairs = game_seats._meta.db_table, played_with._meta.db_table
    games = game_seats._meta.get_field("game").related_model._meta.db_table
    ended = [Game.Status.FINISHED, Game.Status.CANCELLED]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {pairs}")
        cursor.execute(
            f"INSERT INTO {pairs} (user_id, other_id)"
            f" SELECT DISTINCT a.user_id, b.user_id FROM {seats} a JOIN {seats} b"
            f" ON b.game_id = a.game_id AND b.user_id <> a.user_id"
            f" JOIN {games} g ON g.id = a.game_id"
            f" WHERE g.status IN (%s, %s) AND NOT a.robot AND NOT b.robot",
            ended,
        )
        return cursor.rowcount


def tallies_rebuild(game_seats=GameSeat, tallies=PlayerTally) -> int:
    """Every tally counted again from the ended parties (the migration that made them, a
    repair): returns how many players have one. `game_seats`, `tallies`: the models, or their
    historical forms in a migration."""
    robot_seat = game_seats.objects.filter(game_id=OuterRef("game_id"), robot=True)
    rows = (
        game_seats.objects.filter(game__status__in=[Game.Status.FINISHED, Game.Status.CANCELLED])
        .exclude(Exists(robot_seat))
        .order_by()
        .values("user_id")
        .annotate(ended=Count("pk"), abandoned=Count("pk", filter=Q(abandoned=True)))
        .values_list("user_id", "ended", "abandoned")
    )
    with transaction.atomic():
        tallies.objects.all().delete()
        made = tallies.objects.bulk_create(
            [tallies(user_id=u, ended=e, abandoned=a) for u, e, a in rows.iterator()],
            batch_size=1000,
        )
    return len(made)


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
    _after_the_last_rated(game, current)
    changes = _apply(game, seats, current)
    Rating.objects.bulk_update(current, ["mu", "sigma", "points", "parties", "updated"])
    created = RatingChange.objects.bulk_create(changes)
    _pairs_rate(game, seats, changes)
    return created


def _pairs_rate(game: Game, seats: list[GameSeat], changes: list[RatingChange]) -> None:
    """The parejas of the partie's teams (pairs.selectors.pairs_at: one query; none, the
    usual case, ends here), their PairRating rows created if new and locked in pair order
    (after the players' rows, as everywhere), moved, and one PairRatingChange each."""
    teams = pairs_at([(game, seats)]).get(game.pk)
    if not teams:
        return
    mu, sigma = rating.initial()
    start = rating.points((mu, sigma))
    PairRating.objects.bulk_create(
        [
            PairRating(pair_id=p, mu=mu, sigma=sigma, points=start, updated=game.finished_at)
            for p in teams.values()
        ],
        ignore_conflicts=True,
    )
    locked = {
        r.pair_id: r
        for r in PairRating.objects.select_for_update()
        .filter(pair_id__in=teams.values())
        .order_by("pk")
    }
    current = {team: locked[pair_id] for team, pair_id in teams.items()}
    pair_changes = _apply_pairs(game, changes, current)
    PairRating.objects.bulk_update(
        current.values(), ["mu", "sigma", "points", "parties", "updated"]
    )
    PairRatingChange.objects.bulk_create(pair_changes)


def _after_the_last_rated(game: Game, current: list[Rating]) -> None:
    """Two parties sharing a player that end together may take the ratings' locks in the other
    order than their end times: the later-locked one then ends, for the records, a microsecond
    after the partie rated just before it, so the history stays in (finished_at, pk) order and
    a rebuild (or a correction's re-rating) gives the numbers the Finisher gave. One more query,
    in that race only."""
    rated_at = [r.updated for r in current if r.parties and r.updated >= game.finished_at]
    if rated_at:
        game.finished_at = max(rated_at) + timedelta(microseconds=1)
        Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at)


def _apply(game: Game, seats: list[GameSeat], current: list[Rating]) -> list[RatingChange]:
    """Move the four `current` ratings (in seat order) by the partie's result, in memory, and
    return the history rows. The one place both the Finisher and the rebuild go through."""
    after = rating.after_partie([(r.mu, r.sigma) for r in current], game.winning_team)
    changes = []
    for seat, row, skill in zip(seats, current, after, strict=True):
        won = team_of(seat.number) == game.winning_team
        changes.append(_move(row, skill, RatingChange(user_id=seat.user_id), game, won))
    return changes


def _move(row, skill: rating.Skill, change, game: Game, won: bool):
    """Fill the history row `change` of one rating `row` (a Rating or a PairRating) moved to
    `skill` by `game`, and move the row, in memory; returns the change."""
    mu, sigma = skill
    change.game_id, change.at, change.won = game.pk, game.finished_at, won
    change.mu_before, change.sigma_before, change.points_before = row.mu, row.sigma, row.points
    change.mu, change.sigma, change.points = mu, sigma, rating.points(skill)
    row.mu, row.sigma, row.points = mu, sigma, change.points
    row.parties += 1
    row.updated = game.finished_at
    return change


def _apply_pairs(
    game: Game, changes: list[RatingChange], current: dict[int, PairRating]
) -> list[PairRatingChange]:
    """Move the `current` pair ratings ({team: PairRating}) by the partie's result, in memory,
    and return their history rows. A pair meets the other team as one entity: the other pair
    (both move), or its two players as openskill's team_of_two of their ratings before the
    partie (`changes`, in seat order), who do not move here. Shared by the Finisher and the
    rebuild, like `_apply`."""
    before = [(c.mu_before, c.sigma_before) for c in changes]
    skills = {team: (r.mu, r.sigma) for team, r in current.items()}
    if len(skills) == 2:  # two parejas face each other: both move, together
        first, second = rating.after_match(skills[0], skills[1], game.winning_team == 0)
        after = {0: first, 1: second}
    else:
        [(team, mine)] = skills.items()
        other = 1 - team
        opponent = rating.team_of_two(before[other], before[other + 2])
        after = {team: rating.after_match(mine, opponent, game.winning_team == team)[0]}
    return [
        _move(
            row, after[team], PairRatingChange(pair_id=row.pair_id), game, game.winning_team == team
        )
        for team, row in sorted(current.items())
    ]


def ratings_rebuild(*, since: Game | None = None) -> int:
    """Forget every rating and rate again every finished partie between four people whose
    rating was not voided, in the order they ended; returns how many parties were rated. The
    tables are locked first (the Finisher's receiver waits, then rates its partie on top of the
    rebuilt numbers).

    With `since` (a finished partie whose rating was just voided or restored), only what ended
    from that partie on, in (finished_at, pk) order, is forgotten and rated again: what ended
    before cannot change, so each affected player starts from their last RatingChange before
    that point (none: a newcomer), and the re-rating goes through the same `_apply` in the same
    order, which gives exactly a full rebuild's numbers for the cost of the later parties."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            tables = (Rating, RatingChange, PairRating, PairRatingChange)
            cursor.execute(
                f"LOCK TABLE {', '.join(m._meta.db_table for m in tables)} IN EXCLUSIVE MODE"
            )
        if since is None:
            PairRatingChange.objects.all().delete()
            PairRating.objects.all().delete()
            RatingChange.objects.all().delete()
            Rating.objects.all().delete()
            parties = _rated_parties(Q())
            ratings: dict[int, Rating] = {}
            teams = pairs_at(parties)
            pair_ratings: dict[int, PairRating] = {}
        else:
            if since.finished_at is None:
                raise ValueError("only a finished partie is a point to rate again from")
            parties = _rated_parties(
                Q(finished_at__gt=since.finished_at)
                | Q(finished_at=since.finished_at, pk__gte=since.pk)
            )
            ratings = _ratings_before(since, parties)
            teams = pairs_at(parties)
            pair_ratings = _pair_ratings_before(since, teams)
        changes, pair_changes = _rerate(parties, ratings, teams, pair_ratings)
        Rating.objects.bulk_create(ratings.values(), batch_size=1000)
        RatingChange.objects.bulk_create(changes, batch_size=1000)
        PairRating.objects.bulk_create(pair_ratings.values(), batch_size=1000)
        PairRatingChange.objects.bulk_create(pair_changes, batch_size=1000)
    return len(parties)


def _rated_parties(ended: Q) -> list[tuple[Game, list[GameSeat]]]:
    """The rated parties among the finished ones matching `ended`, rating not voided, in the
    order they ended, each with its seats in seat order: two queries."""
    games = (
        Game.objects.filter(ended, status=Game.Status.FINISHED)
        .exclude(pk__in=RatingVoid.objects.values("game_id"))
        .order_by("finished_at", "pk")
        # What is_rated and _apply read: not the engine state, a JSON document per partie.
        .only("status", "winning_team", "finished_at", "created")
    )
    seats_by_game: dict[int, list[GameSeat]] = {}
    for seat in GameSeat.objects.filter(game__in=games).order_by("game_id", "number"):
        seats_by_game.setdefault(seat.game_id, []).append(seat)
    rated = [(game, seats_by_game.get(game.pk, [])) for game in games]
    return [(game, seats) for game, seats in rated if is_rated(game, seats)]


def _ratings_before(since: Game, parties: list[tuple[Game, list[GameSeat]]]) -> dict[int, Rating]:
    """Delete every rating change from `since` on and the ratings of the players they or the
    later `parties` touch; return those players' ratings as they stood just before `since`
    (unsaved), from their last earlier change. A player with none is left out: the re-rating
    starts them as a newcomer, and one the re-rating does not meet ends with no Rating row, as
    after a full rebuild."""
    later = _from(since)
    later_players = RatingChange.objects.filter(later).order_by().values_list("user_id", flat=True)
    affected = set(later_players.distinct())
    affected.update(seat.user_id for _game, seats in parties for seat in seats)
    return _standing_before(RatingChange, Rating, "user_id", affected, later)


def _pair_ratings_before(since: Game, teams: dict[int, dict[int, int]]) -> dict[int, PairRating]:
    """`_ratings_before` for the parejas: their changes from `since` on deleted, and the
    ratings of the pairs those or the later parties (`teams`) touch, as they stood before."""
    later = _from(since)
    affected = set(
        PairRatingChange.objects.filter(later).order_by().values_list("pair_id", flat=True)
    )
    affected.update(pair_id for by_team in teams.values() for pair_id in by_team.values())
    if not affected:
        return {}
    return _standing_before(PairRatingChange, PairRating, "pair_id", affected, later)


def _from(since: Game) -> Q:
    """The rating changes from `since` on: `at` is its partie's finished_at, so (at, game_id)
    orders them like the parties."""
    return Q(at__gt=since.finished_at) | Q(at=since.finished_at, game_id__gte=since.pk)


def _standing_before(change_model, rating_model, key: str, affected: set[int], later: Q) -> dict:
    """The `affected` ratings ({`key` value: unsaved rating_model row}) as their last change
    not in `later` left them, with the count of their earlier changes; then the `later`
    changes and the `affected` ratings deleted."""
    newest_first = [F("at").desc(), F("game_id").desc()]
    last_earlier = (
        change_model.objects.filter(**{f"{key}__in": affected})
        .exclude(later)
        # The whole partition counted, in the DISTINCT ON's order: one sort for both.
        .annotate(
            earlier=Window(
                Count("pk"),
                partition_by=[F(key)],
                order_by=newest_first,
                frame=RowRange(start=None, end=None),
            )
        )
        .order_by(key, *newest_first)
        .distinct(key)
    )
    ratings = {
        getattr(change, key): rating_model(
            **{key: getattr(change, key)},
            mu=change.mu,
            sigma=change.sigma,
            points=change.points,
            parties=change.earlier,
            updated=change.at,
        )
        for change in last_earlier
    }
    change_model.objects.filter(later).delete()
    rating_model.objects.filter(**{f"{key}__in": affected}).delete()
    return ratings


def _rerate(
    parties: list[tuple[Game, list[GameSeat]]],
    ratings: dict[int, Rating],
    teams: dict[int, dict[int, int]],
    pair_ratings: dict[int, PairRating],
) -> tuple[list[RatingChange], list[PairRatingChange]]:
    """Rate `parties` in order on top of `ratings` (by user id, moved in memory; a player not
    there starts as a newcomer and is added) and of `pair_ratings` (by pair id, the same) for
    the parejas of `teams`; return the history rows of both."""
    mu, sigma = rating.initial()
    start = rating.points((mu, sigma))
    changes: list[RatingChange] = []
    pair_changes: list[PairRatingChange] = []
    for game, seats in parties:
        current = [
            ratings.setdefault(
                s.user_id, Rating(user_id=s.user_id, mu=mu, sigma=sigma, points=start, parties=0)
            )
            for s in seats
        ]
        moved = _apply(game, seats, current)
        changes += moved
        paired = teams.get(game.pk)
        if paired:
            current_pairs = {
                team: pair_ratings.setdefault(
                    p, PairRating(pair_id=p, mu=mu, sigma=sigma, points=start, parties=0)
                )
                for team, p in paired.items()
            }
            pair_changes += _apply_pairs(game, moved, current_pairs)
    return changes, pair_changes
