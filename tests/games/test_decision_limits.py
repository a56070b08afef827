"""Decisions are rate-limited per player and per table socket (games.decisions.too_fast,
games.live.consumers.TableConsumer.socket_too_fast): past the limit the answer is a short French
refusal and nothing is rendered; a socket that keeps on is closed, and logged once."""

import html
import json
import logging

import pytest
from django.urls import reverse

from core import ratelimit
from games import decisions
from games.display import fragments
from games.live import consumers
from tests.games.helpers import HTMX
from tests.sockets import connect_table, receive_version

pytestmark = pytest.mark.django_db(transaction=True)

SITE_DECISIONS_PER_SECOND = 5


@pytest.fixture(autouse=True)
def site_limit(settings):
    """The site's limit (the other tests play faster than any person: tests/conftest.py)."""
    settings.DECISIONS_PER_SECOND = SITE_DECISIONS_PER_SECOND


TOO_FAST = "Trop de décisions d’affilée"


@pytest.fixture
def renders(monkeypatch):
    """Counts the table renders of the decision path (the actor's regions, the peers' pushes)."""
    counted = {"regions": 0, "pushes": 0}
    regions, pushes = fragments.table_regions, fragments.table_pushes

    def counting_regions(*args, **kwargs):
        counted["regions"] += 1
        return regions(*args, **kwargs)

    def counting_pushes(*args, **kwargs):
        counted["pushes"] += 1
        return pushes(*args, **kwargs)

    monkeypatch.setattr(fragments, "table_regions", counting_regions)
    monkeypatch.setattr(fragments, "table_pushes", counting_pushes)
    return counted


def stale(version=99) -> str:
    return json.dumps({"type": "decide", "fields": {"version": str(version), "type": "mus"}})


async def test_a_socket_flooding_decisions_is_refused_without_renders_then_closed(
    started_game, ane, renders, monkeypatch, settings, caplog
):
    # One frozen second for the socket's window: the burst is one burst however slow the machine.
    monkeypatch.setattr(consumers, "monotonic_now", lambda: 1000.0)
    communicator, connected = await connect_table(ane, started_game.table_id)
    assert connected
    await receive_version(communicator, started_game.version)
    renders["regions"] = 0
    burst = settings.DECISIONS_PER_SECOND + settings.DECISION_REFUSALS_BEFORE_CLOSE + 10
    caplog.set_level(logging.WARNING, logger="games.live.consumers")
    for _ in range(burst):
        await communicator.send_to(text_data=stale())
    answers = []
    while True:
        output = await communicator.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            break
        answers.append(html.unescape(output["text"]))
    assert output["code"] == consumers.TOO_FAST_CLOSE_CODE
    rendered = [a for a in answers if 'data-version="' in a]
    refused = [a for a in answers if TOO_FAST in a]
    assert len(rendered) == settings.DECISIONS_PER_SECOND  # the stale ones within the limit
    assert len(refused) == settings.DECISION_REFUSALS_BEFORE_CLOSE - 1  # the last one closes
    assert all('data-version="' not in a and len(a) < 500 for a in refused)
    assert renders["regions"] == settings.DECISIONS_PER_SECOND
    closing = [r for r in caplog.records if "refused for their pace" in r.getMessage()]
    assert len(closing) == 1


async def test_a_players_decisions_are_limited_across_sockets(
    started_game, ane, renders, monkeypatch
):
    """The per-player limit (Redis, shared by every web process and tab) refuses even when
    each socket stays under its own limit."""
    monkeypatch.setattr(
        decisions, "decisions_per_user", lambda: ratelimit.Limit("decisions", count=3, seconds=60)
    )
    first, connected = await connect_table(ane, started_game.table_id)
    assert connected
    await receive_version(first, started_game.version)
    renders["regions"] = 0
    for _ in range(3):
        await first.send_to(text_data=stale())
        assert 'data-version="' in await first.receive_from(timeout=10)
    await first.send_to(text_data=stale())
    assert TOO_FAST in html.unescape(await first.receive_from(timeout=10))
    assert renders["regions"] == 3
    await first.disconnect()


def test_posted_decisions_past_the_limit_are_refused_without_a_render(
    started_game, ane, login, renders, monkeypatch, django_assert_max_num_queries, caplog
):
    monkeypatch.setattr(
        decisions, "decisions_per_user", lambda: ratelimit.Limit("decisions", count=2, seconds=60)
    )
    client = login(ane)
    url = reverse("games:act", args=[started_game.table_id])
    data = {"version": "99", "type": "mus"}
    statuses = [client.post(url, data, headers=HTMX).status_code for _ in range(2)]
    assert statuses == [409, 409]
    caplog.set_level(logging.WARNING, logger="games.decisions")
    for _ in range(8):
        with django_assert_max_num_queries(2):  # the session and its user, nothing of the game
            response = client.post(url, data, headers=HTMX)
        assert response.status_code == 429
        assert TOO_FAST in html.unescape(response.content.decode())
        assert 'data-version="' not in response.content.decode()
    without_htmx = client.post(url, data)
    assert without_htmx.status_code == 429 and TOO_FAST in without_htmx.content.decode()
    assert renders["regions"] == 2
    assert len([r for r in caplog.records if "refused" in r.getMessage()]) == 1
