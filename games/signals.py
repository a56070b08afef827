"""Signals games sends to the apps built on it (which games never imports)."""

from django.dispatch import Signal

#: Sent by the Finisher (games.services.play._finish) inside the transaction that ends the
#: partie, once per partie: `game` (its status, winning_team and seats' results written).
#: A receiver's write is part of that transaction; an error in it rolls the ending back.
partie_ended = Signal()

#: Sent when a page shows players' names: `user_ids`. Each receiver answers {user id: what to
#: show beside the name} (records: the rating and completion rate), in a fixed number of queries.
reputations_wanted = Signal()


#: Sent when a host's minimum completion rate is checked (games.services.salle): `user_id`.
#: A receiver answers the player's rate in percent, or None before any ended partie between
#: people (records: from the counters kept as parties end, one query).
completion_wanted = Signal()

#: Sent when the salle marks friends: `user_id`, `among` (the ids of the names it shows). A
#: receiver answers the set of those who have played a partie with the user (records: one
#: query over the pairs noted as parties end, whatever the histories).
friends_wanted = Signal()


def completion_rate(user_id: int) -> int | None:
    """The first rate a receiver of `completion_wanted` knows (None if none does)."""
    for _receiver, answer in completion_wanted.send(sender=None, user_id=user_id):
        if answer is not None:
            return int(answer)
    return None


def friends(user_id: int, among) -> set[int]:
    """The users `among` that the receivers of `friends_wanted` call this one's friends."""
    found: set[int] = set()
    for _receiver, answer in friends_wanted.send(sender=None, user_id=user_id, among=among):
        found |= answer
    return found


def reputations(user_ids) -> dict:
    """{user id: reputation} from every app that answers `reputations_wanted`."""
    known: dict = {}
    for _receiver, answer in reputations_wanted.send(sender=None, user_ids=user_ids):
        known.update(answer)
    return known


#: Sent when a player reports a quick phrase said at their table (« Signaler »,
#: games.services.phrases): `phrase` (a TablePhrase), `reporter`. A receiver records it for
#: the moderators (moderation: the reported phrases, in the admin) and answers whether the
#: report is new.
phrase_reported = Signal()


def report_phrase(*, phrase, reporter) -> bool:
    """Hand a report to the receivers of `phrase_reported`; True if one recorded it anew."""
    answers = phrase_reported.send(sender=None, phrase=phrase, reporter=reporter)
    return any(bool(answer) for _receiver, answer in answers)
