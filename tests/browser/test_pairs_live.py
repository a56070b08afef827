"""Two players form a pareja and sit together through « Jouer maintenant à deux », in real
browsers: the proposal from the other's profile, the acceptance, the click in the salle, and
the partner's salle showing them seated together, pushed. SHOTS_DIR keeps what they see."""

import os
import re

import pytest
from playwright.sync_api import expect

from games.models import Seat

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS_DIR", "")


def shot(page, name: str) -> None:
    if not SHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)


def test_two_players_form_a_pair_and_sit_together(transactional_db, cast, page_for):
    ane, bixente = cast[0], cast[1]
    first, second = page_for(ane), page_for(bixente)

    first.goto("/joueurs/bixente/")
    first.click("text=Proposer une pareja à bixente")
    expect(first.locator("#pair-partner")).to_have_value("bixente")
    first.fill("#pair-name", "Los Txapelas")
    first.click("text=Envoyer la proposition")
    expect(first.locator("body")).to_contain_text("Proposition envoyée à bixente")
    shot(first, "mes-parejas-proposee")

    second.goto("/mes-parejas/")
    expect(second.locator("body")).to_contain_text("ane vous propose la pareja « Los Txapelas »")
    shot(second, "mes-parejas-recue")
    second.get_by_role("button", name="Accepter la pareja « Los Txapelas »").click()
    expect(second.locator("body")).to_contain_text("Vous formez maintenant la pareja")

    second.goto("/salle/")
    expect(second.locator("#salle")).to_have_attribute("data-pushed", "1")
    first.goto("/salle/")
    expect(first.locator("#salle")).to_have_attribute("data-pushed", "1")
    shot(first, "salle-avec-pareja")
    first.get_by_role("button", name="À deux · Mus · 4 rois").click()
    expect(first.locator("#salle .my-seat")).to_contain_text(
        "Vous jouez en pareja : « Los Txapelas »"
    )
    # The partner was not asked again: their salle shows them seated, pushed.
    expect(second.locator("#salle .my-seat")).to_contain_text(
        re.compile(r"place 3 .*Vous jouez en pareja : « Los Txapelas »")
    )
    expect(second.locator(".pair-badge")).to_contain_text("pareja « Los Txapelas » (équipe 1)")
    shot(second, "salle-pareja-assise")
    seats = {s.number: s.user.username for s in Seat.objects.select_related("user")}
    assert seats == {0: "ane", 2: "bixente"}

    second.goto("/parejas/los-txapelas/")
    expect(second.locator("h1")).to_have_text("Pareja « Los Txapelas »")
    shot(second, "pareja")
    second.goto("/classement/parejas/")
    shot(second, "classement-parejas")


def test_a_table_opened_with_ones_pareja_from_the_salle(
    transactional_db, cast, page_for, in_thread
):
    from tests.pairs.helpers import form_pair

    ane, bixente = cast[0], cast[1]
    in_thread(form_pair, ane, bixente)
    page = page_for(ane)
    page.goto("/salle/")
    expect(page.locator("#salle")).to_have_attribute("data-pushed", "1")
    with_pair = page.get_by_role("button", name="Ouvrir la table avec ma pareja « Los Txapelas »")
    page.locator("form", has=with_pair).locator("input[name=kings][value='8']").check()
    with_pair.click()
    expect(page.locator("#salle .my-seat")).to_contain_text("Vous jouez en pareja")
    expect(page.locator(".my-table .modality")).to_have_text("Mus · 8 rois")
    seats = {s.number: s.user.username for s in Seat.objects.select_related("user")}
    assert seats == {0: "ane", 2: "bixente"}
