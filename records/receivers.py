"""records listens to games: a partie's ratings, its players' tallies and who played with whom
move in the transaction that ends it; the names games shows get their reputation, a host's
minimum its player's rate, the salle its friends, all read from those rows."""

from django.dispatch import receiver

from games.signals import completion_wanted, friends_wanted, partie_ended, reputations_wanted
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


@receiver(partie_ended, dispatch_uid="records.played_with")
def played_with(sender, game, **kwargs):
    services.partie_played_with(game)


@receiver(completion_wanted, dispatch_uid="records.completion")
def completion(sender, user_id, **kwargs):
    return selectors.completion_rate(user_id)


@receiver(friends_wanted, dispatch_uid="records.friends")
def friends(sender, user_id, among, **kwargs):
    return selectors.played_with(user_id, among)
