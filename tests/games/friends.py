"""Helpers of the friends' tests: a partie played to its end through the services."""

from games.engine import SeededShuffler
from games.engine.random_play import DEFAULT_WEIGHTS
from games.models import Game
from games.services import play
from tests.games.helpers import next_move

#: random play that ends fast: the first lances go to órdago, and it is held
QUICK_END = dict(DEFAULT_WEIGHTS, ordago=400, ordago_vote=400, hold=400, mus=0)


def finish_game(game: Game, users, *, seed=7, limit=4000) -> Game:
    """Play `game` to its end with random legal actions (`users` in seat order)."""
    rng = SeededShuffler(seed)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        seat, action = next_move(game, rng, QUICK_END)
        play.game_apply_action(
            table_id=game.table_id, user=users[seat], version=game.version, action=action
        )
    raise AssertionError("the partie did not end")
