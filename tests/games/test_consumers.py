"""The live salle over a real WebSocket stack (origin check, session auth, Redis channel layer)."""

import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import services
from musweb.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://testserver")


@database_sync_to_async
def session_cookie(user):
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def connect(user=None, *, origin=ORIGIN):
    headers = [origin] if origin else []
    if user is not None:
        headers.append(await session_cookie(user))
    communicator = WebsocketCommunicator(application, "/ws/salle/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def next_salle(communicator, timeout=2):
    return await communicator.receive_from(timeout=timeout)


async def test_anonymous_socket_is_refused():
    communicator, connected = await connect(None)
    assert not connected
    await communicator.disconnect()


async def test_socket_from_another_origin_is_refused(ane):
    communicator, connected = await connect(ane, origin=(b"origin", b"https://evil.example"))
    assert not connected
    await communicator.disconnect()


async def test_socket_without_origin_header_is_refused(ane):
    communicator, connected = await connect(ane, origin=None)
    assert not connected
    await communicator.disconnect()


async def test_connect_pushes_the_full_salle(ane):
    communicator, connected = await connect(ane)
    assert connected
    html = await next_salle(communicator)
    assert html.lstrip().startswith('<div id="salle"')
    assert "Ouvrir la table" in html
    await communicator.disconnect()


async def test_a_new_table_reaches_every_open_salle_within_a_second(ane, bixente, camille):
    watchers = []
    for user in (bixente, camille):
        communicator, connected = await connect(user)
        assert connected
        await next_salle(communicator)
        watchers.append(communicator)
    started = time.monotonic()
    table = await database_sync_to_async(services.table_create)(user=ane, kings=8)
    for communicator in watchers:
        html = await next_salle(communicator, timeout=1)
        assert f'id="table-{table.pk}"' in html
        assert "Mus · 8 rois" in html
        assert "S’asseoir" in html  # rendered for this watcher: free seats to take
    assert time.monotonic() - started < 1
    for communicator in watchers:
        await communicator.disconnect()


async def test_seat_taken_and_freed_are_pushed(ane, bixente, open_table):
    communicator, _ = await connect(ane)
    await next_salle(communicator)
    await database_sync_to_async(services.seat_take)(user=bixente, table_id=open_table.pk, number=3)
    assert '<span class="player">bixente</span>' in await next_salle(communicator)
    await database_sync_to_async(services.seat_leave)(user=bixente, table_id=open_table.pk)
    assert "bixente" not in await next_salle(communicator)
    await communicator.disconnect()


async def test_start_sends_seated_players_to_the_table_and_not_the_others(
    ane, bixente, full_table, make_user
):
    eneko = await database_sync_to_async(make_user)("eneko")
    seated, _ = await connect(bixente)
    watcher, _ = await connect(eneko)
    await next_salle(seated)
    await next_salle(watcher)
    await database_sync_to_async(services.table_start)(user=ane, table_id=full_table.pk)
    assert f'data-redirect="/tables/{full_table.pk}/"' in await next_salle(seated)
    html = await next_salle(watcher)
    assert "data-redirect" not in html
    assert "en jeu" in html
    await seated.disconnect()
    await watcher.disconnect()


async def test_a_refused_action_broadcasts_nothing(ane, bixente, open_table):
    communicator, _ = await connect(bixente)
    await next_salle(communicator)
    with pytest.raises(services.SalleError):
        await database_sync_to_async(services.table_start)(user=bixente, table_id=open_table.pk)
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
