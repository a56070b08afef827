"""The living salle: players online and tables waiting, friends marked, the host's link and
robots offer, the full table's cue."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import selectors
from games.display import fragments
from games.models import Table
from games.services import salle
from tests.games.friends import finish_game
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def test_the_salle_says_who_is_online_and_how_many_tables_wait(login, open_table, bixente):
    html = login(bixente).get(reverse("games:salle")).content.decode()
    assert "joueur en ligne" in html or "joueurs en ligne" in html
    assert "1 table attend des joueurs" in html


def test_players_one_has_played_with_are_marked(started_game, cast, make_user):
    ane, bixente = cast[0], cast[1]
    finish_game(started_game, cast)
    eve = make_user("eve")
    table = salle.table_create(user=bixente, kings=Table.Kings.FOUR)
    salle.seat_take(user=eve, table_id=table.pk, number=1)
    html, _ = fragments.salle_fragment(ane)
    card = html[html.index(f'id="table-{table.pk}"') :]
    assert "ami : bixente" in card and 'class="badge-ami"' in card
    assert "ami : eve" not in card
    assert selectors.friend_ids(eve, [bixente.pk, ane.pk]) == set()


def test_every_player_of_a_waiting_table_gets_the_robots_offer(
    open_table, ane, bixente, camille, settings
):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    assert not selectors.robot_offer_due(user=ane, table_id=open_table.pk)
    later = open_table.created + timedelta(seconds=settings.ROBOT_OFFER_SECONDS + 1)
    assert selectors.robot_offer_due(user=ane, table_id=open_table.pk, now=later)
    assert selectors.robot_offer_due(user=bixente, table_id=open_table.pk, now=later)
    assert not selectors.robot_offer_due(user=camille, table_id=open_table.pk, now=later)
    due_ms = int((open_table.created.timestamp() + settings.ROBOT_OFFER_SECONDS) * 1000)
    for player in (ane, bixente):
        html, _ = fragments.salle_fragment(player)
        assert f'data-reveal-at="{due_ms}"' in html  # revealed then by static/js/friends.js
        assert "Compléter avec des robots" in html
        assert "En général" in html or "Pas encore assez de parties" in html
        assert "data-waited-since" in html


def test_the_robots_offer_is_refused_before_its_time(login, open_table, ane):
    html = (
        login(ane)
        .post(
            reverse("games:fill_with_robots", args=[open_table.pk]), headers={"HX-Request": "true"}
        )
        .content.decode()
    )
    assert "Attendez encore un peu" in html


def test_the_full_table_cue_goes_to_its_host_only(full_table, ane, bixente):
    assert 'data-title-cue="● Table complète"' in fragments.salle_fragment(ane)[0]
    assert "data-title-cue" not in fragments.salle_fragment(bixente)[0]


def test_a_private_table_in_play_still_counts_among_the_parties(cast):
    table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR, private=True)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(
            user=user, table_id=table.pk, number=number, invite_token=table.invite_token
        )
    start_game(table)
    page = selectors.salle_page(cast[0])
    assert page.playing_count == 1 and page.open_count == 0
