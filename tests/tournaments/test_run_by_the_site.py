"""Tournaments run by the site with nobody's hand on it: a real Celery worker and beat open
the rounds and record the results; scripted players arrive at each table with their seed and
play (tests.records.helpers.play_out, through the services) the parties the site starts. A
Swiss of 16 pairs over 4 rounds, and the worker killed mid-round (the sweep catches up)."""

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Table
from tests.records.helpers import play_out
from tests.tournaments.helpers import arrived_games, make_pairs, parties_of, playing_games
from tournaments import pairing, services
from tournaments.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(condition, timeout: float, what: str):
    """Poll `condition` until it answers something true; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def signed_up(staff, pairs, *, rounds: int) -> Tournament:
    """Registered and checked in, starting in 5 minutes; then the start is brought to now (as
    if those minutes had passed: however long the sign-up took on a busy machine, it is done
    before the start). The beat's sweep starts it."""
    now = timezone.now()
    tournament = services.tournament_create(
        user=staff,
        name="Open automatique",
        format="swiss",
        rounds=rounds,
        kings=4,
        clock="rapide",
        starts_at=now + timedelta(minutes=5),
        now=now,
    )
    for pair in pairs:
        services.register(user=pair.partner, tournament_id=tournament.pk, pair_id=pair.pk)
        for member in pair.members:
            services.check_in(user=member, tournament_id=tournament.pk)
    return start_now(tournament)


def start_now(tournament: Tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    tournament.refresh_from_db()
    return tournament


def play_rounds(tournament: Tournament, rounds: int, timeout: float) -> None:
    """The scripted players: each partie the site started is played out, round after round,
    until the tournament is over."""
    seed = 1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.state != Tournament.State.RUNNING and tournament.round_set.exists():
            return
        games = arrived_games(tournament)
        for game in games:
            play_out(game, seed)
            seed += 1
        if not games:
            time.sleep(0.1)
    raise AssertionError("the tournament did not end in time")


def test_a_swiss_of_16_pairs_over_4_rounds_runs_itself(worker, make_user, client):
    began = time.monotonic()
    staff = make_user("arbitre", is_staff=True)
    pairs = make_pairs(make_user, 16)
    tournament = signed_up(staff, pairs, rounds=4)
    # the beat's sweep starts it and opens round 1: 8 tables
    wait_for(lambda: len(arrived_games(tournament)) == 8, 30, "round 1's eight parties")
    play_rounds(tournament, 4, timeout=600)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 4
    matches = list(Match.objects.filter(tournament=tournament))
    assert len(matches) == 32 and all(m.done for m in matches)
    assert len({frozenset((m.pair_a_id, m.pair_b_id)) for m in matches}) == 32  # no rematch
    # each table opened once: one table per partie, every one played to its end
    assert parties_of(tournament).count() == Table.objects.count() == 32
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 32
    # each result reached the standings within 2 s of the partie's end (the page polls every
    # 3 s: the standings are up to date within 5 s, without anyone's action)
    lags = [
        (mp.match.finished_at - mp.table.game.finished_at).total_seconds()
        for mp in parties_of(tournament).select_related("match", "table__game")
    ]
    assert max(lags) < 2, lags
    entries = dict(tournament.entries.values_list("pk", "rating"))
    rows = pairing.standings(entries, services.history(tournament))
    assert sum(r.points for r in rows) == 32 and all(r.played == 4 for r in rows)
    client.force_login(staff)
    live = client.get(reverse("tournaments:live", args=[tournament.pk])).content.decode()
    assert "Ronde 4" in live and pairs[0].name in live
    print(
        f"\n16 pairs, 4 Swiss rounds: {time.monotonic() - began:.1f} s in all; "
        f"results in the standings {max(lags):.2f} s at most after a partie's end"
    )


def test_the_worker_killed_mid_round_the_sweep_opens_the_next(worker, make_user, monkeypatch):
    staff = make_user("arbitre", is_staff=True)
    pairs = make_pairs(make_user, 4)
    tournament = signed_up(staff, pairs, rounds=2)
    wait_for(lambda: len(arrived_games(tournament)) == 2, 30, "round 1's two parties")
    worker.stop_worker()  # SIGKILL, mid-round
    # and no task queued by the parties' end: only the beat's sweep can open round 2
    monkeypatch.setattr(services, "schedule_advance", lambda *args, **kwargs: None)
    for seed, game in enumerate(playing_games(tournament), start=1):
        play_out(game, seed)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    worker.start_worker()
    wait_for(lambda: len(arrived_games(tournament)) == 2, 30, "round 2 opened by the sweep")
    assert Round.objects.get(tournament=tournament, number=2).opened_at is not None
    assert parties_of(tournament).count() == Table.objects.count() == 4
    # round 2 played out: the sweep ends the tournament (and leaves nothing running behind)
    for seed, game in enumerate(playing_games(tournament), start=10):
        play_out(game, seed)
    wait_for(
        lambda: Tournament.objects.filter(pk=tournament.pk, state="finished").exists(),
        30,
        "the tournament ended by the sweep",
    )


def test_a_tournoi_eclair_of_8_pairs_runs_itself(worker, make_user):
    staff = make_user("arbitre", is_staff=True)
    pairs = make_pairs(make_user, 8)
    now = timezone.now()
    tournament = services.tournament_create(
        user=staff,
        name="Éclair du jeudi",
        format="eclair",
        window_minutes=60,
        kings=8,
        clock="rapide",
        starts_at=now + timedelta(minutes=5),
        now=now,
    )
    for pair in pairs:
        services.register(user=pair.proposer, tournament_id=tournament.pk, pair_id=pair.pk)
        for member in pair.members:
            services.check_in(user=member, tournament_id=tournament.pk)
    tournament = start_now(tournament)
    wait_for(lambda: len(arrived_games(tournament)) == 4, 30, "four parties at the start")
    # each pair freed is paired again at once, by the worker, while the window is open
    for seed, game in enumerate(playing_games(tournament), start=1):
        play_out(game, seed)
    wait_for(lambda: len(arrived_games(tournament)) == 4, 30, "four new parties")
    assert Match.objects.filter(tournament=tournament).count() == 8
    # the window ends (its start moved back an hour): the parties in play finish, none starts
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(minutes=60)
    )
    for seed, game in enumerate(playing_games(tournament), start=20):
        play_out(game, seed)
    wait_for(
        lambda: Tournament.objects.filter(pk=tournament.pk, state="finished").exists(),
        30,
        "the éclair ended",
    )
    matches = Match.objects.filter(tournament=tournament)
    assert matches.count() == 8 and all(m.done for m in matches)
    assert sum(m.points_a + m.points_b for m in matches) == 2 * 8


def test_a_test_that_asks_for_no_worker_has_none_running(celery_stack):
    """The worker of the tests above was stopped with each of them (tests/conftest.py): left
    running, its sweeps advanced the tournaments of tests/tournaments/test_services.py."""
    assert celery_stack.worker is None
