"""Signals games sends to the apps built on it (which games never imports)."""

from django.dispatch import Signal

#: Sent by the Finisher (games.services.play._finish) inside the transaction that ends the
#: partie, once per partie: `game` (its status, winning_team and seats' results written).
#: A receiver's write is part of that transaction; an error in it rolls the ending back.
partie_ended = Signal()

#: Sent when a page shows players' names: `user_ids`. Each receiver answers {user id: what to
#: show beside the name} (records: the rating and completion rate), in a fixed number of queries.
reputations_wanted = Signal()


def reputations(user_ids) -> dict:
    """{user id: reputation} from every app that answers `reputations_wanted`."""
    known: dict = {}
    for _receiver, answer in reputations_wanted.send(sender=None, user_ids=user_ids):
        known.update(answer)
    return known
