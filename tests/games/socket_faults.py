"""Socket tests that fail on purpose, run only by tests/games/test_socket_release.py in a
pytest of its own (the name does not match test_*.py, so the suite never collects it): each
fails while the renders of a decision are in flight over four open sockets, leaving them open,
and the tests after them must pass with nothing held in the process's connection pool."""

import pytest
from django.db import connection

from tests.sockets import decide, held_connections, opened, receive_version

pytestmark = pytest.mark.django_db(transaction=True)


async def four_sockets(game, cast):
    return [await opened(user, game) for user in cast]


@pytest.mark.parametrize("attempt", range(3))
async def test_fails_with_renders_in_flight(started_game, cast, attempt):
    sockets = await four_sockets(started_game, cast)
    await sockets[0].send_to(text_data=decide({"version": "0", "type": "mus"}))
    raise AssertionError("a socket test fails with its four sockets open")


@pytest.mark.parametrize("attempt", range(3))
async def test_times_out_with_renders_in_flight(started_game, cast, attempt):
    sockets = await four_sockets(started_game, cast)
    await sockets[0].send_to(text_data=decide({"version": "0", "type": "mus"}))
    await sockets[1].receive_from(timeout=0.001)  # TimeoutError, mid-render


async def test_a_later_socket_test_passes(started_game, cast):
    sockets = await four_sockets(started_game, cast)
    for version, actor in enumerate(sockets[:3]):
        await actor.send_to(text_data=decide({"version": str(version), "type": "mus"}))
        for communicator in sockets:
            await receive_version(communicator, version + 1, timeout=10)
    for communicator in sockets:
        await communicator.disconnect()


def test_nothing_is_held_in_the_pool(db):
    """Every connection but this thread's own is back in the pool (psycopg's stats)."""
    connection.ensure_connection()
    assert held_connections() == 1, connection.pool.get_stats()
