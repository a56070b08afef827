"""Playing with friends over the real socket stack and a real Celery worker: the revanche's
answers pushed to the four, its start sending every page to the new table, its lapse on time
by the task; who is online."""

import asyncio
import html
import re
import time

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from games.live import socket_counts
from games.models import Revanche, Table
from games.services import revanche, salle
from tests import processes
from tests.games.friends import finish_game
from tests.games.helpers import start_game
from tests.sockets import connect, connect_table, logged_in, next_push

pytestmark = pytest.mark.django_db(transaction=True)

#: The revanche's seconds in the worker's test (120 on the site).
SHORT_REVANCHE = 2


@database_sync_to_async
def finished_cast_game(cast):
    table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    return finish_game(start_game(table), cast)


async def test_answers_are_pushed_to_all_and_the_start_sends_everyone_to_the_new_table(cast):
    game = await finished_cast_game(cast)
    pages = [(await connect_table(user, game.table_id))[0] for user in cast]
    for page in pages:
        await page.receive_from(timeout=5)
    offer = database_sync_to_async(revanche.revanche_offer)
    answer = database_sync_to_async(revanche.revanche_answer)
    await offer(user=cast[0], table_id=game.table_id)
    for page in pages:
        await next_push(page, lambda p: "ane propose une revanche" in p, timeout=3)
    await answer(user=cast[1], table_id=game.table_id, accept=True)
    for page in pages:
        pushed = await next_push(page, lambda p: 'data-revanche-answer="yes"' in p, timeout=3)
        assert pushed.count('data-revanche-answer="yes"') == 2
    await answer(user=cast[2], table_id=game.table_id, accept=True)
    await answer(user=cast[3], table_id=game.table_id, accept=True)
    made = await database_sync_to_async(Revanche.objects.get)(game=game)
    for page in pages:
        pushed = await next_push(page, lambda p: "data-redirect" in p, timeout=3)
        assert f'data-redirect="/tables/{made.table_id}/"' in pushed
        assert "La revanche commence !" in pushed
        await page.disconnect()


async def test_a_salle_socket_opened_after_the_start_still_sends_the_page_to_the_table(
    full_table, cast
):
    """The page shows dani seated at the waiting table; the host starts it before the page's
    socket has joined the salle's group (a busy machine), so the start's push never reaches
    it: the socket's first render redirects all the same, since the page showed it waiting."""
    dani = cast[3]
    client = await logged_in(dani)
    page = (await database_sync_to_async(client.get)(reverse("games:salle"))).content.decode()
    path = html.unescape(re.search(r'ws-connect="([^"]+)"', page).group(1))
    assert path == f"/ws/salle/?waiting={full_table.pk}"
    await database_sync_to_async(start_game)(full_table)
    late, connected = await connect(dani, path=path)
    assert connected
    first = await late.receive_from(timeout=10)
    assert f'data-redirect="/tables/{full_table.pk}/"' in first
    # a salle page opened once the partie runs (the player came to look) stays there
    other, _ = await connect(dani)
    assert "data-redirect" not in await other.receive_from(timeout=10)
    await late.disconnect()
    await other.disconnect()


async def test_a_decline_is_told_to_the_others(cast):
    game = await finished_cast_game(cast)
    page, _ = await connect_table(cast[0], game.table_id)
    await page.receive_from(timeout=5)
    await database_sync_to_async(revanche.revanche_offer)(user=cast[0], table_id=game.table_id)
    await database_sync_to_async(revanche.revanche_answer)(
        user=cast[2], table_id=game.table_id, accept=False
    )
    pushed = await next_push(page, lambda p: "Pas de revanche" in p, timeout=3)
    assert "camille a décliné la revanche." in html.unescape(pushed)
    await page.disconnect()


async def test_online_counts_open_sockets_and_forgets_closed_ones(cast):
    base = await database_sync_to_async(socket_counts.online_count)()
    first, _ = await connect(cast[0])
    second, _ = await connect(cast[1])
    await first.receive_from(timeout=5)
    await second.receive_from(timeout=5)
    assert await database_sync_to_async(socket_counts.online_count)() == base + 2
    await second.disconnect()
    assert await database_sync_to_async(socket_counts.online_count)() == base + 1
    await first.disconnect()


async def test_heartbeats_keep_a_player_online_and_a_closed_socket_does_not_come_back(
    cast, settings
):
    """A heartbeat is written with the process's others at the next flush (0.2 s in the
    tests); a socket that closes before its heartbeat is written is not counted online again."""
    aged = time.time() - settings.HEARTBEAT_LIMIT_SECONDS - 1
    page, _ = await connect(cast[0])
    await page.receive_from(timeout=5)

    async def online() -> set[int]:
        members = await database_sync_to_async(socket_counts.client().zrangebyscore)(
            socket_counts._online_key(), time.time() - settings.HEARTBEAT_LIMIT_SECONDS, "+inf"
        )
        return {int(member) for member in members}

    await database_sync_to_async(socket_counts.user_seen)(cast[0].pk, now=aged)
    assert cast[0].pk not in await online()
    await page.send_to(text_data='{"type": "heartbeat"}')
    deadline = time.monotonic() + 3
    while cast[0].pk not in await online() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert cast[0].pk in await online()

    await page.send_to(text_data='{"type": "heartbeat"}')
    await page.disconnect()
    await asyncio.sleep(3 * settings.HEARTBEAT_FLUSH_SECONDS)
    assert cast[0].pk not in await online()


def test_a_silent_player_is_no_longer_counted_online(settings):
    now = time.time()
    base = socket_counts.online_count(now=now)  # players of earlier tests' sockets still counted
    socket_counts.user_seen(424242, now=now - settings.HEARTBEAT_LIMIT_SECONDS - 1)
    socket_counts.user_seen(434343, now=now)
    assert socket_counts.online_count(now=now) == base + 1


@pytest.fixture(scope="module")
def revanche_worker(django_db_setup):
    env = processes.server_env(REVANCHE_SECONDS=SHORT_REVANCHE, SWEEP_SECONDS=60)
    with processes.celery_running(env) as stack:
        yield stack


def test_the_worker_lapses_an_unanswered_offer_on_time(revanche_worker, cast, settings):
    """The task due at the expiry does it (the sweep runs only every minute here)."""
    settings.REVANCHE_SECONDS = SHORT_REVANCHE
    table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    game = finish_game(start_game(table), cast)
    made = revanche.revanche_offer(user=cast[0], table_id=game.table_id)
    deadline = time.monotonic() + SHORT_REVANCHE + 8
    while time.monotonic() < deadline:
        made.refresh_from_db()
        if made.status == Revanche.Status.LAPSED:
            break
        time.sleep(0.2)
    assert made.status == Revanche.Status.LAPSED, revanche_worker.worker_output()[-2000:]
    late = (timezone.now() - made.expires_at).total_seconds()
    print(f"\nrevanche lapsed {late:.2f} s after its expiry")
    assert made.reason == {"code": "expired"} and "expiré" in made.reason_text
