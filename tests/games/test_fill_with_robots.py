"""« Compléter avec des robots » from the salle: needs games.services.robots (the robots'
branch); these tests fail until it is merged."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Seat, Table
from games.services import salle

pytestmark = pytest.mark.django_db


def test_the_host_fills_a_table_that_waited_with_robots(login, open_table, ane, bixente, settings):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    Table.objects.filter(pk=open_table.pk).update(
        created=open_table.created - timedelta(seconds=settings.ROBOT_OFFER_SECONDS + 1)
    )
    login(ane).post(
        reverse("games:fill_with_robots", args=[open_table.pk]), headers={"HX-Request": "true"}
    )
    seats = Seat.objects.filter(table=open_table)
    assert seats.count() == 4
    assert sorted(seats.filter(robot=True).values_list("number", flat=True)) == [2, 3]


def test_a_guest_fills_the_table_once_it_waited_not_before(login, open_table, bixente, settings):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    guest = login(bixente)
    url = reverse("games:fill_with_robots", args=[open_table.pk])
    guest.post(url, headers={"HX-Request": "true"})
    assert Seat.objects.filter(table=open_table, robot=True).count() == 0
    Table.objects.filter(pk=open_table.pk).update(
        created=open_table.created - timedelta(seconds=settings.ROBOT_OFFER_SECONDS + 1)
    )
    guest.post(url, headers={"HX-Request": "true"})
    assert Seat.objects.filter(table=open_table, robot=True).count() == 2


def test_a_player_of_another_table_cannot_fill_it(login, open_table, camille, settings):
    Table.objects.filter(pk=open_table.pk).update(
        created=open_table.created - timedelta(seconds=settings.ROBOT_OFFER_SECONDS + 1)
    )
    login(camille).post(
        reverse("games:fill_with_robots", args=[open_table.pk]), headers={"HX-Request": "true"}
    )
    assert Seat.objects.filter(table=open_table, robot=True).count() == 0
