"""Ratings and counts after scripted parties: a finished partie between four people moves its
players' ratings once, in the Finisher's transaction; cancellations and robots move nothing;
the rebuild from the records gives the same numbers."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from games.models import Game, GameSeat
from games.selectors import completions
from games.services import deadlines
from moderation.services import game_cancel
from records import rating
from records.models import Rating, RatingChange
from tests.records.helpers import cancel_by_absence, cancel_by_clock, play_out, start, won_by

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot():
    ratings = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "points", "parties"))
    changes = sorted(
        RatingChange.objects.values_list(
            "game_id", "user_id", "mu_before", "sigma_before", "mu", "sigma", "points", "won"
        )
    )
    return ratings, changes


def test_a_won_partie_moves_each_rating_by_its_team_result(cast):
    game = won_by(cast, team=0)
    assert game.status == Game.Status.FINISHED
    moved = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    ane, bixente, camille, dani = (moved[u.pk] for u in cast)
    assert ane.won and camille.won and not bixente.won and not dani.won
    for change in moved.values():
        assert (change.points > change.points_before) is change.won
        assert change.sigma < change.sigma_before
    assert ane.mu - ane.mu_before > 0 > bixente.mu - bixente.mu_before
    current = {r.user_id: r for r in Rating.objects.all()}
    assert {u: (r.mu, r.sigma, r.points) for u, r in current.items()} == {
        u: (c.mu, c.sigma, c.points) for u, c in moved.items()
    }
    rated = Game.objects.filter(status=Game.Status.FINISHED).count()
    assert all(r.parties == rated for r in current.values())


def test_a_first_partie_starts_everyone_at_the_newcomers_rating(cast):
    game = play_out(start(cast))
    newcomer = rating.points(rating.initial())
    assert {c.points_before for c in RatingChange.objects.filter(game=game)} == {newcomer}


def test_a_later_partie_moves_the_ratings_from_where_they_stand(cast):
    ane, bixente, camille, dani = cast
    won_by([ane, bixente, camille, dani], team=0)
    before = {r.user_id: (r.mu, r.sigma, r.points) for r in Rating.objects.all()}
    game = won_by([ane, bixente, camille, dani], team=1)
    changes = {c.user_id: c for c in game.rating_changes.all()}
    last_before = {u: (c.mu_before, c.sigma_before, c.points_before) for u, c in changes.items()}
    if Game.objects.filter(status=Game.Status.FINISHED).count() == 2:
        assert last_before == before
    expected = rating.after_partie([last_before[u.pk][:2] for u in cast], winning_team=1)
    assert [(changes[u.pk].mu, changes[u.pk].sigma) for u in cast] == expected
    assert changes[bixente.pk].points > changes[bixente.pk].points_before


def test_the_ratings_move_once_even_if_the_finisher_is_called_again(cast):
    from games.services import play

    game = play_out(start(cast))
    first = snapshot()
    play.game_finish(game=game, status=Game.Status.FINISHED, reason="encore")
    assert snapshot() == first
    assert RatingChange.objects.filter(game=game).count() == 4


def test_cancelled_parties_rate_nobody_and_count_the_one_who_left(cast, make_user):
    ane, bixente, camille, dani = cast
    staff = make_user("modo", is_staff=True)
    absence = cancel_by_absence(start(cast), seat=1)
    clock = cancel_by_clock(start(cast))
    staff_cancel = start(cast)
    game_cancel(game=staff_cancel, by=staff, reason="test")
    idle = start(cast)
    later = timezone.now() + timedelta(minutes=settings.GAME_IDLE_MINUTES + 1)
    assert deadlines.game_cancel_if_idle(game_id=idle.pk, now=later) is not None
    assert not GameSeat.objects.filter(game=idle, abandoned=True).exists()
    assert {absence.status, clock.status} == {Game.Status.CANCELLED}
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    gone_by_clock = GameSeat.objects.get(game=clock, abandoned=True)
    assert gone_by_clock.user.username in clock.end_reason_text
    assert list(GameSeat.objects.filter(game=absence, abandoned=True)) == [
        GameSeat.objects.get(game=absence, number=1)
    ]
    assert not GameSeat.objects.filter(game=staff_cancel, abandoned=True).exists()
    rates = completions(u.pk for u in cast)
    assert rates[bixente.pk].ended == 4
    expected_gone = {u.pk: 0 for u in cast}
    expected_gone[bixente.pk] += 1
    expected_gone[gone_by_clock.user_id] += 1
    assert {u: c.abandoned for u, c in rates.items()} == expected_gone
    assert rates[camille.pk].rate == (100 if gone_by_clock.user_id != camille.pk else 75)


def test_a_partie_with_a_robot_counts_in_nobodys_rating_or_completion(cast):
    game = start(cast)
    GameSeat.objects.filter(game=game, number=3).update(robot=True)
    play_out(game)
    assert not Rating.objects.exists()
    cancel_by_absence(start(cast), seat=0)  # a partie between people, for contrast
    assert set(completions(u.pk for u in cast)) == {u.pk for u in cast}
    assert all(c.ended == 1 for c in completions(u.pk for u in cast).values())


def test_the_rebuild_gives_the_same_numbers(cast, make_user):
    ane, bixente, camille, dani = cast
    eve = make_user("eve")
    play_out(start(cast), seed=1)
    play_out(start([bixente, ane, dani, camille]), seed=2)
    cancel_by_absence(start(cast), seat=2)
    play_out(start([eve, ane, camille, dani]), seed=3)
    play_out(start([ane, eve, bixente, camille]), seed=4)
    written = snapshot()
    assert len(written[1]) == 16
    call_command("ratings_rebuild")
    assert snapshot() == written
