"""The tournaments' pages: the list, a tournament's page and its live part, private ones by
their link, registration and check-in by form, a pair's history, the staff's creation; and
no card nor secret of a partie in play on any of them (the leak tests' helpers)."""

import logging
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from core.log_filters import InvitationTokensHidden
from tests.games.helpers import leaked_cards, leaks_secret
from tests.tournaments.helpers import arrived_games, make_pairs, play_all, ready_tournament
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user("arbitre", is_staff=True)


@pytest.fixture(autouse=True)
def no_pause(settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 0


def private_tournament(user, **fields):
    return services.tournament_create(
        user=user,
        name=fields.pop("name", "Entre amis"),
        format="swiss",
        rounds=2,
        kings=4,
        clock="normal",
        starts_at=timezone.now() + timedelta(hours=2),
        private=True,
        **fields,
    )


def test_the_list_shows_public_tournaments_and_ones_own_private_ones(
    staff, make_user, ane, bixente, client
):
    pairs = make_pairs(make_user, 2)
    public = ready_tournament(staff, pairs, name="Open de Bilbo")
    mine = private_tournament(ane, name="Chez Ane")
    theirs = private_tournament(bixente, name="Chez Bixente")
    client.force_login(ane)
    body = client.get(reverse("tournaments:index")).content.decode()
    assert public.name in body and mine.name in body and theirs.name not in body
    salle = client.get(reverse("games:salle")).content.decode()
    assert reverse("tournaments:index") in salle


def test_a_private_tournament_is_seen_by_its_link_only(ane, bixente, client):
    tournament = private_tournament(ane)
    client.force_login(bixente)
    assert client.get(reverse("tournaments:detail", args=[tournament.pk])).status_code == 404
    wrong = reverse("tournaments:private", args=[tournament.pk, "x" * 43])
    assert client.get(wrong).status_code == 404
    url = tournament.get_absolute_url()
    assert client.get(url).status_code == 200
    live = reverse("tournaments:live", args=[tournament.pk])
    assert client.get(live).status_code == 404
    assert client.get(f"{live}?lien={tournament.link_token}").status_code == 200
    assert client.get(reverse("tournaments:detail", args=[999999])).status_code == 404


def test_registration_and_check_in_by_form(staff, make_user, client):
    (pair,) = make_pairs(make_user, 1)
    tournament = services.tournament_create(
        user=staff,
        name="Open",
        format="swiss",
        rounds=2,
        kings=4,
        clock="normal",
        starts_at=timezone.now() + timedelta(minutes=5),
    )
    client.force_login(pair.proposer)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Inscrire ma pareja" in page and pair.name in page
    response = client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"pair": pair.pk}, follow=True
    )
    assert "Votre pareja est inscrite" in response.content.decode()
    response = client.post(reverse("tournaments:check_in", args=[tournament.pk]), follow=True)
    assert "Présence confirmée" in response.content.decode()
    # a refusal is a message, never an error page
    response = client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"pair": "x"}, follow=True
    )
    assert response.status_code == 200 and "Choisissez une de vos parejas" in (
        response.content.decode()
    )
    entry = tournament.entries.get()
    assert entry.proposer_checked_in and not entry.partner_checked_in


def test_a_running_tournament_page_shows_standings_rounds_links_and_the_ready_table_without_a_card(
    staff, make_user, client
):
    pairs = make_pairs(make_user, 4)
    tournament = ready_tournament(staff, pairs, rounds=2)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    games = arrived_games(tournament)
    game = games[0]
    player = game.seats.get(number=1).user
    client.force_login(player)
    urls = [
        tournament.get_absolute_url(),
        reverse("tournaments:live", args=[tournament.pk]),
        reverse("tournaments:index"),
        reverse("records:pair", args=[pairs[0].slug]),
    ]
    for url in urls:
        body = client.get(url).content.decode()
        assert not leaked_cards(body, set()), url
        assert not leaks_secret(body, game.server_seed), url
    live = client.get(urls[1]).content.decode()
    assert reverse("games:table", args=[game.table_id]) in live
    assert "Votre table est prête : rejoindre la partie" in live
    # a partie in play is watched (« Regarder »); its page is its players' once it has ended
    assert reverse("games:watch", args=[game.table_id]) in live and "partie 1 : regarder" in live
    assert "Ronde 1" in live
    # anyone else sees the parties' links, no table of theirs
    client.force_login(staff)
    live = client.get(urls[1]).content.decode()
    assert "rejoindre la partie" not in live
    assert all(reverse("games:watch", args=[g.table_id]) in live for g in games)
    # the results come in: the standings move, the pair's page lists the tournament
    play_all(tournament)
    services.advance(tournament_id=tournament.pk)
    live = client.get(urls[1]).content.decode()
    assert all(reverse("records:partie", args=[g.pk]) in live for g in games)
    points = [int(p) for p in re.findall(r"<td>(\d+)</td><td>\d+</td><td>-?\d+</td>", live)]
    assert sorted(points, reverse=True)[:2] == [1, 1] and "Ronde 2" in live
    history = client.get(urls[3]).content.decode()
    assert tournament.name in history and "sur 4" in history


def test_a_round_due_after_the_pause_shows_its_time(staff, make_user, client, settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 60
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(staff, pairs, rounds=2)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    play_all(tournament)
    services.advance(tournament_id=tournament.pk)
    client.force_login(staff)
    live = client.get(reverse("tournaments:live", args=[tournament.pk])).content.decode()
    assert "Ronde 2" in live and "Ses tables s’ouvrent à" in live


def test_the_live_part_costs_a_fixed_number_of_queries(staff, make_user, client):
    pairs = make_pairs(make_user, 8)
    tournament = ready_tournament(staff, pairs, rounds=3)
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    client.force_login(pairs[0].proposer)
    url = reverse("tournaments:live", args=[tournament.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    play_all(tournament)
    services.advance(tournament_id=tournament.pk)
    with CaptureQueriesContext(connection) as second:
        client.get(url)
    assert len(first) == len(second) <= 12


def test_a_pair_s_page_never_shows_a_private_tournament_s_link(ane, make_user, client):
    pairs = make_pairs(make_user, 2)
    tournament = ready_tournament(ane, pairs, private=True, name="Entre nous")
    services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    client.force_login(make_user("curieux"))
    page = client.get(reverse("records:pair", args=[pairs[0].slug])).content.decode()
    assert "Entre nous" not in page and tournament.link_token not in page
    assert client.get(reverse("tournaments:detail", args=[tournament.pk])).status_code == 404
    client.force_login(pairs[0].partner)
    page = client.get(reverse("records:pair", args=[pairs[0].slug])).content.decode()
    assert "Entre nous" in page and tournament.link_token not in page
    assert client.get(reverse("tournaments:detail", args=[tournament.pk])).status_code == 200


def test_staff_create_a_public_tournament_from_the_staff_page(staff, ane, client):
    client.force_login(staff)
    start = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Open du samedi",
            "format": "swiss",
            "kings": "8",
            "clock": "rapide",
            "starts_at": start,
            "rounds": "4",
            "best_of": "3",
            "min_completion": "80",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response.url == tournament.get_absolute_url()
    assert not tournament.private and tournament.kings == 8 and tournament.best_of == 3
    client.force_login(ane)
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Chez moi",
            "format": "eclair",
            "kings": "4",
            "clock": "normal",
            "starts_at": start,
            "window_minutes": "75",
        },
    )
    mine = Tournament.objects.get(created_by=ane)
    assert mine.private and mine.window_minutes == 75
    response = client.post(reverse("tournaments:create"), {"name": "x"}, follow=True)
    assert response.status_code == 200 and "3 à 80 caractères" in response.content.decode()


def test_staff_create_a_public_tournament_in_the_admin(make_user, client):
    admin = make_user("patron", is_staff=True, is_superuser=True)
    client.force_login(admin)
    start = timezone.localtime() + timedelta(days=1)
    response = client.post(
        reverse("admin:tournaments_tournament_add"),
        {
            "name": "Open de l’admin",
            "format": "eclair",
            "kings": "4",
            "clock": "normal",
            "starts_at_0": start.strftime("%Y-%m-%d"),
            "starts_at_1": start.strftime("%H:%M:%S"),
            "window_minutes": "90",
            "best_of": "1",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get()
    assert tournament.created_by == admin and not tournament.private
    response = client.post(
        reverse("admin:tournaments_tournament_add"),
        {
            "name": "Trop court",
            "format": "eclair",
            "kings": "4",
            "clock": "normal",
            "starts_at_0": start.strftime("%Y-%m-%d"),
            "starts_at_1": start.strftime("%H:%M:%S"),
            "window_minutes": "20",
            "best_of": "1",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 200 and "60 à 90 minutes" in response.content.decode()


def test_a_private_tournament_s_token_stays_out_of_the_logs():

    record = logging.LogRecord(
        "django.request",
        logging.WARNING,
        "",
        0,
        "Not Found: %s",
        ("/tournois/3/lien/Zx_9-a/",),
        None,
    )
    InvitationTokensHidden().filter(record)
    assert record.getMessage() == "Not Found: /tournois/3/lien/.../"


def test_the_live_part_polls_only_while_the_tournament_can_change(staff, make_user, client):
    pairs = make_pairs(make_user, 4)
    tournament = ready_tournament(staff, pairs, rounds=1)
    client.force_login(staff)
    url = tournament.get_absolute_url()
    assert 'hx-trigger="every' in client.get(url).content.decode()
    for state in (Tournament.State.FINISHED, Tournament.State.CANCELLED):
        Tournament.objects.filter(pk=tournament.pk).update(state=state)
        assert 'hx-trigger="every' not in client.get(url).content.decode()


def test_a_pairs_finished_tournaments_are_read_from_their_final_standings(staff, make_user, client):
    """A finished tournament's rank is written once at its end: the pair's page reads it
    without replaying the matches, in as many queries for three tournaments as for one."""
    pairs = make_pairs(make_user, 2)
    client.force_login(pairs[0].proposer)
    url = pairs[0].get_absolute_url()
    counts = []
    for number in range(3):
        tournament = ready_tournament(staff, pairs, rounds=1, name=f"Open {number}")
        services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
        play_all(tournament, seed=number + 1)
        services.advance(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.state == Tournament.State.FINISHED
        entry = tournament.entries.get(pair=pairs[0])
        assert entry.final_field == 2 and entry.final_rank in (1, 2)
        assert entry.final_points == (1 if entry.final_rank == 1 else 0)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url).content.decode()
        counts.append(len(queries))
        assert f"{entry.final_rank}ᵉ sur 2" in page and f"Open {number}" in page
    assert counts[0] == counts[1] == counts[2], counts
