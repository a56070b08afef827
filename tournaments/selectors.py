"""Reads of the tournaments: the salle's list, a tournament's page (its pairs, rounds, live
standings and each partie's link), who may see a private one, a pair's history."""

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Table
from tournaments import pairing, services
from tournaments.models import Match, MatchPartie, Tournament, TournamentPair


def tournament_lists(user) -> dict[str, list[Tournament]]:
    """Upcoming, running and finished tournaments: the public ones, and the private ones
    `user` created or plays in."""
    mine = Q(created_by=user) | Q(entries__pair__proposer=user) | Q(entries__pair__partner=user)
    seen = (
        Tournament.objects.filter(Q(private=False) | mine).distinct().select_related("created_by")
    )
    return {
        "upcoming": list(seen.filter(state=Tournament.State.REGISTRATION).order_by("starts_at")),
        "running": list(seen.filter(state=Tournament.State.RUNNING).order_by("starts_at")),
        "finished": list(
            seen.filter(state__in=[Tournament.State.FINISHED, Tournament.State.CANCELLED]).order_by(
                "-starts_at"
            )[:20]
        ),
    }


def visible(tournament: Tournament | None, user, token: str | None) -> bool:
    """A public tournament is every member's; a private one its link's, its creator's, its
    players' and staff's."""
    if tournament is None:
        return False
    if not tournament.private or user.is_staff or tournament.created_by_id == user.pk:
        return True
    if token and secrets.compare_digest(str(token), tournament.link_token or ""):
        return True
    return tournament.entries.filter(Q(pair__proposer=user) | Q(pair__partner=user)).exists()


@dataclass
class Row:
    rank: int
    name: str
    url: str
    points: int
    buchholz: int
    diff: int
    played: int
    byes: int


@dataclass
class PartieLink:
    number: int
    url: str | None
    state: str
    outcome: int | None
    note: str = ""  # why it counted without a winner at the table (a forfeit, a cancellation)


@dataclass
class MatchLine:
    a: str
    b: str | None
    done: bool
    winner: int | None
    score: str
    parties: list[PartieLink] = field(default_factory=list)


@dataclass
class RoundLines:
    number: int | None
    starts_at: object
    matches: list[MatchLine]


@dataclass
class Page:
    tournament: Tournament
    entries: list[TournamentPair]
    standings: list[Row]
    rounds: list[RoundLines]
    mine: TournamentPair | None
    my_table: int | None
    arrival: "Arrival | None"
    check_in_open: bool
    window_end: object


@dataclass
class Arrival:
    """The player's table, opened but waiting for its four: its commitment (shown before the
    player gives their seed), whether the player arrived, how many did."""

    commitment: str
    arrived: bool
    count: int


def tournament_page(tournament: Tournament, user, *, now=None) -> Page:
    """Everything the tournament's page shows, in a fixed number of queries."""
    now = now or timezone.now()
    entries = list(
        tournament.entries.select_related("pair__proposer", "pair__partner").order_by(
            "-playing", "registered_at"
        )
    )
    by_pk = {e.pk: e for e in entries}
    playing = {e.pk: e.rating for e in entries if e.playing}
    rows = [
        Row(
            s.rank,
            by_pk[s.pair].pair.name,
            by_pk[s.pair].pair.get_absolute_url(),
            s.points,
            s.buchholz,
            s.diff,
            s.played,
            s.byes,
        )
        for s in pairing.standings(playing, services.history(tournament))
    ]
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("round")
        .order_by("round__number", "started_at", "pk")
    )
    parties: dict[int, list[MatchPartie]] = {}
    for mp in (
        MatchPartie.objects.filter(match__tournament=tournament)
        .select_related("table__game")
        # what the page shows, not each partie's state, decks and secrets (polled every few s)
        .only(
            *("match", "number", "ended", "outcome", "note", "table__status"),
            "table__spectators",
            *("table__commitment", "table__game__status"),
        )
        .order_by("number")
    ):
        parties.setdefault(mp.match_id, []).append(mp)
    rounds: list[RoundLines] = []
    for match in matches:
        number = match.round.number if match.round else None
        if not rounds or rounds[-1].number != number:
            rounds.append(RoundLines(number, match.round.starts_at if match.round else None, []))
        rounds[-1].matches.append(_line(match, by_pk, parties.get(match.pk, [])))
    if tournament.format == Tournament.Format.ECLAIR:
        for group in rounds:
            group.matches.reverse()  # the latest matches first
    else:
        # a round due, not opened yet (the pause after the previous one): its time
        rounds += [
            RoundLines(number, starts_at, [])
            for number, starts_at in tournament.round_set.filter(opened_at__isnull=True)
            .order_by("number")
            .values_list("number", "starts_at")
        ]
    mine = next((e for e in entries if user.pk in e.pair.member_ids()), None)
    my_table = None
    if mine is not None:
        my_table = next(
            (
                mp.table_id
                for match in matches
                if not match.done and mine.pk in (match.pair_a_id, match.pair_b_id)
                for mp in parties.get(match.pk, [])
                if mp.table_id and not mp.ended
            ),
            None,
        )
    opens = tournament.starts_at - timedelta(minutes=services.check_in_minutes())
    arrival = None
    if my_table is not None:
        table = next(
            mp.table for group in parties.values() for mp in group if mp.table_id == my_table
        )
        if table.status == Table.Status.OPEN:
            seeds = dict(table.seats.filter(active=True).values_list("user_id", "client_seed"))
            arrival = Arrival(
                commitment=table.commitment,
                arrived=bool(seeds.get(user.pk)),
                count=sum(1 for seed in seeds.values() if seed),
            )
            my_table = None  # nothing to join until the partie starts
    return Page(
        tournament=tournament,
        entries=entries,
        standings=rows,
        rounds=rounds,
        mine=mine,
        my_table=my_table,
        arrival=arrival,
        check_in_open=tournament.state == Tournament.State.REGISTRATION
        and opens <= now < tournament.starts_at,
        window_end=services.window_end(tournament)
        if tournament.format == Tournament.Format.ECLAIR
        else None,
    )


def _line(match: Match, by_pk, parties: list[MatchPartie]) -> MatchLine:
    b = by_pk.get(match.pair_b_id)
    links = []
    for mp in parties:
        game = getattr(mp.table, "game", None) if mp.table_id else None
        waiting = game is None and mp.table_id is not None and not mp.ended
        state = "waiting" if waiting else "forfait" if game is None else game.status
        if game is None:
            url = None
        elif game.status == Game.Status.PLAYING and mp.table.spectators:
            url = reverse("games:watch", args=[mp.table_id])  # « Regarder » (docs/spectators.md)
        else:
            url = reverse("records:partie", args=[game.pk])
        links.append(PartieLink(mp.number, url, state, mp.outcome, mp.note_text))
    wins = [sum(1 for p in parties if p.outcome == side) for side in (0, 1)]
    return MatchLine(
        a=by_pk[match.pair_a_id].pair.name,
        b=b.pair.name if b else None,
        done=match.done,
        winner=match.winner,
        score=f"{wins[0]}–{wins[1]}" if b else "",
        parties=links,
    )


@dataclass
class HistoryLine:
    tournament: Tournament
    url: str
    rank: int | None
    field_size: int
    points: int


def pair_history(pair, viewer) -> list[HistoryLine]:
    """The tournaments `pair` played (started ones), its rank in each, the newest first; a
    private one only for a `viewer` who may see it."""
    lines = []
    entries = (
        TournamentPair.objects.filter(pair=pair, playing=True)
        .select_related("tournament")
        .order_by("-tournament__starts_at")[:20]
    )
    for entry in entries:
        tournament = entry.tournament
        if tournament.private and not visible(tournament, viewer, None):
            continue
        if entry.final_rank is not None:
            rank, size, points = entry.final_rank, entry.final_field or 0, entry.final_points or 0
        elif tournament.state != Tournament.State.RUNNING:  # ended before 0003, or cancelled
            rank, size, points = None, 0, 0
        else:  # running: its standings now
            ratings = dict(tournament.entries.filter(playing=True).values_list("pk", "rating"))
            rows = pairing.standings(ratings, services.history(tournament))
            mine = next((r for r in rows if r.pair == entry.pk), None)
            rank, size, points = (
                (mine.rank if mine else None),
                len(rows),
                (mine.points if mine else 0),
            )
        lines.append(
            HistoryLine(
                tournament,
                # never a private tournament's link (the pair's page is everyone's): its plain
                # address, which its players and staff open and anyone else finds missing
                reverse("tournaments:detail", args=[tournament.pk]),
                rank,
                size,
                points,
            )
        )
    return lines
