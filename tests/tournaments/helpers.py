"""Tournaments for the tests: players and pairs made, a tournament created, registered and
checked in through the services, and scripted players who play each table the site opens."""

from datetime import timedelta

from django.utils import timezone

from games.models import Game, Seat, Table
from tests.pairs.helpers import form_pair
from tests.records.helpers import play_out
from tournaments import services
from tournaments.models import MatchPartie, Tournament


def make_pairs(make_user, count: int, prefix: str = "p") -> list:
    """`count` formed pairs of two new players each."""
    pairs = []
    for index in range(count):
        a = make_user(f"{prefix}{index}a")
        b = make_user(f"{prefix}{index}b")
        pairs.append(form_pair(a, b, name=f"Pareja {prefix}{index:02d}"))
    return pairs


def ready_tournament(staff, pairs, *, starts_in=timedelta(minutes=5), **fields) -> Tournament:
    """A public tournament starting in `starts_in`, every pair registered and checked in
    (the check-in's window is opened by the `now` given to it)."""
    now = timezone.now()
    fields = {"format": "swiss", "rounds": 2, **fields}
    tournament = services.tournament_create(
        user=staff,
        name=fields.pop("name", "Open de Gernika"),
        kings=fields.pop("kings", 4),
        clock=fields.pop("clock", "normal"),
        starts_at=now + starts_in,
        now=now,
        **fields,
    )
    for pair in pairs:
        services.register(user=pair.proposer, tournament_id=tournament.pk, pair_id=pair.pk)
        for member in pair.members:
            services.check_in(
                user=member,
                tournament_id=tournament.pk,
                now=tournament.starts_at - timedelta(seconds=1),
            )
    return tournament


def playing_games(tournament) -> list[Game]:
    """The games of the tournament's parties being played."""
    return list(
        Game.objects.filter(
            table__tournament_partie__match__tournament=tournament, status=Game.Status.PLAYING
        ).order_by("pk")
    )


def seed_of(user) -> str:
    """The seed a scripted player's browser gives: its own, fixed for the test's checks."""
    return f"{user.pk:08x}5eed"


def arrive_all(tournament) -> int:
    """Every player seated at a table of the tournament waiting for its four arrives (« Je
    suis là », through the service) with `seed_of` them; returns how many arrived."""
    seats = Seat.objects.filter(
        table__tournament_partie__match__tournament=tournament,
        table__status=Table.Status.OPEN,
        active=True,
        client_seed="",
    ).select_related("user")
    count = 0
    for seat in list(seats):
        services.arrive(user=seat.user, tournament_id=tournament.pk, client_seed=seed_of(seat.user))
        count += 1
    return count


def arrived_games(tournament) -> list[Game]:
    """The scripted players arrive at every waiting table; then the games being played."""
    arrive_all(tournament)
    return playing_games(tournament)


def play_all(tournament, seed: int = 1) -> int:
    """Play every partie being played to its end (scripted players, through the services),
    after its players arrived."""
    games = arrived_games(tournament)
    for offset, game in enumerate(games):
        play_out(game, seed + offset)
    return len(games)


def parties_of(tournament):
    return MatchPartie.objects.filter(match__tournament=tournament)
