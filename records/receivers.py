"""records listens to games: a partie's ratings and its players' tallies move in the transaction
that ends it."""

from django.dispatch import receiver

from games.signals import partie_ended
from records import services


@receiver(partie_ended, dispatch_uid="records.rate_partie")
def rate_partie(sender, game, **kwargs):
    services.partie_rate(game)


@receiver(partie_ended, dispatch_uid="records.tally_partie")
def tally_partie(sender, game, **kwargs):
    services.partie_tally(game)
