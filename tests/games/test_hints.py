"""« Conseil » at a practice table (games.services.hints): the robot's suggestion and the hand's
exact strength for the player alone against three robots; refused, through the POST and the
socket alike, at any table with another person; as rate-limited as the decisions."""

import html

import pytest
from django.urls import reverse

from games.models import Game
from games.services import robots, salle
from games.services.hints import NOT_PRACTICE
from tests.sockets import opened

pytestmark = pytest.mark.django_db(transaction=True)

HINT = "Conseil du robot"


@pytest.fixture
def eva(make_user):
    return make_user("eva")


@pytest.fixture
def practice(eva):
    """eva at seat 0 against three robots, seat 0 first to speak (the robots wait for no one)."""
    table = salle.table_create(user=eva, kings=4)
    robots.robots_fill(user=eva, table_id=table.pk)
    salle.table_start(user=eva, table_id=table.pk, first_mano=0)
    return Game.objects.get(table=table)


def hint_url(game):
    return reverse("games:hint", args=[game.table_id])


def test_a_practice_player_gets_the_robots_advice_and_the_exact_strength(
    practice, eva, client, django_assert_max_num_queries
):
    client.force_login(eva)
    client.get(reverse("games:table", args=[practice.table_id]))
    with django_assert_max_num_queries(4):  # the session, the user, the game, its seats
        answer = client.post(hint_url(practice), HTTP_HX_REQUEST="true")
    text = html.unescape(answer.content.decode())
    assert answer.status_code == 200
    assert HINT in text and "bat" in text and "Probabilité qu’aucun adversaire n’ait Jeu" in text
    table = client.get(reverse("games:table", args=[practice.table_id])).content.decode()
    assert hint_url(practice) in table  # the panel's « Conseil » button
    assert "data-aide-toggle" in table


def test_no_hint_at_a_table_with_another_person(started_game, ane, bixente, client):
    for user in (ane, bixente):
        client.force_login(user)
        answer = client.post(hint_url(started_game), HTTP_HX_REQUEST="true")
        text = html.unescape(answer.content.decode())
        assert answer.status_code == 403
        assert str(NOT_PRACTICE) in text and HINT not in text
    page = client.get(reverse("games:table", args=[started_game.table_id])).content.decode()
    assert hint_url(started_game) not in page
    assert "data-aide-toggle" in page or "tpanel__waiting" in page


def test_no_hint_for_someone_not_seated_or_out_of_turn(practice, bixente, eva, client):
    client.force_login(bixente)
    assert client.post(hint_url(practice)).status_code == 403
    client.force_login(eva)
    assert client.get(hint_url(practice)).status_code == 405


async def test_the_socket_gives_a_hint_only_at_a_practice_table(practice, started_game, eva, ane):
    socket = await opened(eva, practice)
    await socket.send_json_to({"type": "hint"})
    answer = html.unescape(await socket.receive_from(timeout=5))
    assert HINT in answer and 'id="tpanel-hint"' in answer
    await socket.disconnect()
    socket = await opened(ane, started_game)
    await socket.send_json_to({"type": "hint"})
    answer = html.unescape(await socket.receive_from(timeout=5))
    assert str(NOT_PRACTICE) in answer and HINT not in answer
    await socket.disconnect()


def test_hints_are_rate_limited_like_decisions(practice, eva, client, settings):
    settings.DECISIONS_PER_SECOND = 2
    client.force_login(eva)
    codes = [
        client.post(hint_url(practice)).status_code
        for _ in range(settings.DECISIONS_PER_SECOND + 2)
    ]
    assert 429 in codes and codes[0] == 200
