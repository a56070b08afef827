"""Tournaments through their services, in process: registration and check-in, a Swiss run
round by round (byes, best of 3, no-shows, a partie cancelled by the one-minute rule), a
tournoi éclair, and `advance` run twice (each table opened once)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from games.display.dossier import partie_dossier
from games.models import Game, Table
from games.services import salle
from games.services.errors import SalleError
from pairs.models import Pair
from tests.games.helpers import leaks_secret, run_together, verify
from tests.records.helpers import cancel_by_absence, play_out
from tests.tournaments.helpers import (
    arrived_games,
    make_pairs,
    parties_of,
    play_all,
    playing_games,
    ready_tournament,
    seed_of,
)
from tournaments import pairing, selectors, services
from tournaments.models import Match, Round, Tournament, TournamentPair

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user("arbitre", is_staff=True)


@pytest.fixture(autouse=True)
def no_pause(settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 0


def standings(tournament):
    entries = {e.pk: e for e in tournament.entries.filter(playing=True)}
    return pairing.standings(
        {pk: e.rating for pk, e in entries.items()}, services.history(tournament)
    )


def test_only_staff_create_public_tournaments_and_anyone_a_private_one(staff, ane):
    start = timezone.now() + timedelta(hours=1)
    fields = dict(name="Txapelketa", format="swiss", kings=4, clock="normal", starts_at=start)
    with pytest.raises(services.TournamentError, match="équipe du site"):
        services.tournament_create(user=ane, rounds=3, **fields)
    private = services.tournament_create(user=ane, rounds=3, private=True, **fields)
    assert private.link_token and private.get_absolute_url().endswith(f"/{private.link_token}/")
    public = services.tournament_create(user=staff, rounds=3, **fields)
    assert public.link_token is None
    with pytest.raises(services.TournamentError, match="fenêtre"):
        services.tournament_create(user=staff, **{**fields, "format": "eclair"}, window_minutes=30)
    with pytest.raises(services.TournamentError, match="futur"):
        services.tournament_create(
            user=staff, rounds=3, **{**fields, "starts_at": timezone.now() - timedelta(1)}
        )


def test_registration_by_pair_closes_at_the_start_and_check_in_opens_ten_minutes_before(
    staff, make_user
):
    pair, other = make_pairs(make_user, 2)
    now = timezone.now()
    tournament = services.tournament_create(
        user=staff,
        name="Open",
        format="swiss",
        rounds=2,
        kings=4,
        clock="normal",
        starts_at=now + timedelta(minutes=30),
    )
    entry = services.register(user=pair.partner, tournament_id=tournament.pk, pair_id=pair.pk)
    with pytest.raises(services.TournamentError, match="déjà inscrite"):
        services.register(user=pair.proposer, tournament_id=tournament.pk, pair_id=pair.pk)
    with pytest.raises(services.TournamentError, match="vos parejas"):
        services.register(user=pair.proposer, tournament_id=tournament.pk, pair_id=other.pk)
    with pytest.raises(services.TournamentError, match="ouvre 10 minutes"):
        services.check_in(user=pair.proposer, tournament_id=tournament.pk, now=now)
    services.check_in(
        user=pair.proposer, tournament_id=tournament.pk, now=now + timedelta(minutes=21)
    )
    entry.refresh_from_db()
    assert entry.proposer_checked_in and not entry.checked_in
    services.check_in(
        user=pair.partner, tournament_id=tournament.pk, now=now + timedelta(minutes=25)
    )
    entry.refresh_from_db()
    assert entry.checked_in
    with pytest.raises(services.TournamentError, match="closes"):
        services.register(
            user=other.proposer,
            tournament_id=tournament.pk,
            pair_id=other.pk,
            now=now + timedelta(minutes=30),
        )


def test_a_minimum_completion_rate_is_asked_of_both_members(staff, make_user, cast):
    (pair,) = make_pairs(make_user, 1)
    tournament = services.tournament_create(
        user=staff,
        name="Sérieux",
        format="swiss",
        rounds=1,
        kings=4,
        clock="normal",
        starts_at=timezone.now() + timedelta(hours=1),
        min_completion=90,
    )
    # the partner abandons a partie: 0 % completed
    game = salle.table_create(user=pair.partner, kings=4)
    for number, user in enumerate(cast[:3], start=1):
        salle.seat_take(user=user, table_id=game.pk, number=number)
    salle.table_start(user=pair.partner, table_id=game.pk)
    cancel_by_absence(Game.objects.get(table=game), 0)
    with pytest.raises(services.TournamentError, match="p0b en est à 0"):
        services.register(user=pair.proposer, tournament_id=tournament.pk, pair_id=pair.pk)


def test_a_tournament_with_fewer_than_two_pairs_checked_in_is_cancelled(
    staff, make_user, client, settings
):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs[:1])
    services.register(user=pairs[1].proposer, tournament_id=tournament.pk, pair_id=pairs[1].pk)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.CANCELLED
    assert tournament.state_reason == {"code": "too_few_pairs"}
    assert not Table.objects.exists()
    # the sweep wrote a code: each reader reads the reason in their own language
    client.force_login(pairs[1].partner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = client.get(tournament.get_absolute_url()).content.decode()
    with translation.override("es"):
        assert str(tournament.state_reason_text) in page
    assert "Moins de deux parejas" not in page


def test_a_swiss_of_five_pairs_pairs_seats_starts_and_settles_each_round(staff, make_user):
    pairs = make_pairs(make_user, 5)
    tournament = ready_tournament(staff, pairs, rounds=3)
    assert (
        services.advance(
            tournament_id=tournament.pk, now=tournament.starts_at - timedelta(seconds=1)
        )
        == 0
    )
    assert services.advance(tournament_id=tournament.pk, now=tournament.starts_at) == 2
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    games = arrived_games(tournament)
    assert len(games) == 2
    for game in games:
        seats = {s.number: s.user_id for s in game.seats.all()}
        match = game.table.tournament_partie.match
        assert [seats[0], seats[2]] == list(match.pair_a.pair.member_ids())
        assert [seats[1], seats[3]] == list(match.pair_b.pair.member_ids())
        assert game.table.private and game.table.clock == "normal"
        assert not game.seats.filter(robot=True).exists()
    byes = []
    for number in (1, 2, 3):
        current = Round.objects.get(tournament=tournament, number=number)
        bye = current.matches.get(pair_b__isnull=True)
        byes.append(bye.pair_a_id)
        assert bye.done and bye.points_a == 1
        assert play_all(tournament) == 2
        services.advance(tournament_id=tournament.pk)
    assert len(set(byes)) == 3  # never twice
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    met = [
        frozenset(m)
        for m in Match.objects.filter(tournament=tournament, pair_b__isnull=False).values_list(
            "pair_a_id", "pair_b_id"
        )
    ]
    assert len(met) == len(set(met)) == 6  # no rematch
    rows = standings(tournament)
    assert sum(r.points for r in rows) == 3 * 3  # two winners and a bye per round
    assert all(r.played == 3 for r in rows)


def test_advance_run_twice_at_once_opens_each_table_once(staff, make_user, transactional_db):
    pairs = make_pairs(make_user, 4)
    tournament = ready_tournament(staff, pairs, rounds=1)
    results = run_together(
        lambda: services.advance(tournament_id=tournament.pk, now=tournament.starts_at),
        lambda: services.advance(tournament_id=tournament.pk, now=tournament.starts_at),
    )
    assert sorted(results) == [0, 2]
    assert Table.objects.count() == 2 and parties_of(tournament).count() == 2
    assert services.advance(tournament_id=tournament.pk) == 0
    assert Table.objects.count() == 2


def test_a_partie_cancelled_by_the_one_minute_rule_is_lost_by_the_absent_pair(staff, make_user):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=1)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    (game,) = arrived_games(tournament)
    cancel_by_absence(game, 3)  # pair_b's partner left and did not come back
    services.advance(tournament_id=tournament.pk)
    match = Match.objects.get(tournament=tournament)
    assert match.done and match.winner == 0 and (match.points_a, match.points_b) == (1, 0)
    note = parties_of(tournament).get().note
    assert note["code"] == "abandoned" and note["name"]  # the game's end reason, a code


def test_a_pair_absent_ten_minutes_into_its_round_loses_it(staff, make_user):
    pairs = make_pairs(make_user, 4)
    tournament = ready_tournament(staff, pairs, rounds=1)
    start = tournament.starts_at
    services.advance(tournament_id=tournament.pk, now=start)
    first, second = (mp.table for mp in parties_of(tournament).select_related("table"))
    # at the first table, pair_a's two arrived and pair_b's partner never did
    for seat in first.seats.filter(number__in=[0, 1, 2]):
        services.arrive(user=seat.user, tournament_id=tournament.pk, client_seed="abc")
    # at the second, everyone arrived: its partie started
    for seat in second.seats.all():
        services.arrive(user=seat.user, tournament_id=tournament.pk, client_seed="abc")
    assert [g.table_id for g in playing_games(tournament)] == [second.pk]
    services.advance(tournament_id=tournament.pk, now=start + timedelta(minutes=9))
    first.refresh_from_db()
    assert first.status == Table.Status.OPEN and not parties_of(tournament).filter(ended=True)
    services.advance(tournament_id=tournament.pk, now=start + timedelta(minutes=10))
    first.refresh_from_db()
    # not played: the table closed without a game, the absent pair loses
    assert first.status == Table.Status.CLOSED and not Game.objects.filter(table=first).exists()
    assert not first.seats.filter(active=True).exists()
    assert [g.table_id for g in playing_games(tournament)] == [second.pk]
    partie = first.tournament_partie
    assert partie.ended and partie.outcome == 0
    assert partie.note == {"code": "no_show", "minutes": "10"}
    for language, words in (
        ("fr", "absente 10 minutes"),
        ("es", "ausente 10"),
        ("en", "absent 10"),
    ):
        with translation.override(language):
            assert words in partie.note_text
            # the tournament page says why the partie counted: « partie 1 : forfait (…) »
            page = selectors.tournament_page(tournament, first.host)
            links = [p for r in page.rounds for m in r.matches for p in m.parties]
            assert any(link.state == "forfait" and words in link.note for link in links)
    match = partie.match
    match.refresh_from_db()
    assert match.done and match.winner == 0


def test_the_partie_starts_only_when_its_four_arrived_each_with_their_seed(
    staff, make_user, client
):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=1)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    table = parties_of(tournament).select_related("table").get().table
    assert table.status == Table.Status.OPEN
    seats = list(table.seats.order_by("number").select_related("user"))
    assert [s.client_seed for s in seats] == [""] * 4  # no seed drawn by the site
    live_url = reverse("tournaments:live", args=[tournament.pk])
    # each arrives from the tournament's page: the commitment shown, the seed from the form
    for index, seat in enumerate(seats):
        client.force_login(seat.user)
        live = client.get(live_url).content.decode()
        assert table.commitment in live and "Je suis là" in live
        assert not leaks_secret(live, table.server_seed)
        response = client.post(
            reverse("tournaments:arrive", args=[tournament.pk]), {"seed": seed_of(seat.user)}
        )
        assert response.status_code == 302
        table.refresh_from_db()
        if index < 3:
            assert table.status == Table.Status.OPEN and not Game.objects.filter(table=table)
            assert f"({index + 1} sur 4)" in client.get(live_url).content.decode()
            # the host cannot start it, nor anyone leave it, from the salle
            with pytest.raises(SalleError):
                salle.table_start(user=seats[0].user, table_id=table.pk)
            with pytest.raises(SalleError):
                salle.seat_leave(user=seat.user, table_id=table.pk)
    # the fourth arrival started it (with the clock) and went straight to the table
    assert response["Location"] == reverse("games:table", args=[table.pk])
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.PLAYING
    assert game.turn_deadline is not None  # the turn clock runs
    assert "Votre table est prête : rejoindre la partie" in client.get(live_url).content.decode()
    record_seeds = game.client_seeds
    assert record_seeds == [seed_of(s.user) for s in seats]
    play_out(game, 1)
    record = partie_dossier(game)
    assert record["fairness"]["seed_origins"] == ["person"] * 4
    assert record["fairness"]["client_seeds"] == record_seeds
    done = verify(record)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "proof: holds" in done.stdout


def test_a_player_without_javascript_arrives_with_a_seed_the_site_draws(staff, make_user):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=1)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    table = parties_of(tournament).select_related("table").get().table
    seats = list(table.seats.order_by("number").select_related("user"))
    services.arrive(user=seats[0].user, tournament_id=tournament.pk, client_seed="")
    for seat in seats[1:]:
        services.arrive(user=seat.user, tournament_id=tournament.pk, client_seed=seed_of(seat.user))
    game = Game.objects.get(table=table)
    assert game.seed_origins == ["site", "person", "person", "person"]
    assert len(game.client_seeds[0]) == 32
    # a second « Je suis là » once it started, or from someone with no table waiting: refused
    with pytest.raises(services.TournamentError):
        services.arrive(user=seats[1].user, tournament_id=tournament.pk, client_seed="abc")
    with pytest.raises(services.TournamentError):
        services.arrive(user=staff, tournament_id=tournament.pk, client_seed="abc")
    # a bad seed is a clear refusal, nothing written
    other = ready_tournament(staff, make_pairs(make_user, 2, prefix="q"), rounds=1, name="Autre")
    services.advance(tournament_id=other.pk, now=other.starts_at)
    seat = parties_of(other).get().table.seats.get(number=0)
    with pytest.raises(SalleError):
        services.arrive(user=seat.user, tournament_id=other.pk, client_seed="NOT A SEED")
    seat.refresh_from_db()
    assert seat.client_seed == ""


def test_nobody_came_both_pairs_lose(staff, make_user):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=1)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at + timedelta(minutes=11))
    match = Match.objects.get(tournament=tournament)
    assert match.done and match.winner is None and (match.points_a, match.points_b) == (0, 0)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED


def test_a_player_playing_elsewhere_at_the_round_makes_the_pair_lose_it(staff, make_user, cast):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=1)
    elsewhere = salle.table_create(user=pairs[1].partner, kings=4)
    for number, user in enumerate(cast[:3], start=1):
        salle.seat_take(user=user, table_id=elsewhere.pk, number=number)
    salle.table_start(user=pairs[1].partner, table_id=elsewhere.pk)
    # pairs[0]'s proposer sits at an open table: moved from it
    waiting = salle.table_create(user=pairs[0].proposer, kings=8)
    assert services.advance(tournament_id=tournament.pk, now=tournament.starts_at) == 0
    assert not Table.objects.filter(pk=waiting.pk).exists()
    match = Match.objects.get(tournament=tournament)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    match.refresh_from_db()
    assert match.done and match.winner == (0 if match.pair_b.pair_id == pairs[1].pk else 1)


def test_a_best_of_three_round_opens_parties_until_two_wins(staff, make_user):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=1, best_of=3)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    match = Match.objects.get(tournament=tournament)
    for seed in range(1, 4):
        games = arrived_games(tournament)
        if not games:
            break
        play_out(games[0], seed)
        services.advance(tournament_id=tournament.pk)
    match.refresh_from_db()
    outcomes = list(match.parties.values_list("outcome", flat=True))
    assert match.done and outcomes.count(match.winner) == 2 and len(outcomes) in (2, 3)
    assert match.diff_a == sum(match.parties.values_list("diff_a", flat=True))


def test_a_tournoi_eclair_of_eight_pairs(staff, make_user):
    pairs = make_pairs(make_user, 8)
    tournament = ready_tournament(staff, pairs, format="eclair", rounds=None, window_minutes=60)
    start = tournament.starts_at
    assert services.advance(tournament_id=tournament.pk, now=start) == 4
    entries = {e.pk: e.rating for e in TournamentPair.objects.filter(tournament=tournament)}
    # one table done: its two pairs are paired again at once (with each other: none else free)
    first = arrived_games(tournament)[0]
    play_out(first, 1)
    assert services.advance(tournament_id=tournament.pk, now=start + timedelta(minutes=5)) == 1
    assert len(arrived_games(tournament)) == 4
    # the others end: each freed pair meets the nearest free one, not its last opponent
    play_all(tournament, 10)
    assert services.advance(tournament_id=tournament.pk, now=start + timedelta(minutes=20)) == 4
    last = {}
    for match in Match.objects.filter(tournament=tournament).order_by("pk"):
        if match.done is False and match.pair_a_id in last:
            assert last[match.pair_a_id] != match.pair_b_id
        last[match.pair_a_id], last[match.pair_b_id] = match.pair_b_id, match.pair_a_id
    # the window's end: the parties in play finish, none starts
    play_all(tournament, 20)
    assert services.advance(tournament_id=tournament.pk, now=start + timedelta(minutes=61)) == 0
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    done = Match.objects.filter(tournament=tournament)
    assert done.count() == 9 and all(m.done for m in done)
    assert all(max(m.points_a, m.points_b) == 2 for m in done)
    rows = standings(tournament)
    assert sum(r.points for r in rows) == 2 * 9 and len(entries) == 8


def test_advancing_a_running_swiss_costs_a_few_queries(staff, make_user):
    pairs = make_pairs(make_user, 8)
    tournament = ready_tournament(staff, pairs, rounds=2)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    with CaptureQueriesContext(connection) as queries:
        services.advance(tournament_id=tournament.pk)
    assert len(queries) <= 12


def test_robots_never_play_in_a_tournament(staff, make_user, ane):
    robot = make_user("txiki-robot", is_robot=True)
    # pairs refuses a robot partner; a pair made by hand with one is refused all the same
    pair = Pair.objects.create(
        name="Humain et robot",
        skeleton="humainetrobot",
        slug="humain-et-robot",
        proposer=ane,
        partner=robot,
        status=Pair.Status.ACTIVE,
        accepted_at=timezone.now(),
    )
    tournament = ready_tournament(staff, [])
    with pytest.raises(services.TournamentError, match="robots"):
        services.register(user=ane, tournament_id=tournament.pk, pair_id=pair.pk)
