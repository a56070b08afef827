"""The hidden information of a game in play (hands, pioche, discarded cards) in the admin:
never for a staff member seated at that game, shown elsewhere only on the Rejouer page, and
every such view journaled. Also: Rejouer with an id that is no game is a 404."""

import logging

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.services import play
from moderation import services
from moderation.models import StaffAction
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db

#: What only the stored state and the log's discards show, as the admin page escapes them.
HIDDEN_MARKERS = ("&quot;decks&quot;", "&quot;cards&quot;")


def make_moderator(user):
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(Permission.objects.get(codename="can_moderate"))
    return type(user).objects.get(pk=user.pk)  # no cached permissions


def play_mus_and_one_discard_each(game):
    """Everybody asks for mus, then each seat discards its first card: the log now holds four
    discards, and the state a pioche already drawn from."""
    while game.state["phase"] == "mus":
        seat = game.state["hand"]["speaker"]
        apply(game, seat, {"type": "mus"})
        game.refresh_from_db()
    for seat in range(4):
        apply(game, seat, {"type": "discard", "cards": [game.state["hand"]["cards"][seat][0]]})
        game.refresh_from_db()
    assert game.state["phase"] != "discard"
    return game


def apply(game, seat, action):
    user = game.seats.get(number=seat).user
    play.game_apply_action(game_id=game.pk, user=user, version=game.version, action=action)


@pytest.fixture
def game(full_table):
    return play_mus_and_one_discard_each(start_game(full_table, first_mano=1))


def test_a_seated_moderator_sees_their_game_in_play_as_a_player(game, ane, login):
    ane = make_moderator(ane)
    client = login(ane)
    page = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for marker in HIDDEN_MARKERS:
        assert marker not in html
    assert "écarte 1 carte" in html  # the discards, as the players saw them

    replay = client.get(reverse("admin:games_game_replay", args=[game.pk]))
    assert replay.status_code == 302
    assert replay["Location"] == reverse("admin:games_game_change", args=[game.pk])
    shown = client.get(replay["Location"]).content.decode()
    assert "Vous jouez cette partie : son rejeu vous sera ouvert quand elle sera terminée." in shown
    assert not StaffAction.objects.exists()


def test_other_staff_see_the_hidden_state_only_on_rejouer_and_each_look_is_journaled(
    game, mikel, login
):
    client = login(mikel)
    html = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    for marker in HIDDEN_MARKERS:
        assert marker not in html
    assert not StaffAction.objects.exists()

    replay = reverse("admin:games_game_replay", args=[game.pk])
    for _ in range(2):
        response = client.get(replay)
        assert response.status_code == 200
        assert 'data-card="' in response.content.decode()
    rows = list(StaffAction.objects.order_by("pk"))
    assert [(row.kind, row.staff, row.game, row.target_user) for row in rows] == [
        ("view", mikel, game, None),
        ("view", mikel, game, None),
    ]
    assert all("rejeu" in row.reason for row in rows)


def test_once_the_game_is_over_everything_is_shown_to_all_staff_unjournaled(
    game, ane, maite, login
):
    services.game_cancel(game=game, by=maite, reason="Fin du test")
    StaffAction.objects.all().delete()
    client = login(make_moderator(ane))
    html = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    for marker in HIDDEN_MARKERS:
        assert marker in html  # the same page, the game over: state and discards
    assert client.get(reverse("admin:games_game_replay", args=[game.pk])).status_code == 200
    assert not StaffAction.objects.exists()


@pytest.mark.parametrize("object_id", ["abc", "1.5", "99999999999999999999999", "424242"])
def test_rejouer_of_an_id_that_is_no_game_is_a_404(mikel, login, object_id, caplog):
    url = reverse("admin:games_game_replay", args=[object_id])
    response = login(mikel).get(url)
    assert response.status_code == 404
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert not StaffAction.objects.exists()
