"""Decisions sent up the player's open table socket (static/js/table.js): the same path as the
POST (games.decisions), over the real stack: the same guards, the same French refusals, never a
500 or a closed socket; the actor's answer is its own render of the new version, and the
"game.changed" that follows is not rendered for it a second time."""

import html
import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games import vocabulary
from games.engine import SeededShuffler
from games.forms import MESSAGE_MALFORMED, MESSAGE_UNKNOWN
from games.models import Game, GameAction
from tests.games.helpers import HTMX, LONG_PLAY, allowed_cards, form_data, leaked_cards, next_move
from tests.sockets import decide, logged_in, opened, receive_version, without_clocks

pytestmark = pytest.mark.django_db(transaction=True)

CSRF_INPUT = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


@database_sync_to_async
def fresh(game):
    game.refresh_from_db()
    return game


@database_sync_to_async
def actions_logged(game):
    return GameAction.objects.filter(game=game, kind=GameAction.Kind.PLAY).count()


async def test_a_decision_up_the_socket_is_applied_and_pushed_once(started_game, ane, bixente):
    mine, theirs = await opened(ane, started_game), await opened(bixente, started_game)
    await mine.send_to(text_data=decide({"version": "0", "type": "mus"}))
    answer = html.unescape(await mine.receive_from(timeout=5))
    assert 'data-version="1"' in answer and "ane : Mus" in answer
    assert leaked_cards(answer, set(started_game.state["hand"]["cards"][0])) == set()
    pushed = html.unescape(await receive_version(theirs, 1))
    assert "ane : Mus" in pushed
    assert await mine.receive_nothing(timeout=0.5)  # the push of version 1: already shown
    assert (await fresh(started_game)).version == 1
    assert await actions_logged(started_game) == 1
    await mine.disconnect()
    await theirs.disconnect()


async def test_the_socket_answers_as_the_post_does(started_game, ane):
    """The same refused decision, up the socket and POSTed with htmx: the same regions, the
    same French message (the POST's forms carry a CSRF token, the socket's need none)."""
    socket = await opened(ane, started_game)
    stale = {"version": "5", "type": "mus"}
    await socket.send_to(text_data=decide(stale))
    over_socket = await socket.receive_from(timeout=5)
    client = await logged_in(ane)
    url = reverse("games:act", args=[started_game.table_id])
    posted = await database_sync_to_async(client.post)(url, stale, headers=HTMX)
    assert posted.status_code == 409
    assert str(vocabulary.STALE_VERSION) in html.unescape(over_socket)
    assert comparable(posted.content.decode()) == comparable(over_socket)
    await socket.disconnect()


def comparable(payload: str) -> str:
    return CSRF_INPUT.sub("", without_clocks(payload))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"version": "7", "type": "mus"}, vocabulary.STALE_VERSION),
        ({"version": "zéro", "type": "mus"}, MESSAGE_MALFORMED),
        ({"version": "0", "type": "abracadabra"}, MESSAGE_UNKNOWN),
        ({"version": ["0", {"x": 1}], "type": "mus"}, MESSAGE_MALFORMED),
        (None, MESSAGE_MALFORMED),
    ],
)
async def test_a_refused_decision_answers_in_french_and_changes_nothing(
    started_game, ane, bixente, fields, message
):
    mine, theirs = await opened(ane, started_game), await opened(bixente, started_game)
    await mine.send_to(text_data=decide(fields))
    answer = html.unescape(await mine.receive_from(timeout=5))
    assert str(message) in answer and 'data-version="0"' in answer
    assert await theirs.receive_nothing(timeout=0.3)
    assert (await fresh(started_game)).version == 0
    await mine.send_to(text_data=decide({"version": "0", "type": "mus"}))  # still open
    assert 'data-version="1"' in await mine.receive_from(timeout=5)
    await mine.disconnect()
    await theirs.disconnect()


async def test_out_of_turn_is_refused_with_the_engines_message(started_game, bixente):
    socket = await opened(bixente, started_game)
    await socket.send_to(text_data=decide({"version": "0", "type": "mus"}))
    answer = html.unescape(await socket.receive_from(timeout=5))
    assert 'data-version="0"' in answer and "tpanel" in answer
    assert (await fresh(started_game)).version == 0
    await socket.disconnect()


async def test_random_play_over_the_sockets_discards_included(started_game, cast):
    """Every kind of decision the forms send (the discard's list of cards too) goes through
    the socket; each is answered with the next version, and nobody sees another's cards."""
    sockets = [await opened(user, started_game) for user in cast]
    rng, game, kinds, kinds_seen = SeededShuffler(3), started_game, set(), []
    for _ in range(40):
        seat, action = next_move(game, rng, LONG_PLAY)
        kinds.add(action["type"])
        await sockets[seat].send_to(text_data=decide(form_data(game.version, action)))
        answer = html.unescape(await sockets[seat].receive_from(timeout=5))
        game = await fresh(game)
        assert f'data-version="{game.version}"' in answer and game.version == len(kinds_seen) + 1
        kinds_seen.append(action["type"])
        assert leaked_cards(answer, allowed_cards(game.state, seat)) == set()
        for other, communicator in enumerate(sockets):
            if other != seat:
                await receive_version(communicator, game.version)
        if game.status != Game.Status.PLAYING:
            break
    assert "discard" in kinds
    for communicator in sockets:
        await communicator.disconnect()


async def test_the_post_still_works_without_javascript(started_game, ane):
    client = await logged_in(ane)
    url = reverse("games:act", args=[started_game.table_id])
    response = await database_sync_to_async(client.post)(url, {"version": "0", "type": "mus"})
    assert response.status_code == 302
    stale = await database_sync_to_async(client.post)(url, {"version": "0", "type": "mus"})
    assert stale.status_code == 302
    assert (await fresh(started_game)).version == 1
    htmx = await database_sync_to_async(client.post)(
        url, {"version": "0", "type": "mus"}, headers=HTMX
    )
    assert htmx.status_code == 409
    assert str(vocabulary.STALE_VERSION) in html.unescape(htmx.content.decode())


async def test_the_three_pushes_of_a_decision_render_in_one_call(started_game, cast, monkeypatch):
    """games.live.push_fanout: one message reaches this process, and the three other sockets of the
    game are rendered together (the game taken from the cache the decision filled); the
    actor's socket, answered by its decision, renders nothing more."""
    from games.display import fragments

    calls = []
    table_pushes = fragments.table_pushes

    def counted(game_id, users, *, min_version):
        calls.append(sorted(user.username for user, _language in users))
        return table_pushes(game_id, users, min_version=min_version)

    monkeypatch.setattr(fragments, "table_pushes", counted)
    sockets = [await opened(user, started_game) for user in cast]
    await sockets[0].send_to(text_data=decide({"version": "0", "type": "mus"}))
    for communicator in sockets:
        await receive_version(communicator, 1)
    assert calls == [["bixente", "camille", "dani"]]
    for communicator in sockets:
        await communicator.disconnect()
