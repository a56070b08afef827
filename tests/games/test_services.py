"""The salle's rules, one service at a time, against the real database."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Seat, Table
from games.services import play, salle
from games.services.errors import SalleError

pytestmark = pytest.mark.django_db


def seats_of(table):
    return {seat.number: seat.user.username for seat in table.seats.select_related("user")}


def test_create_seats_the_host_at_seat_zero(ane):
    table = salle.table_create(user=ane, kings=8)
    assert (table.host, table.kings, table.status) == (ane, 8, Table.Status.OPEN)
    assert seats_of(table) == {0: "ane"}


def test_create_refuses_an_unknown_modality(ane):
    with pytest.raises(SalleError, match="modalité"):
        salle.table_create(user=ane, kings=5)
    assert not Table.objects.exists()


def test_one_table_at_a_time(ane, open_table):
    with pytest.raises(SalleError, match="déjà assis"):
        salle.table_create(user=ane, kings=4)
    assert Table.objects.count() == 1


def test_take_a_free_seat_chooses_the_team(bixente, open_table):
    seat = salle.seat_take(user=bixente, table_id=open_table.pk, number=3)
    assert (seat.number, seat.team) == (3, 1)
    assert seats_of(open_table) == {0: "ane", 3: "bixente"}


def test_move_to_another_free_seat(bixente, open_table):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    salle.seat_take(user=bixente, table_id=open_table.pk, number=2)
    assert seats_of(open_table) == {0: "ane", 2: "bixente"}


def test_cannot_take_a_taken_seat(bixente, open_table):
    with pytest.raises(SalleError, match="prise"):
        salle.seat_take(user=bixente, table_id=open_table.pk, number=0)
    assert seats_of(open_table) == {0: "ane"}


def test_cannot_sit_at_a_full_table(full_table, make_user):
    eneko = make_user("eneko")
    with pytest.raises(SalleError, match="complète"):
        salle.seat_take(user=eneko, table_id=full_table.pk, number=1)


@pytest.mark.parametrize("number", [-1, 4, 99])
def test_out_of_range_seat_is_refused(bixente, open_table, number):
    with pytest.raises(SalleError, match="n’existe pas"):
        salle.seat_take(user=bixente, table_id=open_table.pk, number=number)
    assert seats_of(open_table) == {0: "ane"}


def test_unknown_table(bixente):
    with pytest.raises(SalleError, match="n’existe pas"):
        salle.seat_take(user=bixente, table_id=424242, number=1)


def test_cannot_sit_at_two_tables(ane, bixente, open_table):
    other = salle.table_create(user=bixente, kings=8)
    with pytest.raises(SalleError, match="déjà assis"):
        salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    assert seats_of(open_table) == {0: "ane"}
    assert seats_of(other) == {0: "bixente"}


def test_host_leaving_passes_host_to_the_next_seated_player(ane, bixente, camille, open_table):
    salle.seat_take(user=camille, table_id=open_table.pk, number=3)
    salle.seat_take(user=bixente, table_id=open_table.pk, number=2)
    table = salle.seat_leave(user=ane, table_id=open_table.pk)
    assert table.host == bixente
    assert table.status == Table.Status.OPEN
    assert seats_of(table) == {2: "bixente", 3: "camille"}


def test_host_handover_wraps_around_the_table(ane, bixente, camille, open_table):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    salle.seat_take(user=camille, table_id=open_table.pk, number=3)
    salle.seat_take(user=ane, table_id=open_table.pk, number=2)  # the host moves to seat 2
    assert salle.seat_leave(user=ane, table_id=open_table.pk).host == camille


def test_last_player_leaving_deletes_the_unplayed_table(ane, bixente, open_table):
    """Nothing was played there: no closed row is kept for good (open/leave cycles left one
    each), and the table is gone for anyone who still had it on screen."""
    table = salle.seat_leave(user=ane, table_id=open_table.pk)
    assert table.status == Table.Status.CLOSED
    assert not Table.objects.exists()
    assert not Seat.objects.exists()
    with pytest.raises(SalleError, match="n’existe pas"):
        salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    for _ in range(3):
        table = salle.table_create(user=ane, kings=4)  # free again
        salle.seat_leave(user=ane, table_id=table.pk)
    assert not Table.objects.exists()


def test_a_table_played_at_is_kept(cast, full_table):
    salle.table_start(user=cast[0], table_id=full_table.pk)
    play.game_finish(game=full_table.game, status="cancelled", reason="Test")
    assert Table.objects.get(pk=full_table.pk).status == Table.Status.CLOSED
    assert Game.objects.filter(table=full_table).exists()


def test_leave_a_table_where_one_does_not_sit(bixente, open_table):
    with pytest.raises(SalleError, match="pas assis"):
        salle.seat_leave(user=bixente, table_id=open_table.pk)


def test_host_starts_a_full_table(ane, full_table):
    table = salle.table_start(user=ane, table_id=full_table.pk)
    assert table.status == Table.Status.PLAYING


def test_only_the_host_starts(bixente, full_table):
    with pytest.raises(SalleError, match="hôte"):
        salle.table_start(user=bixente, table_id=full_table.pk)
    full_table.refresh_from_db()
    assert full_table.status == Table.Status.OPEN


def test_no_start_with_fewer_than_four(ane, bixente, open_table):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    with pytest.raises(SalleError, match="quatre joueurs"):
        salle.table_start(user=ane, table_id=open_table.pk)
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.OPEN


def test_started_table_refuses_seats_leaves_and_second_starts(ane, bixente, full_table, make_user):
    salle.table_start(user=ane, table_id=full_table.pk)
    with pytest.raises(SalleError, match="commencé"):
        salle.seat_take(user=make_user("eneko"), table_id=full_table.pk, number=1)
    with pytest.raises(SalleError, match="commencé"):
        salle.seat_leave(user=bixente, table_id=full_table.pk)
    with pytest.raises(SalleError, match="commencé"):
        salle.table_start(user=ane, table_id=full_table.pk)
    assert len(seats_of(full_table)) == 4


def test_closed_table_refuses_seats(ane, bixente, open_table):
    later = timezone.now() + timedelta(hours=1)
    assert salle.table_close_if_idle(table_id=open_table.pk, now=later) is not None
    with pytest.raises(SalleError, match="fermée"):
        salle.seat_take(user=bixente, table_id=open_table.pk, number=1)


def test_database_allows_one_active_seat_per_user(ane, bixente, open_table):
    from django.db import IntegrityError, transaction

    other = Table.objects.create(host=bixente, kings=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=other, user=ane, number=1)
