"""Moderation over the real WebSocket stack (musweb.asgi.application: origin check, session
auth, Redis channel layer): a ban closes the user's sockets and refuses new ones; a cancelled
partie reaches the players' open tables at once, with the reason."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils.html import escape

from games.models import Game
from moderation import services
from moderation.models import UserSession
from musweb.asgi import application
from tests.games.helpers import start_game
from tests.moderation.helpers import ban_via_admin, run_action
from tests.sockets import ORIGIN, Communicator, logged_in, rendered_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
KICKED = 4003


async def open_socket(path, cookie):
    communicator = Communicator(application, path, headers=[ORIGIN, cookie])
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def test_a_banned_user_cannot_open_a_socket_with_an_old_session(bixente, maite):
    cookie = await session_cookie(bixente)
    await database_sync_to_async(services.user_ban)(user=bixente, by=maite, reason="Spam")
    communicator, connected = await open_socket("/ws/salle/", cookie)
    assert not connected
    await communicator.disconnect()


async def test_a_session_the_index_missed_is_refused_after_ban_and_unban(bixente, maite):
    """The socket side of session_epoch: Channels checks the session auth hash too."""
    cookie = await session_cookie(bixente)
    await database_sync_to_async(UserSession.objects.all().delete)()  # e.g. a cycled key
    await database_sync_to_async(services.user_ban)(user=bixente, by=maite, reason="Spam")
    await database_sync_to_async(services.user_unban)(user=bixente, by=maite, reason="Erreur")
    communicator, connected = await open_socket("/ws/salle/", cookie)
    assert not connected
    await communicator.disconnect()


async def test_an_inactive_user_with_a_surviving_session_is_refused_too(bixente):
    """Verified, not assumed: Channels' AuthMiddlewareStack goes through ModelBackend.get_user,
    which refuses an inactive user even if the session row is still there."""
    cookie = await session_cookie(bixente)
    users = get_user_model().objects.filter(pk=bixente.pk)
    await database_sync_to_async(users.update)(is_active=False)
    communicator, connected = await open_socket("/ws/salle/", cookie)
    assert not connected
    await communicator.disconnect()


async def test_ban_closes_every_open_socket_of_the_user(bixente, camille, maite):
    phone = await rendered_socket("/ws/salle/", bixente)
    laptop = await rendered_socket("/ws/salle/", bixente)
    other = await rendered_socket("/ws/salle/", camille)
    client = await logged_in(maite)
    await database_sync_to_async(ban_via_admin)(client, bixente, "Insultes")
    for socket in (phone, laptop):
        html = await socket.receive_from(timeout=2)
        assert 'data-redirect="/comptes/connexion/?motif=suspension"' in html
        assert "Insultes" in html
        assert await socket.receive_output(timeout=2) == {"type": "websocket.close", "code": KICKED}
    assert await other.receive_nothing(timeout=0.3)  # camille keeps her socket
    await other.disconnect()


async def test_ban_during_a_partie_cancels_it_and_tells_the_others_why(
    cast, full_table, maite, bixente
):
    game = await database_sync_to_async(start_game)(full_table, first_mano=0)
    path = f"/ws/tables/{full_table.pk}/"
    others = [await rendered_socket(path, user) for user in cast if user != bixente]
    banned = await rendered_socket(path, bixente)
    client = await logged_in(maite)
    await database_sync_to_async(ban_via_admin)(client, bixente, "Triche avec un complice")

    for socket in others:
        # The ban closes bixente's sockets before the partie is cancelled (user_ban's two
        # steps): his seat's absence may be pushed first (failed once in CI).
        html = await socket.receive_from(timeout=2)
        while "data-redirect" not in html:
            html = await socket.receive_from(timeout=2)
        assert f'data-redirect="/tables/{full_table.pk}/"' in html
        assert "La partie a été annulée" in html
        assert escape("bixente a été exclu par la modération (Triche avec un complice)") in html
        await socket.disconnect()
    outputs = [await banned.receive_output(timeout=2)]
    while outputs[-1]["type"] != "websocket.close" and len(outputs) < 3:
        outputs.append(await banned.receive_output(timeout=2))
    assert "Triche avec un complice" in outputs[0]["text"]  # told why, first
    assert outputs[-1] == {"type": "websocket.close", "code": KICKED}
    await database_sync_to_async(game.refresh_from_db)()  # closes its connection after
    assert game.status == Game.Status.CANCELLED


async def test_cancel_from_the_admin_reaches_every_connected_player_at_once(
    cast, full_table, mikel
):
    game = await database_sync_to_async(start_game)(full_table, first_mano=3)
    path = f"/ws/tables/{full_table.pk}/"
    sockets = [await rendered_socket(path, user) for user in cast]
    client = await logged_in(mikel)
    response = await database_sync_to_async(run_action)(
        client, "admin:games_game_changelist", "cancel_games", game.pk, "Partie truquée"
    )
    assert response.status_code == 302
    for socket in sockets:
        html = await socket.receive_from(timeout=10)
        assert f'data-redirect="/tables/{full_table.pk}/"' in html
        assert "La partie a été annulée" in html
        assert "Partie truquée" in html
        await socket.disconnect()
