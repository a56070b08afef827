"""Quick phrases in Chromium (docs/phrases.md): two players on the score screen, one at a phone's
size reading Spanish; a phrase said shows in a bubble at the speaker's seat and in the log,
is announced in the table's live region, the pace limit says why it refuses, « Signaler »
marks the phrase, and the deal takes the talk away. Before the partie, the same at the salle's
« Votre table ». axe on both pages; screenshots under $SHOTS_DIR (default /tmp/shots-phrases)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import engine
from games.models import TablePhrase
from games.services import salle
from moderation.models import PhraseReport
from tests.browser.axe import assert_clean, axe_problems
from tests.browser.helpers import assert_no_violation, watched

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-phrases"))


def score_screen(game):
    """Everyone passes the first hand through: its score screen, ane (the host) to deal."""
    state = engine.apply(game.state, 0, {"type": "cut"})
    while state["status"] == "playing":
        seat = engine.to_act(state)[0]
        kinds = {a["type"] for a in engine.legal_actions(state, seat)}
        state = engine.apply(state, seat, {"type": "pass" if "pass" in kinds else "hold"})
    game.state, game.version = state, state["version"]
    game.save()
    return game


def shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_two_players_talk_between_hands(start_cast_table, page_for, cast):
    ane, bixente = cast[0], cast[1]
    bixente.language = "es"
    bixente.save(update_fields=["language"])
    game = score_screen(start_cast_table(7))
    desk = watched(page_for(ane))
    desk.set_viewport_size({"width": 1280, "height": 800})
    phone = watched(page_for(bixente))
    phone.set_viewport_size({"width": 360, "height": 740})
    for page in (desk, phone):
        page.goto(game.get_absolute_url())
        expect(page.locator("#table-talk")).to_be_visible()
    desk.wait_for_timeout(500)  # the socket's first push replaces the regions once

    desk.get_by_role("button", name="Suerte !").click()
    bubble = phone.locator('#table-seats [data-seat="0"] .talk-bubble')
    expect(bubble).to_have_text("¡Suerte!")
    expect(phone.locator("#talk-log")).to_contain_text("ane ¡Suerte!")
    expect(phone.locator("#announcer")).to_have_text("ane: ¡Suerte!")
    expect(desk.locator('#table-seats [data-seat="0"] .talk-bubble')).to_have_text("Suerte !")
    expect(desk.locator("#talk-log .talk__said")).to_have_count(1)  # the answer and the push
    # the seats are below the score screen: the talk section's ring shows the bubble too
    ring_bubble = phone.locator('.talk__ring [data-seat="0"] .talk-bubble')
    expect(ring_bubble).to_have_text("¡Suerte!")
    for page, name in ((phone, "phrase-bubble-360x740"), (desk, "phrase-bubble-1280x800")):
        page.locator(".talk__ring").scroll_into_view_if_needed()
        expect(page.locator('.talk__ring [data-seat="0"] .talk-bubble')).to_be_in_viewport()
        shoot(page, name)

    desk.get_by_role("button", name="Bien joué !").click()
    expect(desk.locator("#talk-note")).to_contain_text("Une phrase toutes les 3 secondes")
    assert TablePhrase.objects.count() == 1

    phone.locator("#talk-log").get_by_role("button", name="Denunciar").click()
    expect(phone.locator("#talk-log")).to_contain_text("Denunciada")
    expect(phone.locator("#talk-note")).to_contain_text("moderadores")
    assert PhraseReport.objects.filter(reporter=bixente).count() == 1
    phone.locator("#table-talk").scroll_into_view_if_needed()
    shoot(phone, "phrase-reported-360x740")

    for page, name in ((phone, "phrases 360"), (desk, "phrases 1280")):
        assert_no_violation(page, page.url)
        assert_clean(axe_problems(page, name))

    desk.locator("#score-screen form button").click()  # the deal: a hand is played again
    for page in (desk, phone):
        expect(page.locator("#table-talk")).to_be_hidden()


def test_the_four_greet_each_other_before_the_partie(transactional_db, cast, page_for, in_thread):
    ane, bixente = cast[0], cast[1]
    table = in_thread(salle.table_create, user=ane, kings=4)
    in_thread(salle.seat_take, user=bixente, table_id=table.pk, number=1)
    phone = watched(page_for(ane))
    phone.set_viewport_size({"width": 360, "height": 740})
    desk = watched(page_for(bixente))
    desk.set_viewport_size({"width": 1280, "height": 800})
    for page in (phone, desk):
        page.goto("/salle/")
        expect(page.locator("#table-talk")).to_be_visible()
    phone.wait_for_timeout(500)  # the salle socket's first push
    desk.get_by_role("button", name="Bonjour à tous !").click()
    expect(phone.locator('.my-table [data-seat="1"] .talk-bubble')).to_have_text("Bonjour à tous !")
    expect(phone.locator("#announcer")).to_have_text("bixente : Bonjour à tous !")
    phone.locator("#table-talk").scroll_into_view_if_needed()
    shoot(phone, "phrase-salle-360x740")
    shoot(desk, "phrase-salle-1280x800")
    for page, name in ((phone, "salle phrases 360"), (desk, "salle phrases 1280")):
        assert_no_violation(page, page.url)
        assert_clean(axe_problems(page, name))
