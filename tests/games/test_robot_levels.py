"""The robots' levels at the site (docs/robots.md): chosen in « Jouer contre les robots » and
per placed robot, stored on the seat and the partie's seat, played at, and shown in the salle,
at the table and on the profile; a bad level is a French message that changes nothing."""

from unittest import mock

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, GameSeat, RobotLevel, Seat, Table
from games.services import play, robots, salle
from tests.games.helpers import HTMX, play_robots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker():
    """The robots' tasks are only recorded: play_robots runs them as the worker would."""
    with mock.patch("games.services.play.current_app") as app:
        yield app.send_task


def test_the_practice_form_offers_the_three_levels_expert_first_chosen(login, ane):
    page = login(ane).get(reverse("games:salle")).content.decode()
    form = page[page.index('class="create-table practice-table"') :]
    form = form[: form.index("</form>")]
    assert "Niveau des robots" in form
    assert '<option value="debutant">Débutant</option>' in form
    assert '<option value="confirme">Confirmé</option>' in form
    assert '<option value="expert" selected>Expert</option>' in form


def test_a_practice_table_at_a_level_seats_plays_and_shows_that_level(login, ane):
    client = login(ane)
    response = client.post(
        reverse("games:practice_table"), {"kings": "4", "level": "debutant"}, headers=HTMX
    )
    table = Table.objects.get()
    assert response["HX-Redirect"] == table.get_absolute_url()
    assert (
        sorted(Seat.objects.filter(table=table, robot=True).values_list("robot_level", flat=True))
        == ["debutant"] * 3
    )
    game = Game.objects.get(table=table)
    levels = dict(GameSeat.objects.filter(game=game).values_list("number", "robot_level"))
    assert levels == {0: "", 1: "debutant", 2: "debutant", 3: "debutant"}
    page = client.get(table.get_absolute_url()).content.decode()
    assert page.count('<span class="badge-robot">robot · Débutant</span>') == 3
    salle_page = client.get(reverse("games:salle")).content.decode()
    assert salle_page.count("robot · Débutant") == 3
    with mock.patch.object(engine, "robot_action", wraps=engine.robot_action) as decide:
        play_robots(game)
        if not decide.call_count:  # the fair shuffle made the person mano: they speak first
            game.refresh_from_db()
            action = {"type": "mus"}
            play.game_apply_action(user=ane, version=game.version, action=action, game_id=game.pk)
            play_robots(game)
    assert decide.call_count >= 1
    assert {call.args[1] for call in decide.call_args_list} == {"debutant"}


def test_without_a_level_the_practice_robots_are_experts(login, ane):
    login(ane).post(reverse("games:practice_table"), {"kings": "8"})
    assert set(Seat.objects.filter(robot=True).values_list("robot_level", flat=True)) == {"expert"}


def test_each_placed_robot_has_the_level_chosen_for_its_seat(login, ane, open_table):
    client = login(ane)
    page = client.get(reverse("games:salle")).content.decode()
    assert page.count('aria-label="Niveau du robot à la place') == 3
    url = reverse("games:robot_seat", args=[open_table.pk])
    client.post(url, {"number": "1", "level": "confirme"}, headers=HTMX)
    response = client.post(url, {"number": "2"}, headers=HTMX)
    levels = dict(Seat.objects.filter(robot=True).values_list("number", "robot_level"))
    assert levels == {1: "confirme", 2: "expert"}
    content = response.content.decode()
    assert '<span class="badge-robot">robot · Confirmé</span>' in content
    assert '<span class="badge-robot">robot · Expert</span>' in content


def test_a_bad_level_is_a_french_message_and_changes_nothing(login, ane, open_table):
    client = login(ane)
    response = client.post(
        reverse("games:robot_seat", args=[open_table.pk]),
        {"number": "1", "level": "champion"},
        headers=HTMX,
    )
    message = "Choisissez un niveau de robot : débutant, confirmé ou expert."
    assert response.status_code == 200 and message in response.content.decode()
    assert not Seat.objects.filter(robot=True).exists()
    other = login(ane)
    salle.seat_leave(user=ane, table_id=open_table.pk)
    response = other.post(
        reverse("games:practice_table"), {"kings": "4", "level": "champion"}, headers=HTMX
    )
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_filling_a_table_uses_the_level_given(ane, open_table):
    robots.robots_fill(user=ane, table_id=open_table.pk, level=RobotLevel.CONFIRME)
    assert set(Seat.objects.filter(robot=True).values_list("robot_level", flat=True)) == {
        "confirme"
    }
