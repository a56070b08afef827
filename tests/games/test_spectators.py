"""« Regarder » (docs/spectators.md) through the real views and sockets: who may watch, what a
spectator sees (the public view: no card before the table shows it), that a spectator's
socket touches nothing of the game, that the players see who watches, and that one public
render per decision serves every spectator."""

import html

import pytest
from channels.db import database_sync_to_async
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.display import fragments
from games.engine import SeededShuffler
from games.models import Game, SeatConnection, Table
from games.services import salle
from tests.games.helpers import (
    HTMX,
    form_data,
    leaked_cards,
    next_move,
    public_cards,
    receive_watch_version,
    start_game,
    watch_path,
    watching,
)
from tests.sockets import connect, decide, receive_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def eneko(make_user):
    return make_user("eneko")


def test_a_member_watches_a_public_partie_without_any_card(started_game, eneko, login):
    response = login(eneko).get(reverse("games:watch", args=[started_game.table_id]))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Vous regardez la table" in page
    assert leaked_cards(page, set()) == set()
    assert page.count("card card--back") == 16  # four backs at each of the four seats
    assert 'id="my-hand"' not in page and 'id="decision-panel"' not in page
    assert "Vous" not in page.split('id="table-seats"')[1].split("</section>")[0]


def test_anonymous_visitors_go_to_the_login_page(started_game, client):
    response = client.get(reverse("games:watch", args=[started_game.table_id]))
    assert response.status_code == 302 and reverse("accounts:login") in response.url


def test_a_player_watching_their_own_table_goes_to_their_page(started_game, ane, login):
    response = login(ane).get(reverse("games:watch", args=[started_game.table_id]))
    assert response.status_code == 302 and response.url == f"/tables/{started_game.table_id}/"


@pytest.mark.parametrize(
    ("private", "choice", "watchable"),
    [(False, "", True), (False, "non", False), (True, "", False), (True, "oui", True)],
)
def test_the_host_chooses_who_may_watch(cast, login, eneko, private, choice, watchable):
    """A public table admits spectators unless opened « sans spectateurs »; a private table
    only if its host allowed it."""
    ane = cast[0]
    data = {"kings": "4", "spectators": choice, **({"private": "1"} if private else {})}
    response = login(ane).post(reverse("games:table_create"), data, headers=HTMX)
    assert response.status_code == 200
    table = Table.objects.get(host=ane)
    assert table.private is private and table.spectators is watchable
    for number, user in enumerate(cast[1:], start=1):
        token = table.invite_token
        salle.seat_take(user=user, table_id=table.pk, number=number, invite_token=token)
    start_game(table)
    response = login(eneko).get(reverse("games:watch", args=[table.pk]), follow=True)
    if watchable:
        assert response.templates[0].name == "games/watch.html"
    else:
        assert response.redirect_chain[-1][0] == reverse("games:salle")
        assert "Cette partie se joue sans spectateurs." in response.content.decode()


async def test_the_spectators_socket_shows_the_public_view_and_refuses_decisions(
    started_game, cast, eneko
):
    watcher, connected = await connect(eneko, path=watch_path(started_game.table_id))
    assert connected
    first = html.unescape(await watcher.receive_from(timeout=5))
    assert 'data-version="0"' in first and leaked_cards(first, set()) == set()
    # its own decision, up its socket: refused, nothing changes
    await watcher.send_to(text_data=decide({"version": "0", "type": "mus"}))
    refusal = html.unescape(await watcher.receive_from(timeout=5))
    assert "vous ne pouvez pas y jouer" in refusal
    game = await database_sync_to_async(Game.objects.get)(pk=started_game.pk)
    assert game.version == 0
    assert await database_sync_to_async(SeatConnection.objects.count)() == 0
    # a player's decision reaches the spectator, the public view
    player, _ = await connect(cast[0], path=f"/ws/tables/{started_game.table_id}/")
    await receive_version(player, 0)
    await player.send_to(text_data=decide({"version": "0", "type": "mus"}))
    pushed = html.unescape(await receive_watch_version(watcher, 1))
    assert "ane : Mus" in pushed and leaked_cards(pushed, set()) == set()
    await watcher.disconnect()
    await player.disconnect()


async def test_the_players_see_who_watches_and_leaving_is_nothing_to_the_game(
    started_game, cast, eneko
):
    player, _ = await connect(cast[1], path=f"/ws/tables/{started_game.table_id}/")
    assert "Aucun spectateur" in await receive_version(player, 0)
    watcher, _ = await connect(eneko, path=watch_path(started_game.table_id))
    await watcher.receive_from(timeout=5)
    told = html.unescape(await player.receive_from(timeout=5))
    assert "1 spectateur" in told and "<li>eneko</li>" in told
    await watcher.disconnect()
    told = html.unescape(await player.receive_from(timeout=5))
    assert "Aucun spectateur" in told
    assert await player.receive_nothing(timeout=0.5)  # no presence banner, no render
    game = await database_sync_to_async(Game.objects.get)(pk=started_game.pk)
    assert game.status == Game.Status.PLAYING and game.version == 0
    await player.disconnect()


async def test_fifty_spectators_cost_one_render_per_decision(started_game, cast, make_user):
    """The public render is made once per decision for every spectator (PublicRenders), and
    each of the fifty gets it."""
    users = await database_sync_to_async(lambda: [make_user(f"mirón{i}") for i in range(50)])()
    watchers = []
    for user in users:
        communicator, connected = await connect(user, path=watch_path(started_game.table_id))
        assert connected
        await communicator.receive_from(timeout=5)
        watchers.append(communicator)
    player, _ = await connect(cast[0], path=f"/ws/tables/{started_game.table_id}/")
    await receive_version(player, 0)
    game = started_game
    before = fragments.PUBLIC.renders
    rng = SeededShuffler(7)
    decisions = 0
    for _ in range(6):
        seat, action = await database_sync_to_async(next_move)(game, rng)
        client_user = cast[seat]
        await database_sync_to_async(_post)(client_user, game, action)
        game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        decisions += 1
        for communicator in watchers:
            payload = html.unescape(await receive_watch_version(communicator, game.version))
            assert leaked_cards(payload, public_cards(game.state)) == set()
    assert fragments.PUBLIC.renders - before == decisions
    for communicator in (*watchers, player):
        await communicator.disconnect()


def _post(user, game, action):
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("games:act", args=[game.table_id]), form_data(game.version, action), headers=HTMX
    )
    assert response.status_code == 200


def _seat_four(host_user, others, *, kings=4):
    table = salle.table_create(user=host_user, kings=kings)
    for number, user in enumerate(others, start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    return start_game(table)


def test_the_salle_lists_the_parties_to_watch_and_one_a_la_une(cast, make_user, login, eneko):
    """« Regarder » on every public partie in play; « À la une »: the highest mean rating."""
    others = [make_user(name) for name in ("fermin", "garazi", "haritz", "ines")]
    first = _seat_four(cast[0], cast[1:])
    second = _seat_four(others[0], others[1:])
    closed = salle.table_create(user=eneko, kings=4, spectators=False)
    for number, name in enumerate(("lorea", "mikel", "nerea"), start=1):
        salle.seat_take(user=make_user(name), table_id=closed.pk, number=number)
    start_game(closed)
    page = html.unescape(login(make_user("jon")).get(reverse("games:salle")).content.decode())
    for game in (first, second):
        assert f'href="/tables/{game.table_id}/regarder/"' in page
    assert f"/tables/{closed.pk}/regarder/" not in page
    # no rating yet: the longest running
    featured = page.split('id="featured"')[1].split("</section>")[0]
    assert f"Table {first.table_id} :" in featured and "niveau moyen" not in featured
    Rating = apps.get_model("records", "Rating")
    for user in others:
        Rating.objects.create(user=user, mu=30, sigma=5, points=1700, updated=timezone.now())
    page = html.unescape(login(make_user("kepa")).get(reverse("games:salle")).content.decode())
    featured = page.split('id="featured"')[1].split("</section>")[0]
    assert f"Table {second.table_id} :" in featured and "niveau moyen 1700" in featured


async def test_a_la_une_updates_live_in_the_salle(cast, make_user):
    game = await database_sync_to_async(_seat_four)(cast[0], cast[1:])
    visitor = await database_sync_to_async(make_user)("lide")
    salle_socket, connected = await connect(visitor)
    assert connected
    first = html.unescape(await salle_socket.receive_from(timeout=5))
    assert 'id="featured"' in first and "main n° 1" in first
    player, _ = await connect(cast[0], path=f"/ws/tables/{game.table_id}/")
    await receive_version(player, 0)
    await player.send_to(text_data=decide({"version": "0", "type": "mus"}))
    while True:
        pushed = html.unescape(await salle_socket.receive_from(timeout=5))
        if 'id="featured-live"' in pushed and "#salle" not in pushed:
            break
    assert "Équipe 1 : 0 · Équipe 2 : 0 — main n° 1" in pushed and "card" not in pushed
    await salle_socket.disconnect()
    await player.disconnect()


async def test_spectator_sockets_count_in_the_users_limit(started_game, eneko, settings):
    """A member watching one tab too many: the oldest spectator socket closes (4002), as for
    the salle's and the table's sockets."""
    settings.SOCKETS_PER_USER = 2
    first = await watching(eneko, started_game.table_id)
    second = await watching(eneko, started_game.table_id)
    third = await watching(eneko, started_game.table_id)
    told = html.unescape(await first.receive_from(timeout=5))
    while "ouverte ailleurs" not in told:
        told = html.unescape(await first.receive_from(timeout=5))
    assert (await first.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4002}
    assert await second.receive_nothing(timeout=0.3)
    for communicator in (second, third):
        await communicator.disconnect()


async def test_each_spectator_reads_the_public_render_in_their_own_language(
    started_game, cast, make_user
):
    """Spectators in two languages: each push is rendered once per language, not served from
    whichever language rendered it first."""

    def spectator(name, language):
        user = make_user(name)
        user.language = language
        user.save(update_fields=["language"])
        return user

    french = await database_sync_to_async(spectator)("mathilde", "fr")
    spanish = await database_sync_to_async(spectator)("lucia", "es")
    sockets = {}
    for user in (french, spanish):
        communicator, connected = await connect(user, path=watch_path(started_game.table_id))
        assert connected
        sockets[user.language] = (communicator, await communicator.receive_from(timeout=5))
    game = started_game
    seat, action = await database_sync_to_async(next_move)(game, SeededShuffler(3))
    await database_sync_to_async(_post)(cast[seat], game, action)
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    for language, (communicator, first) in sockets.items():
        pushed = html.unescape(await receive_watch_version(communicator, game.version))
        for payload in (html.unescape(first), pushed):
            if language == "fr":
                assert "Équipe 1" in payload and "Equipo 1" not in payload
            else:
                assert "Equipo 1" in payload and "Équipe" not in payload
        await communicator.disconnect()
