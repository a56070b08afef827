"""records listens to games: a partie's ratings and its players' tallies move in the
transaction that ends it, and the names games shows get their reputation."""

from django.dispatch import receiver

from games.signals import partie_ended, reputations_wanted
from records import selectors, services


@receiver(partie_ended, dispatch_uid="records.rate_partie")
def rate_partie(sender, game, **kwargs):
    services.partie_rate(game)


@receiver(reputations_wanted, dispatch_uid="records.reputations")
def reputations(sender, user_ids, **kwargs):
    return selectors.reputations(user_ids)


@receiver(partie_ended, dispatch_uid="records.tally_partie")
def tally_partie(sender, game, **kwargs):
    services.partie_tally(game)
