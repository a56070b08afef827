"""A ban racing the banned user's own salle requests, with real concurrent transactions."""

import threading
import time
from unittest import mock

import pytest
from django.db import connection

from games import broadcast
from games.models import Seat, Table
from games.services import errors, salle
from moderation import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_seat_taken_while_the_ban_comes_in_is_freed_by_the_ban(bixente, maite, open_table):
    """bixente's seat request holds his row and has written the seat, not committed yet, when
    the ban arrives: the ban waits, then finds the seat and frees it."""
    written, release = threading.Event(), threading.Event()
    salle_changed = broadcast.salle_changed

    def pause_before_commit(*args, **kwargs):
        if threading.current_thread().name == "seat-request":
            written.set()
            release.wait(timeout=10)
        return salle_changed(*args, **kwargs)

    outcome = {}

    def run(name, call):
        try:
            outcome[name] = call()
        except Exception as error:  # noqa: BLE001 - the test inspects it
            outcome[name] = error
        finally:
            connection.close()

    take = lambda: salle.seat_take(user=bixente, table_id=open_table.pk, number=1)  # noqa: E731
    ban = lambda: services.user_ban(user=bixente, by=maite, reason="Triche")  # noqa: E731
    with mock.patch.object(broadcast, "salle_changed", pause_before_commit):
        seat_request = threading.Thread(target=run, args=("take", take), name="seat-request")
        seat_request.start()
        assert written.wait(timeout=10)
        banning = threading.Thread(target=run, args=("ban", ban))
        banning.start()
        wait_for_a_lock_wait()  # the ban is now waiting for bixente's row
        release.set()
        seat_request.join(timeout=10)
        banning.join(timeout=10)
    assert isinstance(outcome["take"], Seat), outcome
    assert not isinstance(outcome["ban"], Exception), outcome
    assert not Seat.objects.filter(user=bixente, active=True).exists()
    assert list(open_table.seats.values_list("user__username", flat=True)) == ["ane"]


def test_after_the_ban_the_users_salle_requests_are_refused(ane, bixente, maite, open_table):
    services.user_ban(user=bixente, by=maite, reason="Triche")
    for call in (
        lambda: salle.seat_take(user=bixente, table_id=open_table.pk, number=1),
        lambda: salle.table_create(user=bixente, kings=Table.Kings.FOUR),
    ):
        with pytest.raises(errors.SalleError, match="Votre compte est suspendu."):
            call()
    assert not Seat.objects.filter(user=bixente).exists()


def wait_for_a_lock_wait(timeout: float = 10.0) -> None:
    """Until a session of the test database waits for a row lock (the ban, behind the seat)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.02)
    raise AssertionError("nobody waited for the row lock")
