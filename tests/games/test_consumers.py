"""The live salle over a real WebSocket stack (origin check, session auth, Redis channel layer)."""

import asyncio
import json
import re
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.broadcast import SALLE_GROUP
from games.display import fragments
from games.live import consumers
from games.models import Seat, Table
from games.selectors import SALLE_PAGE_SIZE
from games.services import errors, salle
from tests.sockets import connect

pytestmark = pytest.mark.django_db(transaction=True)


async def next_salle(communicator, timeout=10):
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
    table = await database_sync_to_async(salle.table_create)(user=ane, kings=8)
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
    await database_sync_to_async(salle.seat_take)(user=bixente, table_id=open_table.pk, number=3)
    assert '<span class="player">bixente</span>' in await next_salle(communicator)
    await database_sync_to_async(salle.seat_leave)(user=bixente, table_id=open_table.pk)
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
    await database_sync_to_async(salle.table_start)(user=ane, table_id=full_table.pk)
    assert f'data-redirect="/tables/{full_table.pk}/"' in await next_salle(seated)
    html = await next_salle(watcher)
    assert "data-redirect" not in html
    assert f'id="table-{full_table.pk}"' not in html  # in play: counted, not listed
    assert "1 partie en cours" in html
    await seated.disconnect()
    await watcher.disconnect()


async def test_a_refused_action_broadcasts_nothing(ane, bixente, open_table):
    communicator, _ = await connect(bixente)
    await next_salle(communicator)
    with pytest.raises(errors.SalleError):
        await database_sync_to_async(salle.table_start)(user=bixente, table_id=open_table.pk)
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


# ---------------------------------------------------------------- pages and coalesced pushes


@database_sync_to_async
def open_tables(count, prefix="host"):
    """`count` open tables, each with its host at seat 0, made in bulk; newest first."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    hosts = User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!") for i in range(count)]
    )
    tables = Table.objects.bulk_create([Table(host=host, kings=4) for host in hosts])
    Seat.objects.bulk_create([Seat(table=t, user=t.host, number=0) for t in tables])
    return [t.pk for t in reversed(tables)]


def listed(html):
    return [int(pk) for pk in re.findall(r'<li class="table-card[^"]*" id="table-(\d+)"', html)]


async def all_pushes(communicator, quiet=0.6):
    """Every push until the socket has been quiet for `quiet` seconds."""
    pushes = []
    while not await communicator.receive_nothing(timeout=quiet):
        pushes.append(await communicator.receive_from())
    return pushes


async def salle_changed(**event):
    await get_channel_layer().group_send(SALLE_GROUP, {"type": "salle.changed", **event})


def count_renders(monkeypatch):
    calls = []
    render = fragments.salle_fragment

    def counted(user, *args, **kwargs):
        calls.append(kwargs)
        return render(user, *args, **kwargs)

    monkeypatch.setattr(fragments, "salle_fragment", counted)
    return calls


async def test_the_socket_pushes_the_page_of_its_address(bixente):
    tables = await open_tables(SALLE_PAGE_SIZE + 2)
    communicator, connected = await connect(bixente, path="/ws/salle/?page=2")
    assert connected
    html = await next_salle(communicator)
    assert 'data-page="2"' in html
    assert listed(html) == tables[SALLE_PAGE_SIZE:]
    await communicator.disconnect()


async def test_the_page_tells_the_socket_which_page_it_shows(bixente):
    tables = await open_tables(SALLE_PAGE_SIZE + 2)
    communicator, _ = await connect(bixente)
    assert listed(await next_salle(communicator)) == tables[:SALLE_PAGE_SIZE]
    await communicator.send_to(json.dumps({"type": "salle.page", "page": 2, "nav": 1}))
    html = await next_salle(communicator)
    assert 'data-page="2" data-pushed="1" data-nav="1"' in html
    assert listed(html) == tables[SALLE_PAGE_SIZE:]
    await salle_changed()  # later pushes refresh page 2 too
    assert 'data-page="2"' in await next_salle(communicator)
    await communicator.disconnect()


async def test_a_page_that_empties_falls_back_to_the_last_one(bixente):
    tables = await open_tables(SALLE_PAGE_SIZE + 1)
    communicator, _ = await connect(bixente, path="/ws/salle/?page=2")
    assert listed(await next_salle(communicator)) == tables[SALLE_PAGE_SIZE:]
    await database_sync_to_async(Table.objects.filter(pk=tables[-1]).update)(status="closed")
    await salle_changed()
    assert 'data-page="1"' in await next_salle(communicator)
    await open_tables(SALLE_PAGE_SIZE, prefix="later")
    await salle_changed()  # page 2 is back, but the player looks at page 1
    assert 'data-page="1"' in await next_salle(communicator)
    await communicator.disconnect()


async def test_a_burst_of_changes_is_rendered_once_or_twice_with_the_last_change(
    bixente, monkeypatch
):
    renders = count_renders(monkeypatch)
    communicator, _ = await connect(bixente)
    await next_salle(communicator)
    tables = await open_tables(10)
    for _ in range(10):
        await salle_changed()
    pushes = await all_pushes(communicator)
    assert 1 <= len(pushes) <= 2
    assert listed(pushes[-1]) == tables  # the last push shows every change
    assert len(renders) == 1 + len(pushes)
    await communicator.disconnect()


async def test_a_change_during_the_window_is_pushed_at_its_end(bixente, monkeypatch):
    monkeypatch.setattr(consumers, "PUSH_WINDOW", 0.5)
    communicator, _ = await connect(bixente)
    await next_salle(communicator)  # the window after this render is open
    started = time.monotonic()
    tables = await open_tables(1)
    await salle_changed()
    assert listed(await next_salle(communicator)) == tables
    assert time.monotonic() - started < 1
    assert await communicator.receive_nothing(timeout=0.7)
    await communicator.disconnect()


async def test_a_coalesced_start_still_sends_its_seated_players_to_the_table(
    ane, bixente, full_table, make_user, monkeypatch
):
    # a window long enough for the four changes to come within it on a busy machine
    monkeypatch.setattr(consumers, "PUSH_WINDOW", 3)
    eneko = await database_sync_to_async(make_user)("eneko")
    seated, _ = await connect(bixente)
    watcher, _ = await connect(eneko)
    await next_salle(seated)
    await next_salle(watcher)
    await salle_changed()
    await database_sync_to_async(salle.table_start)(user=ane, table_id=full_table.pk)
    await salle_changed()
    await salle_changed()
    pushes = await all_pushes(seated, quiet=4)
    assert len(pushes) == 1  # the four changes, rendered once at the window's end
    assert f'data-redirect="/tables/{full_table.pk}/"' in pushes[0]
    assert all("data-redirect" not in html for html in await all_pushes(watcher, quiet=4))
    await seated.disconnect()
    await watcher.disconnect()


async def test_anything_but_a_page_or_a_heartbeat_is_ignored(bixente):
    communicator, _ = await connect(bixente)
    await next_salle(communicator)
    for junk in ("nonsense", "[]", '{"type": "salle.page"', json.dumps({"type": "other"})):
        await communicator.send_to(junk)
    assert await communicator.receive_nothing(timeout=0.4)
    await communicator.send_to(json.dumps({"type": "salle.page", "page": "x", "nav": "y"}))
    assert 'data-page="1" data-pushed="1" data-nav="0"' in await next_salle(communicator)
    await communicator.disconnect()


async def test_salle_heartbeats_keep_the_players_open_tables_watched_at_the_next_flush(
    open_table, ane, bixente
):
    """Three sockets' heartbeats reach the database together at the next flush (0.2 s here)."""
    await database_sync_to_async(salle.seat_take)(user=bixente, table_id=open_table.pk, number=1)
    sockets = []
    for user in (ane, bixente, ane):
        communicator, _ = await connect(user)
        await next_salle(communicator)
        sockets.append(communicator)
    long_ago = timezone.now() - timedelta(minutes=11)
    update = Table.objects.filter(pk=open_table.pk).update
    await database_sync_to_async(update)(last_seen=long_ago)
    for communicator in sockets:
        await communicator.send_to(json.dumps({"type": "heartbeat"}))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the next flush, however late it comes
        table = await database_sync_to_async(Table.objects.get)(pk=open_table.pk)
        if table.last_seen > long_ago + timedelta(minutes=10):
            break
        await asyncio.sleep(0.05)
    assert table.last_seen > long_ago + timedelta(minutes=10)
    for communicator in sockets:
        await communicator.disconnect()
