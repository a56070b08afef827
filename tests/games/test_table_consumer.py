"""The live table over a real WebSocket stack (origin check, session auth, Redis channel layer):
who may connect, what each player receives, and that nobody ever receives another seat's
cards before the showdown."""

import html
import statistics
import time

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import broadcast
from games.display.regions import REGIONS
from games.engine import SeededShuffler
from games.models import Game
from games.services import play
from tests.games.helpers import (
    HTMX,
    LONG_PLAY,
    allowed_cards,
    fair_start,
    form_data,
    leaked_cards,
    leaks_secret,
    next_move,
    start_game,
)
from tests.sockets import connect, connect_table, receive_version, without_clocks

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def fresh(game):
    game.refresh_from_db()
    return game


CLIENTS: dict[int, Client] = {}  # one logged-in client per player (sessions live per test)


@database_sync_to_async
def post_as(user, table_id, data):
    client = CLIENTS.get(user.pk)
    if client is None or client.session.get("_auth_user_id") != str(user.pk):
        client = CLIENTS[user.pk] = Client()
        client.force_login(user)
    return client.post(reverse("games:act", args=[table_id]), data, headers=HTMX)


def print_latencies(latencies):
    """A benchmark figure, never asserted on."""
    ms = sorted(latency * 1000 for latency in latencies)
    print(
        f"\nPOST -> 4 sockets updated ({len(ms)} decisions, in-process ASGI, Redis layer): "
        f"p50 {statistics.median(ms):.1f} ms, p90 {ms[int(len(ms) * 0.9)]:.1f} ms, "
        f"max {ms[-1]:.1f} ms"
    )


async def test_anonymous_and_outsiders_are_refused(started_game, make_user):
    communicator, connected = await connect_table(None, started_game.table_id)
    assert not connected
    eneko = await database_sync_to_async(make_user)("eneko")
    communicator, connected = await connect_table(eneko, started_game.table_id)
    assert not connected
    communicator, connected = await connect_table(eneko, 999999)
    assert not connected


async def test_connect_sends_a_full_render_of_my_seat_only(started_game, camille):
    communicator, connected = await connect_table(camille, started_game.table_id)
    assert connected
    payload = await communicator.receive_from(timeout=5)
    assert payload.count('hx-swap-oob="true"') == len(REGIONS)
    mine = started_game.state["hand"]["cards"][2]
    for code in mine:
        assert f'data-card="{code}"' in payload
    assert leaked_cards(payload, set(mine)) == set()
    assert payload.count("card card--back") == 12
    await communicator.disconnect()
    again, _ = await connect_table(camille, started_game.table_id)  # a reconnect gets it all again
    assert without_clocks(await again.receive_from(timeout=5)) == without_clocks(payload)
    await again.disconnect()


async def test_another_players_decision_is_pushed(started_game, ane, bixente):
    communicator, _ = await connect_table(bixente, started_game.table_id)
    await receive_version(communicator, 0)
    response = await post_as(ane, started_game.table_id, {"version": "0", "type": "mus"})
    assert response.status_code == 200
    payload = html.unescape(await receive_version(communicator, 1, timeout=2))
    assert "ane : Mus" in payload and "À vous de parler." in payload
    assert leaked_cards(payload, set(started_game.state["hand"]["cards"][1])) == set()
    await communicator.disconnect()


async def test_a_refused_decision_pushes_nothing(started_game, bixente, camille):
    communicator, _ = await connect_table(camille, started_game.table_id)
    await communicator.receive_from(timeout=5)
    response = await post_as(bixente, started_game.table_id, {"version": "0", "type": "mus"})
    assert response.status_code == 422
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_cancellation_sends_the_players_to_the_salle_with_the_reason(started_game, cast):
    sockets = [(await connect_table(user, started_game.table_id))[0] for user in cast]
    for communicator in sockets:
        await communicator.receive_from(timeout=5)
    await database_sync_to_async(play.game_finish)(
        game=started_game, status="cancelled", reason="dani a quitté la table.", by=None
    )
    for communicator in sockets:
        payload = html.unescape(await communicator.receive_from(timeout=2))
        assert f'data-redirect="/tables/{started_game.table_id}/"' in payload
        assert "La partie a été annulée : dani a quitté la table." in payload
        await communicator.disconnect()


async def test_a_kicked_user_is_sent_to_the_login_page_and_closed(started_game, ane):
    table, _ = await connect_table(ane, started_game.table_id)
    salle, _ = await connect(ane)
    await table.receive_from(timeout=5)
    await salle.receive_from(timeout=5)
    await database_sync_to_async(broadcast.user_kicked)(ane.pk, "Compte suspendu.")
    login = reverse("accounts:login") + "?motif=suspension"
    for communicator in (table, salle):
        payload = await communicator.receive_from(timeout=2)
        assert f'data-redirect="{login}"' in payload and "Compte suspendu." in payload
        assert (await communicator.receive_output(timeout=2)) == {
            "type": "websocket.close",
            "code": 4003,
        }
        await communicator.disconnect()


async def play_and_watch(game, cast, rng, *, actions, weights=None):
    """Random legal decisions posted by the players (test Clients) while the four sockets are
    connected; after each, every socket's push for the new version is awaited. Returns every
    payload each seat received (pushes and its own POST answers) with the cards it may see,
    and the POST -> four sockets latencies."""
    sockets = []
    seen = {seat: [] for seat in range(4)}
    for seat, user in enumerate(cast):
        communicator, connected = await connect_table(user, game.table_id)
        assert connected
        payload = await communicator.receive_from(timeout=5)
        seen[seat].append((payload, allowed_cards(game.state, seat)))
        sockets.append(communicator)
    latencies = []
    for _ in range(actions):
        if game.status != Game.Status.PLAYING:
            break
        seat, action = next_move(game, rng, weights)
        started = time.monotonic()
        response = await post_as(cast[seat], game.table_id, form_data(game.version, action))
        assert response.status_code == 200
        game = await fresh(game)
        version = game.state["version"]
        pushed = [await receive_version(c, version) for c in sockets]
        latencies.append(time.monotonic() - started)
        seen[seat].append((response.content.decode(), allowed_cards(game.state, seat)))
        for other, payload in enumerate(pushed):
            seen[other].append((payload, allowed_cards(game.state, other)))
    for communicator in sockets:
        await communicator.disconnect()
    return game, seen, latencies


@pytest.mark.parametrize(("seed", "weights"), [(21, LONG_PLAY), (4, None), (5, None)])
async def test_no_payload_ever_holds_another_seats_cards(full_table, cast, seed, weights):
    """LONG_PLAY: about six hands of passes and many mus rounds; default weights: bets, votes,
    órdagos, to the end of the partie (the decks come from secrets: every run differs)."""
    game = await database_sync_to_async(start_game)(full_table, first_mano=seed % 4)
    rng = SeededShuffler(seed)
    game, seen, latencies = await play_and_watch(game, cast, rng, actions=150, weights=weights)
    print_latencies(latencies)
    for seat, payloads in seen.items():
        for payload, allowed in payloads:
            assert leaked_cards(html.unescape(payload), allowed) == set(), (seat, payload)
            assert not leaks_secret(payload, full_table.server_seed), (seat, payload)
    if weights is LONG_PLAY:
        assert game.state["hand_number"] >= 3 and len(seen[0]) > 100
        assert any(len(allowed) == 16 for _, allowed in seen[0])  # showdowns were scanned too


async def test_the_secret_reaches_no_socket_before_the_end_and_all_four_at_the_end(
    full_table, cast
):
    """A derived partie played to its end with the four sockets open: no push nor POST answer
    holds the server seed (or 16 hex digits of it) until the partie is won; the end screen
    pushed to each of the four reveals it with the record's link."""
    game = await database_sync_to_async(fair_start)(full_table)
    secret = game.server_seed
    game, seen, _ = await play_and_watch(game, cast, SeededShuffler(11), actions=3000)
    assert game.status == Game.Status.FINISHED
    dossier_url = reverse("games:partie_record", args=[game.pk])
    for seat, payloads in seen.items():
        *before, last = [html.unescape(payload) for payload, _ in payloads]
        for payload in before:
            if "Score final" not in payload:
                assert not leaks_secret(payload, secret), (seat, payload)
        assert "Score final" in last and secret in last and dossier_url in last
        assert "Télécharger le dossier de la partie" in last


async def test_the_partie_over_screen_reaches_all_four_with_the_same_totals(full_table, cast):
    game = await database_sync_to_async(start_game)(full_table, first_mano=1)
    game, seen, latencies = await play_and_watch(game, cast, SeededShuffler(9), actions=3000)
    assert game.status == Game.Status.FINISHED
    scores = game.state["scores"]
    for seat in range(4):
        final = html.unescape(seen[seat][-1][0])
        mine, theirs = scores[seat % 2], scores[1 - seat % 2]
        assert f"Score final : Nous {mine} · Eux {theirs}" in final
        won = game.winning_team == seat % 2
        assert ("Vous avez gagné la partie !" in final) == won
    print_latencies(latencies)
