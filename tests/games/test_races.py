"""Races, with real concurrent transactions: each thread has its own database connection."""

import pytest
from django.urls import reverse

from games.models import Seat, Table
from games.services import errors, salle
from tests.games.helpers import run_together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("round_", range(5))
def test_two_players_take_the_same_seat_one_wins(round_, bixente, camille, open_table):
    def take(user):
        return lambda: salle.seat_take(user=user, table_id=open_table.pk, number=2)

    results = run_together(take(bixente), take(camille))
    winners = [r for r in results if isinstance(r, Seat)]
    losers = [r for r in results if isinstance(r, errors.SalleError)]
    assert len(winners) == 1 and len(losers) == 1, results
    assert "prise" in losers[0].message
    assert Seat.objects.filter(table=open_table, number=2).count() == 1


def test_same_seat_race_over_http_loser_gets_a_message_and_a_fresh_salle(
    login, bixente, camille, open_table
):
    url = reverse("games:seat_take", args=[open_table.pk])
    clients = {"bixente": login(bixente), "camille": login(camille)}

    def post(name):
        return lambda: clients[name].post(url, {"number": "1"}, headers={"HX-Request": "true"})

    results = dict(zip(clients, run_together(post("bixente"), post("camille")), strict=True))
    winner = Seat.objects.get(table=open_table, number=1).user.username
    loser = "camille" if winner == "bixente" else "bixente"
    assert results[winner].status_code == results[loser].status_code == 200
    lost = results[loser].content.decode()
    assert "Cette place vient d’être prise" in lost
    assert f'<span class="player">{winner}</span>' in lost  # the fresh salle shows the winner
    assert "Vous êtes à la table" in results[winner].content.decode()


def test_one_player_creating_two_tables_at_once_gets_one(ane):
    def create():
        return salle.table_create(user=ane, kings=4)

    results = run_together(create, create, create)
    assert sum(isinstance(r, Table) for r in results) == 1, results
    assert all(isinstance(r, Table | errors.SalleError) for r in results), results
    assert Table.objects.filter(host=ane).count() == 1
    assert Seat.objects.filter(user=ane, active=True).count() == 1


def test_one_player_sitting_at_two_tables_at_once_gets_one(ane, bixente, camille):
    first = salle.table_create(user=ane, kings=4)
    second = salle.table_create(user=bixente, kings=8)
    results = run_together(
        lambda: salle.seat_take(user=camille, table_id=first.pk, number=1),
        lambda: salle.seat_take(user=camille, table_id=second.pk, number=1),
    )
    assert sum(isinstance(r, Seat) for r in results) == 1, results
    assert Seat.objects.filter(user=camille, active=True).count() == 1


def test_last_seat_taken_while_the_host_starts(ane, bixente, camille, dani, open_table):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    salle.seat_take(user=camille, table_id=open_table.pk, number=2)
    results = run_together(
        lambda: salle.seat_take(user=dani, table_id=open_table.pk, number=3),
        lambda: salle.table_start(user=ane, table_id=open_table.pk),
    )
    open_table.refresh_from_db()
    if isinstance(results[1], Table):  # the start went first only if dani was already seated
        assert open_table.status == Table.Status.PLAYING
        assert open_table.seats.count() == 4
    else:
        assert "quatre joueurs" in results[1].message
        assert open_table.status == Table.Status.OPEN
