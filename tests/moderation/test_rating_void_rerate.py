"""A rating correction rates again only the parties that ended from the corrected one on
(records.services.ratings_rebuild(since=...)): over random histories its Rating and
RatingChange rows are exactly a full rebuild's, a void then its restore gives back the exact
rows, and it rates again, and queries, by the parties after the point, not the history before."""

import random
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, GameSeat, Table
from moderation import services
from records import rating
from records import services as records
from records.models import Rating, RatingChange, RatingVoid

pytestmark = pytest.mark.django_db


class Rollback(Exception):
    pass


def rows():
    """Every column of both tables but RatingChange.id (a re-rating writes new rows)."""
    ratings = Rating.objects.order_by("user_id").values_list(
        "user_id", "mu", "sigma", "points", "parties", "updated"
    )
    columns = [f.attname for f in RatingChange._meta.concrete_fields if f.attname != "id"]
    changes = RatingChange.objects.order_by("game_id", "user_id").values_list(*columns)
    return list(ratings), list(changes)


def full_rebuild_rows():
    """The rows a full rebuild gives, the database left as it was."""
    try:
        with transaction.atomic():
            records.ratings_rebuild()
            full = rows()
            raise Rollback
    except Rollback:
        return full


def partie(players, finished_at, *, status=Game.Status.FINISHED, winner=0, robot_seat=None):
    """A partie of `players` in seat order, inserted directly: the ratings read only its
    status, end time, winner and seats."""
    table = Table.objects.create(host=players[0], kings=4, status=Table.Status.CLOSED)
    game = Game.objects.create(
        table=table,
        kings=4,
        status=status,
        state={},
        winning_team=winner if status == Game.Status.FINISHED else None,
        finished_at=finished_at,
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, number=n, user=user, robot=n == robot_seat)
        for n, user in enumerate(players)
    )
    return game


def random_history(rng, players, newcomer, size) -> list[Game]:
    """`size` parties among `players`, created in an order unrelated to their end times, many
    ending at the same instant (the id decides), some cancelled or with a robot; plus one
    rated partie for `newcomer`, their only one. Returns the rated ones in the order they
    ended."""
    start = timezone.now() - timedelta(days=30)
    ends = [start + timedelta(minutes=rng.randrange(size // 3)) for _ in range(size + 1)]
    games = []
    for number, end in enumerate(ends):
        seated = rng.sample(players, 4)
        if number == size:
            seated[rng.randrange(4)] = newcomer
            games.append(partie(seated, end, winner=rng.randrange(2)))
            continue
        kind = rng.random()
        if kind < 0.15:
            partie(seated, end, status=Game.Status.CANCELLED)
        elif kind < 0.25:
            partie(seated, end, winner=rng.randrange(2), robot_seat=rng.randrange(4))
        else:
            games.append(partie(seated, end, winner=rng.randrange(2)))
    return sorted(games, key=lambda g: (g.finished_at, g.pk))


@pytest.mark.parametrize("seed", range(8))
def test_a_correction_gives_exactly_a_full_rebuilds_rows(seed, mikel, make_user):
    rng = random.Random(seed)
    players = [make_user(f"joueur{n}") for n in range(7)]
    newcomer = make_user("berria")
    rated = random_history(rng, players, newcomer, size=45)
    records.ratings_rebuild()
    newcomers_partie = next(g for g in rated if g.seats.filter(user=newcomer).exists())
    voided: set[int] = set()
    for step in range(14):
        game = rng.choice(
            [rated[0], rated[1], rated[len(rated) // 2], rated[-2], rated[-1], newcomers_partie]
            + rng.sample(rated, 2)
        )
        if game.pk in voided:
            services.partie_rating_restore(game=game, by=mikel, reason=f"Étape {step}")
            voided.remove(game.pk)
        else:
            services.partie_rating_void(game=game, by=mikel, reason=f"Étape {step}")
            voided.add(game.pk)
        assert set(RatingVoid.objects.values_list("game_id", flat=True)) == voided
        assert rows() == full_rebuild_rows()
    if newcomers_partie.pk not in voided:
        services.partie_rating_void(game=newcomers_partie, by=mikel, reason="Seule partie")
        assert rows() == full_rebuild_rows()
    assert not Rating.objects.filter(user=newcomer).exists()


@pytest.mark.parametrize("seed", range(4))
def test_a_void_then_its_restore_gives_back_the_exact_rows(seed, mikel, make_user):
    rng = random.Random(seed)
    players = [make_user(f"joueur{n}") for n in range(6)]
    rated = random_history(rng, players, make_user("berria"), size=36)
    records.ratings_rebuild()
    for game in (rated[0], rated[len(rated) // 2], rated[-1], *rng.sample(rated, 3)):
        before = rows()
        services.partie_rating_void(game=game, by=mikel, reason="Entente")
        assert rows() != before
        services.partie_rating_restore(game=game, by=mikel, reason="Soupçon levé")
        assert rows() == before


def test_a_newcomer_corrected_before_their_first_partie_starts_from_the_initial_rating(
    cast, mikel, make_user
):
    ane, bixente, camille, dani = cast
    eve = make_user("eve")
    start = timezone.now() - timedelta(days=1)
    first = partie(cast, start)
    partie([eve, ane, bixente, camille], start + timedelta(minutes=1), winner=1)
    records.ratings_rebuild()
    services.partie_rating_void(game=first, by=mikel, reason="Entente")
    assert rows() == full_rebuild_rows()
    assert not Rating.objects.filter(user=dani).exists()
    newcomer = rating.points(rating.initial())
    assert {c.points_before for c in RatingChange.objects.all()} == {newcomer}
    assert Rating.objects.get(user=eve).parties == 1


def history_in_order(players, size) -> list[Game]:
    """`size` rated parties among `players`, one a minute, inserted in bulk."""
    start = timezone.now() - timedelta(days=30)
    tables = Table.objects.bulk_create(
        Table(host=players[0], kings=4, status=Table.Status.CLOSED) for _ in range(size)
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
        GameSeat(game=game, number=n, user=players[(i + n * 2) % len(players)])
        for i, game in enumerate(games)
        for n in range(4)
    )
    return games


@pytest.fixture
def rerated(monkeypatch):
    """The parties the ratings maths is run for, in order."""
    seen: list[list[tuple[float, float]]] = []
    after_partie = rating.after_partie

    def counted(skills, winning_team):
        seen.append(skills)
        return after_partie(skills, winning_team)

    monkeypatch.setattr(rating, "after_partie", counted)
    return seen


def void_and_count(game, by):
    with CaptureQueriesContext(connection) as queries:
        services.partie_rating_void(game=game, by=by, reason="Entente")
    services.partie_rating_restore(game=game, by=by, reason="Soupçon levé")
    return len(queries)


def test_a_void_rates_again_and_queries_by_the_parties_after_it(mikel, make_user, rerated):
    players = [make_user(f"joueur{n}") for n in range(8)]
    games = history_in_order(players, 300)
    records.ratings_rebuild()
    mikel.has_perm("moderation.can_moderate")  # the permission cache, filled once per user
    queries = {}
    for position in (299, 290, 150, 60, 0):
        rerated.clear()
        queries[position] = void_and_count(games[position], mikel)
        # The void rates again the later parties only; the restore, the partie and those.
        assert len(rerated) == 2 * (299 - position) + 1
    # The same queries whatever the history before the point; after it, one insert of rating
    # changes per 1000 (4 a partie): none after the last partie, two after the first.
    assert queries[290] == queries[150] == queries[60]
    assert queries[299] == queries[290] - 1
    assert queries[0] == queries[290] + 1
    assert rows() == full_rebuild_rows()


def test_two_parties_rated_against_their_end_order_keep_the_history_in_order(mikel, make_user):
    """The later-ending partie took the shared player's rating lock first: the other one is
    recorded as ending after it, so the history is the order a rebuild rates them."""
    others = [make_user(name) for name in ("nora", "oier", "peio", "rosa", "sara", "txomin")]
    now = timezone.now()
    first = partie([mikel, *others[:3]], now - timedelta(seconds=1))
    second = partie([mikel, *others[3:]], now)
    records.partie_rate(Game.objects.get(pk=second.pk))
    records.partie_rate(Game.objects.get(pk=first.pk))
    first.refresh_from_db()
    assert first.finished_at > second.finished_at
    assert rows() == full_rebuild_rows()
