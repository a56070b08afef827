"""Hints at a practice table (docs/review.md): the robot's suggestion for the seat's decision
and the exact strength of its hand, for a player whose every other seat is a robot. At a table
with another person they would be help that person does not get: refused."""

from django.conf import settings
from django.utils.translation import gettext_lazy

from core import ratelimit
from games import engine, vocabulary
from games.engine import hints
from games.models import Game
from games.services.errors import GameError, NotSeated

NOT_PRACTICE = gettext_lazy(
    "Les conseils ne se donnent qu’à une table d’entraînement, contre trois robots."
)
NOT_YOUR_DECISION = gettext_lazy("Le conseil vient quand c’est à vous de décider.")
NO_GAME = gettext_lazy("Il n’y a pas de partie en cours à cette table.")
TOO_MANY = gettext_lazy("Trop de conseils d’affilée : attendez un instant.")


def hints_per_user() -> ratelimit.Limit:
    """Per player, hints however asked (POST, socket): the decisions' own pace."""
    return ratelimit.Limit("hints", count=settings.DECISIONS_PER_SECOND, seconds=1)


class TooManyHints(GameError):
    status = 429


def practice_hint(*, user, table_id: int) -> dict:
    """{"advice", "strength", "lance"} for the user's decision at this practice table; raises
    a Refused (its French message) anywhere else, or past the rate limit."""
    if ratelimit.hit(hints_per_user(), user.pk):
        raise TooManyHints(str(TOO_MANY))
    game = (
        Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING)
        .prefetch_related("seats")
        .first()
    )
    if game is None:
        raise GameError(str(NO_GAME))
    seats = list(game.seats.all())
    seat = next((s.number for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotSeated(str(vocabulary.NOT_SEATED))
    if any(not s.robot for s in seats if s.number != seat):
        raise NotSeated(str(NOT_PRACTICE))
    obs = engine.observation(game.state, seat)
    if not [t for t in obs["legal"] if t["type"] != "deal"]:
        raise GameError(str(NOT_YOUR_DECISION))
    return {
        "advice": hints.advice(obs),
        "strength": hints.hand_strength(obs),
        "lance": obs["lance"],
        "kings": obs["kings"],
    }
