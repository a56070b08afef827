"""The parejas' ratings: moved by the Finisher, once, only by finished parties between people
where the pair's two members sat as partners while it was formed; the players' ratings are
the same as without pairs; ratings_rebuild (full, or from a voided partie) gives exactly the
stored numbers."""

import copy

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.engine import SeededShuffler
from games.models import Game
from games.services import play, robots, salle
from moderation.services import partie_rating_restore, partie_rating_void
from pairs import services
from records import rating
from records.models import PairRating, PairRatingChange, Rating, RatingChange
from records.services import partie_rate
from tests.games.helpers import next_move, run_together
from tests.pairs.helpers import form_pair
from tests.records.helpers import QUICK, cancel_by_absence, play_out, start, won_by

pytestmark = pytest.mark.django_db(transaction=True)


def pair_snapshot():
    ratings = sorted(PairRating.objects.values_list("pair_id", "mu", "sigma", "points", "parties"))
    changes = sorted(
        PairRatingChange.objects.values_list(
            "game_id", "pair_id", "mu_before", "sigma_before", "mu", "sigma", "points", "won"
        )
    )
    return ratings, changes


def player_snapshot():
    return (
        sorted(Rating.objects.values_list("user_id", "mu", "sigma", "points", "parties")),
        sorted(RatingChange.objects.values_list("game_id", "user_id", "mu", "sigma", "points")),
    )


def test_a_pair_against_two_players_moves_as_one_entity(cast):
    ane, bixente, camille, dani = cast
    pair = form_pair(ane, camille)
    game = won_by(cast, team=0)
    [change] = PairRatingChange.objects.filter(game=game)
    assert (change.pair_id, change.won) == (pair.pk, True)
    # won_by may have played lost parties first: the pair stands where they left it
    befores = {c.user_id: (c.mu_before, c.sigma_before) for c in game.rating_changes.all()}
    opponents = rating.team_of_two(befores[bixente.pk], befores[dani.pk])
    expected, _ = rating.after_match((change.mu_before, change.sigma_before), opponents, True)
    assert (change.mu, change.sigma) == expected
    assert change.points > change.points_before
    stored = PairRating.objects.get(pair=pair)
    rated = Game.objects.filter(status=Game.Status.FINISHED).count()
    assert (stored.mu, stored.sigma, stored.points, stored.parties) == (
        *expected,
        change.points,
        rated,
    )


def test_the_players_ratings_are_those_without_the_pair(cast):
    ane, bixente, camille, dani = cast
    form_pair(ane, camille)
    game = won_by(cast, team=1)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    befores = [(changes[u.pk].mu_before, changes[u.pk].sigma_before) for u in cast]
    expected = rating.after_partie(befores, winning_team=1)
    assert [(changes[u.pk].mu, changes[u.pk].sigma) for u in cast] == expected
    assert not PairRatingChange.objects.get(game=game).won


def test_two_pairs_facing_each_other_both_move(cast):
    ane, bixente, camille, dani = cast
    ours, theirs = form_pair(ane, camille), form_pair(bixente, dani, "Hegoak")
    game = won_by(cast, team=1)
    moved = {c.pair_id: c for c in PairRatingChange.objects.filter(game=game)}
    lost, won = rating.after_match(
        (moved[ours.pk].mu_before, moved[ours.pk].sigma_before),
        (moved[theirs.pk].mu_before, moved[theirs.pk].sigma_before),
        False,
    )
    assert (moved[ours.pk].mu, moved[ours.pk].sigma, moved[ours.pk].won) == (*lost, False)
    assert (moved[theirs.pk].mu, moved[theirs.pk].sigma, moved[theirs.pk].won) == (*won, True)


def test_partners_who_are_not_a_pair_or_pair_members_apart_move_no_pair(cast, make_user):
    ane, bixente, camille, dani = cast
    form_pair(ane, bixente)  # they sit as opponents below
    services.pair_propose(user=camille, partner_name="ane", name="Hegoak")  # never accepted
    won_by(cast, team=0)
    assert not PairRatingChange.objects.exists() and not PairRating.objects.exists()


def test_a_pair_formed_during_a_partie_counts_from_the_next(cast):
    ane, bixente, camille, dani = cast
    game = start(cast)
    pair = form_pair(ane, camille)
    play_out(game)
    assert not PairRatingChange.objects.exists()
    later = play_out(start(cast))
    assert PairRatingChange.objects.get().game_id == later.pk
    assert PairRating.objects.get(pair=pair).parties == 1


def test_robots_never_count(ane, camille):
    pair = form_pair(ane, camille)
    table = services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4)
    robots.robots_fill(user=ane, table_id=table.pk)
    salle.table_start(user=ane, table_id=table.pk, first_mano=0)
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, winning_team=0, finished_at=timezone.now()
    )
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    assert partie_rate(game) == []
    assert not PairRating.objects.exists()


def test_a_cancelled_partie_moves_no_pair(cast):
    ane, bixente, camille, dani = cast
    form_pair(ane, camille)
    cancel_by_absence(start(cast), seat=1)
    assert not PairRating.objects.exists()


def test_the_pair_moves_once_even_if_the_finisher_is_called_again(cast):
    ane, bixente, camille, dani = cast
    form_pair(ane, camille)
    game = play_out(start(cast))
    first = pair_snapshot()
    play.game_finish(game=game, status=Game.Status.FINISHED, reason="encore")
    assert pair_snapshot() == first
    assert PairRatingChange.objects.filter(game=game).count() == 1


def test_the_pair_is_rated_in_the_finishers_transaction_in_four_more_queries(cast):
    ane, bixente, camille, dani = cast
    game = start(cast)
    pair = form_pair(ane, camille)
    game = play_out(game)  # rated without the pair: it was formed after the start
    game.refresh_from_db()
    RatingChange.objects.filter(game=game).delete()
    Rating.objects.all().delete()
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as without:
        partie_rate(game)
    RatingChange.objects.filter(game=game).delete()
    Rating.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(created=pair.accepted_at)
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as paired:
        partie_rate(game)
    # the pairs of the partie (also read when there are none), then the pair's rating
    # created, locked, updated and its change inserted
    assert len(paired) - len(without) == 4
    assert PairRatingChange.objects.filter(game=game, pair=pair).exists()


def finish_with(game: Game, during) -> tuple[Game, object]:
    """Play `game` with random decisions up to its last one, then send that decision and
    `during()` together: real concurrent transactions."""
    rng = SeededShuffler(3)
    users = {s.number: s.user for s in game.seats.select_related("user")}
    for _ in range(5000):
        game.refresh_from_db()
        seat, action = next_move(game, rng, QUICK)
        after = engine.apply(copy.deepcopy(game.state), seat, action, shuffler=SeededShuffler(0))
        if after["status"] == "finished":
            break
        play.game_apply_action(
            user=users[seat], game_id=game.pk, version=game.version, action=action
        )
    last = game.version

    def decide():
        return play.game_apply_action(
            user=users[seat], game_id=game.pk, version=last, action=action
        )

    _finished, answer = run_together(decide, during)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, answer


@pytest.mark.parametrize("round_", range(2))
def test_a_dissolve_during_the_partie_leaves_it_counting_for_the_pair(round_, cast):
    ane, bixente, camille, dani = cast
    pair = form_pair(ane, camille)
    game, dissolved = finish_with(
        start(cast), lambda: services.pair_dissolve(user=camille, pair_id=pair.pk)
    )
    assert dissolved.status == "dissolved"
    assert PairRatingChange.objects.get().game_id == game.pk
    play_out(start(cast))  # after the dissolution: the pair no longer moves
    assert PairRating.objects.get(pair=pair).parties == 1
    before = pair_snapshot(), player_snapshot()
    call_command("ratings_rebuild")
    assert (pair_snapshot(), player_snapshot()) == before


def test_the_rebuild_reproduces_the_pair_ratings(cast, make_user):
    ane, bixente, camille, dani = cast
    eder = make_user("eder")
    ours = form_pair(ane, camille)
    form_pair(bixente, dani, "Hegoak")
    form_pair(eder, ane, "Itsasoa")
    for seed, users in enumerate(
        [cast, [bixente, ane, dani, camille], [ane, bixente, eder, dani], cast], start=1
    ):
        play_out(start(users), seed)
    services.pair_dissolve(user=ane, pair_id=ours.pk)
    play_out(start(cast), 9)
    stored = pair_snapshot(), player_snapshot()
    assert len(stored[0][1]) >= 5
    call_command("ratings_rebuild")
    assert (pair_snapshot(), player_snapshot()) == stored


def test_a_voided_partie_replays_the_pair_ratings_like_a_full_rebuild(cast, make_user):
    ane, bixente, camille, dani = cast
    staff = make_user("staff", is_superuser=True, is_staff=True)
    form_pair(ane, camille)
    form_pair(bixente, dani, "Hegoak")
    games = [play_out(start(cast), seed) for seed in (1, 2, 3)]
    stored = pair_snapshot()
    partie_rating_void(game=games[1], by=staff, reason="collusion")
    voided = pair_snapshot(), player_snapshot()
    assert {g for g, *_ in voided[0][1]} == {games[0].pk, games[2].pk}
    call_command("ratings_rebuild")
    assert (pair_snapshot(), player_snapshot()) == voided
    partie_rating_restore(game=games[1], by=staff, reason="erreur")
    assert pair_snapshot() == stored
