"""The live table over HTTP: the page, the decision endpoint, every bad input answered in
French with no change, and the number of SQL queries per decision."""

import functools
import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.display.regions import REGIONS
from games.engine import SeededShuffler, to_act
from games.models import Game, GameAction
from games.services import play
from tests.games.helpers import HTMX, LONG_PLAY, form_data, next_move, start_game

pytestmark = pytest.mark.django_db
CONTROL = {"BEGIN", "COMMIT"}


def act_url(game):
    return reverse("games:act", args=[game.table_id])


def text(response) -> str:
    return html.unescape(response.content.decode())


def snapshot(game):
    game.refresh_from_db()
    return game.state, game.version, game.status, GameAction.objects.filter(game=game).count()


def post(client, game, data, htmx=True):
    return client.post(act_url(game), data, headers=HTMX if htmx else {})


def test_page_shows_my_cards_and_only_backs_for_the_others(login, camille, started_game):
    content = (
        login(camille).get(reverse("games:table", args=[started_game.table_id])).content.decode()
    )
    for code in started_game.state["hand"]["cards"][2]:
        assert f'data-card="{code}"' in content
    assert content.count("data-card=") == 4
    assert content.count("card card--back") == 12
    assert 'data-version="0"' in content


def test_decision_answers_with_the_actors_regions_out_of_band(login, ane, started_game):
    response = post(login(ane), started_game, {"version": "0", "type": "mus"})
    content = text(response)
    assert response.status_code == 200
    assert "<html" not in content
    for region in ("flash", "scoreboard", "table-seats", "my-hand", "decision-panel", "hand-log"):
        assert f'id="{region}"' in content
    assert content.count('hx-swap-oob="true"') == len(REGIONS)
    assert "ane : Mus" in content and "En attente de bixente" in content
    started_game.refresh_from_db()
    assert started_game.version == 1


def test_a_decision_is_answered_even_when_the_channel_layer_is_down(
    login, ane, started_game, settings, django_capture_on_commit_callbacks
):
    """Redis restarting: the write is committed, so the actor gets the 200, never a 500; the
    others catch up when their sockets reconnect (a full render)."""
    layer = settings.CHANNEL_LAYERS["default"]
    nowhere = [{"address": "redis://127.0.0.1:1/0", "socket_connect_timeout": 1}]
    settings.CHANNEL_LAYERS = {
        "default": {**layer, "CONFIG": {**layer["CONFIG"], "hosts": nowhere}}
    }
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = post(login(ane), started_game, {"version": "0", "type": "mus"})
    assert callbacks  # the push was attempted, and failed against the closed port
    assert response.status_code == 200 and "ane : Mus" in text(response)
    assert Game.objects.get().version == 1


def test_without_htmx_a_decision_redirects_to_the_table(login, ane, started_game):
    response = post(login(ane), started_game, {"version": "0", "type": "mus"}, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[started_game.table_id])
    assert Game.objects.get().version == 1


def test_double_click_is_a_409_with_a_fresh_render(login, ane, started_game):
    client = login(ane)
    assert post(client, started_game, {"version": "0", "type": "mus"}).status_code == 200
    before = snapshot(started_game)
    response = post(client, started_game, {"version": "0", "type": "mus"})
    content = text(response)
    assert response.status_code == 409
    assert "La table a changé" in content
    assert 'data-version="1"' in content
    assert snapshot(started_game) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"version": "0", "type": "steal"}, "Action inconnue."),
        ({"version": "0"}, "Action inconnue."),
        ({"type": "mus"}, "Action incompréhensible"),
        ({"version": "zéro", "type": "mus"}, "Action incompréhensible"),
        ({"version": "0", "type": "bet", "amount": "cinq"}, "nombre entier de points"),
        ({"version": "0", "type": "bet", "amount": "99999999999999999999"}, "nombre entier"),
        ({"version": "0", "type": "raise"}, "nombre entier de points"),
        ({"version": "0", "type": "discard"}, "Choisissez de 1 à 4 cartes"),
        ({"version": "0", "type": "bet", "amount": "5"}, "pas possible à ce moment"),
        ({"version": "0", "type": "deal"}, "pas possible à ce moment"),
    ],
)
def test_forged_decisions_are_422_in_french_and_change_nothing(
    login, ane, started_game, data, message
):
    before = snapshot(started_game)
    response = post(login(ane), started_game, data)
    assert response.status_code == 422
    assert message in text(response)
    assert 'id="decision-panel"' in text(response)  # a fresh render comes along
    assert snapshot(started_game) == before


def test_another_players_turn_is_refused(login, bixente, started_game):
    before = snapshot(started_game)
    response = post(login(bixente), started_game, {"version": "0", "type": "mus"})
    assert response.status_code == 422
    assert "Ce n'est pas à vous de parler." in text(response)
    assert snapshot(started_game) == before


def discard_phase(login, cast, game):
    for seat in range(4):
        post(login(cast[seat]), game, {"version": str(seat), "type": "mus"})
    game.refresh_from_db()
    assert game.state["phase"] == "discard"


def test_a_card_not_in_hand_is_refused(login, cast, started_game):
    discard_phase(login, cast, started_game)
    mine = started_game.state["hand"]["cards"][0]
    theirs = started_game.state["hand"]["cards"][1][0]
    before = snapshot(started_game)
    for cards, message in (
        ([theirs], "Vous n'avez pas cette carte en main."),
        (["13o"], "Vous n'avez pas cette carte en main."),
        ([mine[0], mine[0]], "deux fois la même carte"),
        (mine + [theirs], "Choisissez de 1 à 4 cartes"),
    ):
        response = post(
            login(cast[0]), started_game, {"version": "4", "type": "discard", "cards": cards}
        )
        assert response.status_code == 422
        content = text(response)
        assert message in content
        assert f'data-card="{theirs}"' not in content
    assert snapshot(started_game) == before
    response = post(
        login(cast[0]), started_game, {"version": "4", "type": "discard", "cards": mine[:2]}
    )
    assert response.status_code == 200


def test_an_amount_out_of_range_is_refused(login, cast, started_game):
    post(
        login(cast[0]), started_game, {"version": "0", "type": "cut"}
    )  # the mano cuts: grand opens
    started_game.refresh_from_db()
    assert started_game.state["hand"]["lance"] == "grand"
    speaker = to_act(started_game.state)[0]
    before = snapshot(started_game)
    for amount in ("1", "41", "-3"):
        data = {"version": "1", "type": "bet", "amount": amount}
        response = post(login(cast[speaker]), started_game, data)
        assert response.status_code == 422, amount
        assert "Montant hors limites" in text(response)
    assert snapshot(started_game) == before


def test_a_player_from_elsewhere_gets_403_and_changes_nothing(login, started_game, make_user):
    before = snapshot(started_game)
    client = login(make_user("eneko"))
    response = post(client, started_game, {"version": "0", "type": "mus"})
    assert response.status_code == 403
    assert "Vous n'êtes pas assis à cette table." in text(response)
    assert "data-card" not in text(response)
    page = client.get(reverse("games:table", args=[started_game.table_id]))
    assert page["Location"] == reverse("games:salle")
    assert snapshot(started_game) == before


def test_a_table_without_a_game_is_refused_too(login, ane, open_table):
    response = login(ane).post(reverse("games:act", args=[open_table.pk]), {"type": "mus"})
    assert response.status_code == 302  # no htmx: back to the table page, which sends to the salle
    response = login(ane).post(
        reverse("games:act", args=[open_table.pk]), {"version": "0", "type": "mus"}, headers=HTMX
    )
    assert response.status_code == 403


def test_a_cancelled_game_refuses_decisions_and_shows_its_end_screen(login, ane, started_game):
    play.game_finish(game=started_game, status="cancelled", reason="Abandon de dani.", by=None)
    before = snapshot(started_game)
    client = login(ane)
    response = post(client, started_game, {"version": "0", "type": "mus"})
    assert response.status_code == 422
    assert "La partie est terminée." in text(response)
    assert snapshot(started_game) == before
    # The table's address shows the partie's end (and its shuffle revealed), with the way back.
    page = client.get(reverse("games:table", args=[started_game.table_id]))
    assert page.status_code == 200
    assert "La partie a été annulée : Abandon de dani." in text(page)
    assert f'href="{reverse("games:salle")}"' in page.content.decode()


def play_through_views(login, cast, game, rng, *, actions, weights=None, on_post=None):
    clients = [login(user) for user in cast]
    for _ in range(actions):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        seat, action = next_move(game, rng, weights)
        data = form_data(game.version, action)
        send = functools.partial(post, clients[seat], game, data)
        response = on_post(send, game) if on_post else send()
        assert response.status_code == 200, text(response)
    game.refresh_from_db()
    return game


def test_a_finished_partie_shows_the_winner_and_refuses_decisions(login, cast, started_game):
    started_game = play_through_views(login, cast, started_game, SeededShuffler(3), actions=3000)
    assert started_game.status == "finished"
    content = (
        login(cast[0]).get(reverse("games:table", args=[started_game.table_id])).content.decode()
    )
    assert "Retour à la salle" in content and "Score final" in content
    before = snapshot(started_game)
    response = post(
        login(cast[0]), started_game, {"version": str(started_game.version), "type": "deal"}
    )
    assert response.status_code == 422
    assert "La partie est terminée." in text(response)
    assert snapshot(started_game) == before


@pytest.mark.django_db(transaction=True)
def test_sql_queries_per_decision_are_few_and_do_not_grow(login, cast, full_table):
    """Measured without the test's wrapping transaction (no savepoints), as in production
    (BEGIN and COMMIT not counted). The first decision: the session, the user, the game locked
    by its table (no query for the game's id first), its seats, the INSERT of the action and
    the UPDATE of the game in one statement: 5. Every later one finds the game it was made on
    in the process's cache (the previous decision's copy): the session, the user, one query
    that locks the row and checks the version and the seats' absences, the write: 4. The one that
    finishes the partie: the same three reads, then the UPDATE of the game, one INSERT of the
    action and the end row, the UPDATEs of the game's seats, of the table and of its seats, the
    revanche panel's look for an offer and the commitment its offer form shows (the actor's
    next table's, drawn: a SELECT and an INSERT), then the records
    (records.services.partie_rate): the four ratings created if new, locked, updated, and
    their four history rows in one INSERT, the four players' tallies in one upsert
    (records.services.partie_tally), who played with whom in one INSERT
    (records.services.partie_played_with), and the look for the teams' parejas
    (pairs.selectors.pairs_at; none here), and the tournaments' look for the partie's match
    (tournaments.services.partie_result; none here): 19."""
    game = start_game(full_table, first_mano=0)
    counts = []  # (hand number, queries, finished)

    def measured(send, game):
        with CaptureQueriesContext(connection) as queries:
            response = send()
        game.refresh_from_db()
        statements = [q for q in queries.captured_queries if q["sql"] not in CONTROL]
        counts.append((game.state["hand_number"], len(statements), game.status == "finished"))
        return response

    game = play_through_views(
        login, cast, game, SeededShuffler(5), actions=5000, weights=LONG_PLAY, on_post=measured
    )
    assert game.status == "finished" and game.state["hand_number"] >= 10
    ordinary = [n for _, n, finished in counts if not finished]
    finishing = [n for _, n, finished in counts if finished]
    print(f"\nSQL queries per decision: {sorted(set(ordinary))}, finishing one: {finishing}")
    assert ordinary == [5] + [4] * (len(ordinary) - 1)  # from the first hand to the last
    assert finishing == [19]
