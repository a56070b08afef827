"""« Jouer maintenant » (games.services.quickplay) and the usual wait it tells."""

from collections import Counter
from datetime import timedelta

import pytest
from django.urls import reverse

from games.display import fragments
from games.models import Game, Seat, Table
from games.services import quickplay, salle
from games.services.errors import SalleError
from tests.games.helpers import HTMX, run_together

pytestmark = pytest.mark.django_db


def test_the_fullest_public_table_of_the_modality_is_chosen(cast, make_user):
    ane, bixente, camille, dani = cast
    lonely = salle.table_create(user=ane, kings=Table.Kings.FOUR)
    busy = salle.table_create(user=bixente, kings=Table.Kings.FOUR)
    salle.seat_take(user=camille, table_id=busy.pk, number=2)
    eight = salle.table_create(user=dani, kings=Table.Kings.EIGHT)
    private = salle.table_create(user=make_user("eve"), kings=Table.Kings.FOUR, private=True)
    salle.seat_take(
        user=make_user("fred"), table_id=private.pk, number=1, invite_token=private.invite_token
    )
    salle.seat_take(
        user=make_user("gorka"), table_id=private.pk, number=2, invite_token=private.invite_token
    )
    seat = quickplay.play_now(user=make_user("hodei"), kings=Table.Kings.FOUR)
    assert seat.table_id == busy.pk and seat.number == 1  # the lowest free seat
    assert lonely.pk != eight.pk


def test_with_no_table_one_is_opened(ane):
    seat = quickplay.play_now(user=ane, kings=Table.Kings.EIGHT)
    assert seat.number == 0 and seat.table.kings == 8 and not seat.table.private


def test_a_seated_player_is_refused(open_table, ane):
    with pytest.raises(SalleError, match="déjà assis"):
        quickplay.play_now(user=ane, kings=Table.Kings.FOUR)


@pytest.mark.django_db(transaction=True)
def test_two_players_racing_for_the_last_seat_both_get_one(cast, make_user):
    ane, bixente, camille, _ = cast
    table = salle.table_create(user=ane, kings=Table.Kings.FOUR)
    salle.seat_take(user=bixente, table_id=table.pk, number=1)
    salle.seat_take(user=camille, table_id=table.pk, number=2)
    eve, fred = make_user("eve"), make_user("fred")
    results = run_together(
        lambda: quickplay.play_now(user=eve, kings=Table.Kings.FOUR),
        lambda: quickplay.play_now(user=fred, kings=Table.Kings.FOUR),
    )
    assert all(isinstance(r, Seat) for r in results), results
    assert sorted(r.table_id == table.pk for r in results) == [False, True]


@pytest.mark.django_db(transaction=True)
def test_six_players_at_the_same_instant_fill_one_table(make_user):
    """The choice is serialised: the first four meet at one table, the last two at another."""
    players = [make_user(f"joueur{n}") for n in range(6)]
    results = run_together(
        *[lambda p=p: quickplay.play_now(user=p, kings=Table.Kings.FOUR) for p in players]
    )
    assert all(isinstance(r, Seat) for r in results), results
    seated = Counter(Seat.objects.values_list("table_id", flat=True))
    assert sorted(seated.values()) == [2, 4]


def test_the_usual_wait_is_honest_without_data():
    assert "Pas encore assez de parties" in fragments.usual_wait_text(4)


def test_the_usual_wait_is_the_median_of_the_last_starts(cast, settings, django_assert_num_queries):
    from tests.games.helpers import start_game

    for minutes in (1, 2, 9):
        table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR)
        for number, user in enumerate(cast[1:], start=1):
            salle.seat_take(user=user, table_id=table.pk, number=number)
        game = start_game(table)
        Table.objects.filter(pk=table.pk).update(
            created=game.created - timedelta(minutes=minutes), status=Table.Status.CLOSED
        )
        Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
        Seat.objects.filter(table=table).update(active=False)
    with django_assert_num_queries(1):
        text = fragments.usual_wait_text(4)
    assert text == "En général, une table se remplit en ~2 min."
    assert "Pas encore" in fragments.usual_wait_text(8)


def test_the_button_seats_and_tells_the_wait(login, open_table, bixente):
    html = (
        login(bixente)
        .post(reverse("games:play_now"), {"kings": "4"}, headers=HTMX)
        .content.decode()
    )
    assert Seat.objects.get(user=bixente).table_id == open_table.pk
    assert f"Vous êtes à la table {open_table.pk}." in html
    assert "Pas encore assez de parties" in html
