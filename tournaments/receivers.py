"""tournaments listens to games: a tournament partie's result is written in the transaction
that ends it, and the tournament advances on commit."""

from django.dispatch import receiver

from games.signals import partie_ended
from tournaments import services


@receiver(partie_ended, dispatch_uid="tournaments.partie_result")
def partie_result(sender, game, **kwargs):
    services.partie_result(game)
