"""The suite's own footing: a transactional test's flush that PostgreSQL ends as a deadlock,
with a process still working on the test database (a module's worker, a server), is tried
again (tests/conftest.py, flush_again_after_a_deadlock)."""

import re
import threading
import time

import psycopg
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection
from django.test import TransactionTestCase

from tests.processes import database_url


def flushed_tables() -> list[str]:
    """The tables of the flush's TRUNCATE, in the order it locks them."""
    (truncate,) = sql_flush(no_style(), connection)
    return re.findall(r'"(\w+)"', truncate)


def waiting_on(other: psycopg.Connection, table: str) -> bool:
    row = other.execute(
        "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass",
        [f'"{table}"'],
    ).fetchone()
    return bool(row and row[0])


def test_a_flush_that_deadlocks_with_another_session_is_tried_again(
    transactional_db, ane, monkeypatch
):
    tables = flushed_tables()
    first, last = tables[0], tables[-1]
    url = database_url(connection.settings_dict)
    attempts = []
    flush = type(connection.ops).execute_sql_flush

    def counted(self, sql_list):
        attempts.append(len(attempts) + 1)
        return flush(self, sql_list)

    monkeypatch.setattr(type(connection.ops), "execute_sql_flush", counted)

    with psycopg.connect(url) as other, psycopg.connect(url, autocommit=True) as watcher:
        other.execute("SET deadlock_timeout = '30s'")  # the flush is the one to find the cycle
        other.execute(f'LOCK TABLE "{last}" IN ROW EXCLUSIVE MODE')

        def close_the_cycle():
            deadline = time.monotonic() + 30
            while not waiting_on(watcher, last) and time.monotonic() < deadline:
                time.sleep(0.02)
            try:
                other.execute(f'LOCK TABLE "{first}" IN ROW EXCLUSIVE MODE')
            finally:
                other.rollback()

        thread = threading.Thread(target=close_the_cycle)
        thread.start()
        try:
            TransactionTestCase()._fixture_teardown()
        finally:
            thread.join(timeout=30)

    assert attempts == [1, 2]
    assert not get_user_model().objects.exists()
