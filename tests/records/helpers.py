"""Scripted parties for the records' tests: a table of four started and played to its end, or
cancelled for each cause, through the site's own services."""

from datetime import timedelta

from django.utils import timezone

from games.engine import SeededShuffler
from games.engine.random_play import DEFAULT_WEIGHTS
from games.models import Game, GameSeat
from games.services import deadlines, play, salle, time_outs
from tests.games.helpers import next_move

#: órdagos often: a partie in a few dozen decisions
QUICK = dict(DEFAULT_WEIGHTS, ordago=40, ordago_vote=40, hold=50)


def start(users, *, kings=4, first_mano=0) -> Game:
    """users[0] opens a table, the other three sit in order, users[0] starts it."""
    table = salle.table_create(user=users[0], kings=kings)
    for number, user in enumerate(users[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    salle.table_start(user=users[0], table_id=table.pk, first_mano=first_mano)
    return Game.objects.get(table=table)


def play_out(game: Game, seed: int = 1, weights=QUICK) -> Game:
    """Random legal decisions, posted through play.game_apply_action, until the partie ends."""
    rng = SeededShuffler(seed)
    users = {s.number: s.user for s in game.seats.select_related("user")}
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        seat, action = next_move(game, rng, weights)
        play.game_apply_action(
            user=users[seat], game_id=game.pk, version=game.version, action=action
        )
    raise AssertionError("the partie did not end")


def won_by(users, team: int, *, seed_from: int = 1) -> Game:
    """A partie of `users` (in seat order) that `team` won: the first seed that gives it."""
    for seed in range(seed_from, seed_from + 50):
        game = play_out(start(users), seed)
        if game.winning_team == team:
            return game
    raise AssertionError("no seed won it for that team")


def cancel_by_absence(game: Game, seat: int) -> Game:
    """`seat` left and did not come back in time."""
    gone = GameSeat.objects.get(game=game, number=seat)
    now = timezone.now()
    gone.away_since, gone.deadline = now - timedelta(minutes=2), now - timedelta(seconds=1)
    gone.save(update_fields=["away_since", "deadline"])
    assert deadlines.game_cancel_if_abandoned(seat_id=gone.pk, now=now) is not None
    game.refresh_from_db()
    return game


def cancel_by_clock(game: Game) -> Game:
    """Nobody plays: the clocks run out until a seat has missed too many decisions in a row."""
    now = timezone.now()
    for _ in range(200):
        now += timedelta(minutes=10)
        time_outs.turn_time_out(game_id=game.pk, now=now)
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
    raise AssertionError("the clock never cancelled the partie")
