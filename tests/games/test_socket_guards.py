"""What an attacker tried on the sockets, over the real stack (musweb.asgi.application, session
auth, the Redis channel layer): pages of another origin, many sockets of one account, junk and
oversized messages, handlers that fail, sockets of sessions that ended."""

import asyncio
import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.urls import reverse

from games import broadcast
from games.broadcast import SALLE_GROUP, game_group, user_group
from games.display import fragments
from games.live import consumers, socket_counts
from games.models import SeatConnection
from musweb.asgi import application
from tests.helpers import PASSWORD
from tests.sockets import ORIGIN, Communicator, cookie, logged_in, table_path

pytestmark = pytest.mark.django_db(transaction=True)
SITE = "http://127.0.0.1:8000"


@pytest.fixture
def site_origin(settings):
    settings.SITE_ORIGINS = [SITE]
    settings.CSRF_TRUSTED_ORIGINS = []
    return SITE


async def open_socket(path, *, client=None, origin=ORIGIN[1]):
    headers = [(b"origin", origin)] if origin is not None else []
    if client is not None:
        headers.append(cookie(client))
    communicator = Communicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def live_socket(path, client):
    """A connected socket whose first (full) render has been read; `.channel` is its channel
    name (its user's newest socket of its kind)."""
    communicator, connected = await open_socket(path, client=client)
    assert connected
    await communicator.receive_from(timeout=5)
    user_id = int(await database_sync_to_async(lambda: client.session["_auth_user_id"])())
    kind = "salle" if path.startswith("/ws/salle/") else "table"
    communicator.channel = (await listed(kind, user_id))[-1]
    return communicator


async def listed(kind, user_id):
    return await asyncio.to_thread(socket_counts.open_sockets, kind=kind, user_id=user_id)


async def closed_with(communicator, code, timeout=5):
    """The socket's next messages up to its close: the pushes before it, checked to end with
    a close of `code` and the consumer stopped (cleaned up) without the client's answer."""
    pushes = []
    while True:
        output = await communicator.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            assert output.get("code") == code, output
            await communicator.wait(timeout=timeout)
            return pushes
        pushes.append(output.get("text", ""))


def group_members(group: str) -> set[str]:
    return get_channel_layer().local_group_members(group)


@database_sync_to_async
def seat_connections(user) -> int:
    return SeatConnection.objects.filter(game_seat__user=user).count()


def no_traceback(caplog):
    logged = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not logged, [r.getMessage() for r in logged]


# ------------------------------------------------------------------------------------ origin


@pytest.mark.parametrize(
    "origin",
    [
        b"http://127.0.0.1:8001",  # another port of the same host: same site, cookie sent
        b"https://127.0.0.1:8000",  # another scheme
        b"http://127.0.0.1",  # port 80
        b"http://localhost:8000",  # another host
        b"http://127.0.0.1:8000.evil.example",
        b"http://127.0.0.1:99999",  # malformed
        b"http://[::1",
        b"null",
        b"",
    ],
)
async def test_a_page_of_another_origin_opens_neither_socket(
    site_origin, started_game, dani, origin, caplog
):
    client = await logged_in(dani)
    for path in ("/ws/salle/", table_path(started_game.table_id)):
        communicator, connected = await open_socket(path, client=client, origin=origin)
        assert not connected, (path, origin)
        await communicator.disconnect()
    no_traceback(caplog)


async def test_the_sites_own_origins_open_both_sockets(site_origin, settings, started_game, dani):
    settings.CSRF_TRUSTED_ORIGINS = ["https://barajamos.example"]
    client = await logged_in(dani)
    for origin in (SITE.encode(), b"HTTP://127.0.0.1:8000", b"https://barajamos.example:443"):
        for path in ("/ws/salle/", table_path(started_game.table_id)):
            communicator, connected = await open_socket(path, client=client, origin=origin)
            assert connected, (path, origin)
            await communicator.disconnect()


async def test_a_socket_without_origin_is_refused(site_origin, dani):
    client = await logged_in(dani)
    communicator, connected = await open_socket("/ws/salle/", client=client, origin=None)
    assert not connected


# ---------------------------------------------------------------------- sockets per user


async def test_past_the_limit_a_new_socket_closes_the_oldest_which_says_why(
    settings, started_game, dani, ane
):
    settings.SOCKETS_PER_USER = 3
    client = await logged_in(dani)
    salles = [await live_socket("/ws/salle/", client) for _ in range(3)]
    tables = [await live_socket(table_path(started_game.table_id), client) for _ in range(3)]
    assert await seat_connections(dani) == 3  # each kind is counted apart: nothing closed

    newest = await live_socket("/ws/salle/", client)
    [push] = await closed_with(salles[0], consumers.REPLACED_CLOSE_CODE)
    assert "Cette page a été ouverte ailleurs" in push
    assert 'data-redirect=""' in push  # the page stays: a reload would close the newer one
    assert salles[0].channel not in group_members(SALLE_GROUP)
    open_salles = await listed("salle", dani.pk)
    assert open_salles == [s.channel for s in (*salles[1:], newest)]

    tables.append(await live_socket(table_path(started_game.table_id), client))
    await closed_with(tables[0], consumers.REPLACED_CLOSE_CODE)
    assert await seat_connections(dani) == 3

    # The others are still live: a change of the salle reaches them.
    await database_sync_to_async(broadcast.salle_changed)()
    for communicator in (*salles[1:], newest):
        assert '<div id="salle"' in await communicator.receive_from(timeout=2)
    for communicator in (*salles[1:], newest, *tables[1:]):
        await communicator.disconnect()


async def test_page_requests_force_a_few_renders_per_second_per_user(
    settings, monkeypatch, bixente
):
    """Ten sockets asking for renders as fast as they can: the user gets at most
    SALLE_PAGE_RENDERS.count forced renders per second; the page asked is still noted."""
    settings.SOCKETS_PER_USER = 10
    monkeypatch.setattr(consumers, "PUSH_WINDOW", 0)
    renders = []
    render = fragments.salle_fragment

    def counted(user, *args, **kwargs):
        renders.append(kwargs)
        return render(user, *args, **kwargs)

    monkeypatch.setattr(fragments, "salle_fragment", counted)
    client = await logged_in(bixente)
    salles = [await live_socket("/ws/salle/", client) for _ in range(10)]
    renders.clear()
    for nav in range(1, 6):
        for communicator in salles:
            await communicator.send_to(json.dumps({"type": "salle.page", "page": 1, "nav": nav}))
            await asyncio.sleep(0.005)
    await asyncio.sleep(0.5)
    assert len(renders) <= 2 * consumers.SALLE_PAGE_RENDERS.count  # 50 without the limit
    for communicator in salles:  # drain what was pushed
        while not await communicator.receive_nothing(timeout=0.05):
            await communicator.receive_from()
    await database_sync_to_async(broadcast.salle_changed)()
    for communicator in salles:  # the next change renders with the page's last word
        assert 'data-nav="5"' in await communicator.receive_from(timeout=2)
        await communicator.disconnect()


# ----------------------------------------------------------------- junk and failed handlers


async def test_a_100_kb_nested_json_message_is_refused_and_everything_cleaned_up(
    started_game, dani, caplog
):
    client = await logged_in(dani)
    table = await live_socket(table_path(started_game.table_id), client)
    salle = await live_socket("/ws/salle/", client)
    channels = {table.channel, salle.channel}
    assert await seat_connections(dani) == 1
    nested = "[" * 50_000 + "]" * 50_000
    for communicator in (table, salle):
        await communicator.send_to(nested)
        await closed_with(communicator, consumers.TOO_BIG_CLOSE_CODE)
    assert await seat_connections(dani) == 0
    for group in (game_group(started_game.pk), user_group(dani.pk), SALLE_GROUP):
        assert not channels & group_members(group), group
    for kind in ("salle", "table"):
        assert not await listed(kind, dani.pk)
    no_traceback(caplog)


async def test_junk_under_the_size_limit_is_ignored_and_bytes_are_refused(
    started_game, dani, caplog
):
    client = await logged_in(dani)
    table = await live_socket(table_path(started_game.table_id), client)
    deep = "[" * 1000  # deeper than Python's recursion limit: RecursionError, not ValueError
    junk = [deep, '{"a":' * 150 + "1" + "}" * 150, "nonsense", "[]", "null", '{"type": 5}']
    for text in junk:
        assert len(text) <= consumers.MAX_MESSAGE_CHARS
        await table.send_to(text)
    assert await table.receive_nothing(timeout=0.3)
    await table.send_to(json.dumps({"type": "heartbeat"}))  # still working
    await table.send_to(bytes_data=b"\x00" * 10)
    await closed_with(table, consumers.UNSUPPORTED_CLOSE_CODE)
    assert await seat_connections(dani) == 0
    no_traceback(caplog)


async def test_a_handler_that_raises_still_cleans_up_and_closes(started_game, dani, monkeypatch):
    client = await logged_in(dani)
    table = await live_socket(table_path(started_game.table_id), client)
    channel = table.channel

    def broken(*args, **kwargs):
        raise RuntimeError("render failed")

    monkeypatch.setattr(fragments, "table_push", broken)
    await database_sync_to_async(broadcast.presence_changed)(started_game.pk)
    await closed_with(table, consumers.FAILED_CLOSE_CODE)  # the page reconnects after 1011
    assert await seat_connections(dani) == 0
    assert channel not in group_members(game_group(started_game.pk))
    assert channel not in group_members(user_group(dani.pk))
    assert not await listed("table", dani.pk)


async def test_a_huge_table_number_is_refused_quietly(dani, caplog):
    client = await logged_in(dani)
    communicator, connected = await open_socket(
        "/ws/tables/99999999999999999999999/", client=client
    )
    assert not connected
    no_traceback(caplog)


# --------------------------------------------------------------------------- ended sessions


@database_sync_to_async
def post(client, url, data=None):
    return client.post(url, data or {})


async def test_a_logout_closes_that_sessions_sockets_and_no_other(started_game, dani):
    here, elsewhere = await logged_in(dani), await logged_in(dani)
    table = await live_socket(table_path(started_game.table_id), here)
    salle = await live_socket("/ws/salle/", here)
    other = await live_socket(table_path(started_game.table_id), elsewhere)
    response = await post(here, reverse("accounts:logout"))
    assert response.status_code == 302
    for communicator, page in ((table, f"/tables/{started_game.table_id}/"), (salle, "/salle/")):
        [push] = await closed_with(communicator, consumers.SESSION_ENDED_CLOSE_CODE)
        assert "Votre session a pris fin." in push
        assert f'data-redirect="{page}"' in push  # the page reloads, then goes to log in
    assert await other.receive_nothing(timeout=0.5)
    assert await seat_connections(dani) == 1
    await other.disconnect()


async def test_a_password_changed_elsewhere_closes_the_other_sessions_sockets(started_game, dani):
    here, elsewhere = await logged_in(dani), await logged_in(dani)
    table = await live_socket(table_path(started_game.table_id), here)
    salle = await live_socket("/ws/salle/", here)
    new_password = "Zortziko-berria-2026"
    response = await post(
        elsewhere,
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    for communicator in (table, salle):  # the password hasher is slow on a busy machine
        [push] = await closed_with(communicator, consumers.SESSION_ENDED_CLOSE_CODE, timeout=15)
        assert "Votre session a pris fin." in push
    assert await seat_connections(dani) == 0
    again, connected = await open_socket(table_path(started_game.table_id), client=here)
    assert not connected  # the old session no longer authenticates


async def test_a_deactivated_account_loses_its_sockets(started_game, dani):
    table = await live_socket(table_path(started_game.table_id), await logged_in(dani))
    dani.is_active = False
    await database_sync_to_async(dani.save)()
    await closed_with(table, consumers.SESSION_ENDED_CLOSE_CODE)


async def test_a_new_login_or_a_session_still_valid_keeps_the_sockets(started_game, dani):
    table = await live_socket(table_path(started_game.table_id), await logged_in(dani))
    await logged_in(dani)  # another device logs in: last_login is saved
    await database_sync_to_async(broadcast.sessions_changed)(dani.pk)  # a check: still valid
    assert await table.receive_nothing(timeout=0.5)
    await table.disconnect()
