"""Reads of the parejas: a player's pairs and proposals, the pairs seated as partners in the
salle, and which pair each team of a partie was (the ratings' question)."""

from django.db.models import Q

from games.models import SEAT_COUNT
from pairs.models import Pair


def player_pairs(user, *, statuses=(Pair.Status.ACTIVE,)) -> list[Pair]:
    """`user`'s pairs in `statuses`, members along, the newest first."""
    return list(
        Pair.objects.filter(Q(proposer=user) | Q(partner=user), status__in=list(statuses))
        .select_related("proposer", "partner")
        .order_by("-accepted_at", "-created")
    )


def salle_pairs(user) -> tuple[list[Pair], list[Pair]]:
    """For the salle, in one query: `user`'s formed pairs (« avec ma pareja ») and the
    proposals waiting for their answer (a line that leads to « Mes parejas »)."""
    pairs = player_pairs(user, statuses=(Pair.Status.ACTIVE, Pair.Status.PROPOSED))
    formed = [p for p in pairs if p.status == Pair.Status.ACTIVE]
    waiting = [p for p in pairs if p.status == Pair.Status.PROPOSED and p.partner_id == user.pk]
    return formed, waiting


def proposals(user) -> tuple[list[Pair], list[Pair]]:
    """The proposals waiting for `user`'s answer, and those `user` made that wait."""
    waiting = list(
        Pair.objects.filter(Q(proposer=user) | Q(partner=user), status=Pair.Status.PROPOSED)
        .select_related("proposer", "partner")
        .order_by("-created")
    )
    received = [p for p in waiting if p.partner_id == user.pk]
    sent = [p for p in waiting if p.proposer_id == user.pk]
    return received, sent


def _teams(seats) -> dict[int, tuple[int, int]]:
    """{team: its two people's ids} for each team of `seats` held by two people."""
    by_number = {s.number: s for s in seats}
    teams = {}
    for team in range(SEAT_COUNT // 2):
        pair = [by_number.get(team), by_number.get(team + 2)]
        if all(s is not None and not s.robot and s.user_id for s in pair):
            teams[team] = (pair[0].user_id, pair[1].user_id)
    return teams


def seated_pair_names(tables) -> dict[tuple[int, int], str]:
    """{(table id, team): pair name} for the teams of `tables` (seats prefetched) held by the
    two members of an active pair: one query, none when no team has two people."""
    teams = {(t.pk, team): ids for t in tables for team, ids in _teams(t.seats.all()).items()}
    if not teams:
        return {}
    people = {pk for ids in teams.values() for pk in ids}
    named = {
        frozenset((a, b)): name
        for a, b, name in Pair.objects.filter(
            status=Pair.Status.ACTIVE, proposer_id__in=people, partner_id__in=people
        ).values_list("proposer_id", "partner_id", "name")
    }
    found = {key: named.get(frozenset(ids)) for key, ids in teams.items()}
    return {key: name for key, name in found.items() if name}


def pairs_at(parties) -> dict[int, dict[int, int]]:
    """{game id: {team: pair id}} for `parties` [(game, its seats)]: a team is a pair when its
    two members sat as partners in a partie that began while the pair was formed (accepted
    before the game's `created`, not ended before it). One query, whatever the parties."""
    teams = {game.pk: _teams(seats) for game, seats in parties}
    # Always the one query, even for no parties (an id no user has stands for nobody): a
    # correction's replay costs the same queries whatever comes after it (docs/records.md).
    people = {pk for by_team in teams.values() for ids in by_team.values() for pk in ids} or {0}
    formed: dict[frozenset, list[tuple]] = {}
    for pk, a, b, start, end in Pair.objects.filter(
        accepted_at__isnull=False, proposer_id__in=people, partner_id__in=people
    ).values_list("pk", "proposer_id", "partner_id", "accepted_at", "ended_at"):
        formed.setdefault(frozenset((a, b)), []).append((pk, start, end))
    found: dict[int, dict[int, int]] = {}
    for game, _seats in parties:
        for team, ids in teams[game.pk].items():
            for pk, start, end in formed.get(frozenset(ids), ()):
                if start <= game.created and (end is None or end > game.created):
                    found.setdefault(game.pk, {})[team] = pk
    return found
