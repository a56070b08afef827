"""Leaving the table is deliberate, a lost connection is a banner the four understand, a
refused decision is told where the player clicked, and the salle says where a filling table
stands. Real browsers; SHOTS_DIR=/some/dir keeps screenshots of what the players see."""

import os
import re
import time
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.services import salle
from tests.browser.helpers import wait_connected

pytestmark = pytest.mark.browser

PHONE, DESKTOP = {"width": 360, "height": 740}, {"width": 1280, "height": 800}
BANNER = re.compile(
    r"dani a perdu la connexion\. La partie sera annulée pour les quatre si dani ne revient pas "
    r"avant (\d):(\d\d)\."
)


def shot(page, name):
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{folder}/v4-{name}.png", full_page=False)


@pytest.fixture
def started(start_cast_table):
    return start_cast_table(55)


def table_page(page_for, user, game, viewport=DESKTOP):
    page = page_for(user)
    page.set_viewport_size(viewport)
    page.goto(f"/tables/{game.table_id}/")
    expect(page.locator("#my-hand [data-card]")).to_have_count(4)
    return page


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_the_rules_open_in_a_new_tab_and_the_table_stays(started, cast, page_for, viewport):
    page = table_page(page_for, cast[0], started, viewport)
    table_url = page.url
    with page.context.expect_page() as opened:
        page.locator(".site-nav").get_by_role("link", name="Règles").click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/regles/")
    assert page.url == table_url
    expect(page.locator("#leave-dialog")).not_to_be_visible()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_the_salle_link_asks_first_cancel_stays_confirm_leaves(started, cast, page_for, viewport):
    page = table_page(page_for, cast[0], started, viewport)
    table_url = page.url
    dialog = page.locator("#leave-dialog")
    salle_link = page.locator(".site-nav").get_by_role("link", name="Salle")

    salle_link.click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Quitter la table ?")
    expect(dialog).to_contain_text(
        "Si vous ne revenez pas dans la minute, la partie est annulée pour les quatre."
    )
    stay = dialog.get_by_role("button", name="Rester à la table")
    expect(stay).to_be_focused()
    shot(page, f"leave-dialog-{viewport['width']}")
    stay.click()
    expect(dialog).not_to_be_visible()
    assert page.url == table_url

    salle_link.click()
    page.keyboard.press("Escape")  # Escape stays too
    expect(dialog).not_to_be_visible()
    assert page.url == table_url

    salle_link.click()
    dialog.get_by_role("button", name="Quitter la table").click()
    expect(page).to_have_url(re.compile(r"/salle/$"))  # and no beforeunload question on the way


def test_the_sign_out_asks_first(started, cast, page_for):
    page = table_page(page_for, cast[0], started)
    page.locator(".site-nav").get_by_role("button", name=re.compile("Se déconnecter")).click()
    expect(page.locator("#leave-dialog")).to_be_visible()
    page.locator("#leave-dialog").get_by_role("button", name="Rester à la table").click()
    assert "/tables/" in page.url


def test_closing_the_tab_during_a_hand_asks_the_browser(started, cast, page_for):
    page = table_page(page_for, cast[0], started)
    page.locator("#my-hand").click()  # the browser asks only on a page the player touched
    with page.expect_event("dialog") as asked:
        page.close(run_before_unload=True)
    assert asked.value.type == "beforeunload"
    asked.value.dismiss()  # stay
    page.wait_for_timeout(300)
    assert not page.is_closed()


def seconds_in(text: str) -> int:
    found = BANNER.search(text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_a_page_closes_the_three_others_see_the_banner_and_its_countdown(started, cast, page_for):
    ane, bixente, camille, dani = cast
    viewports = [PHONE, DESKTOP, {"width": 390, "height": 844}]
    others = [
        table_page(page_for, u, started, v)
        for u, v in zip((ane, bixente, camille), viewports, strict=True)
    ]
    leaver = table_page(page_for, dani, started)
    for page in others:
        expect(page.locator("#away-banner")).to_be_hidden()
    wait_connected(started, cast)

    closed = time.monotonic()
    leaver.close()  # as a crash or a lost network would: no beforeunload
    for page in others:
        expect(page.locator("#away-banner")).to_contain_text(BANNER, timeout=10000)
        expect(page.locator("#away-banner")).to_be_in_viewport()
    seen_after = time.monotonic() - closed
    boxes = [page.locator("#away-banner").bounding_box() for page in others]
    first = seconds_in(others[0].locator("#away-banner").inner_text())
    assert 55 <= first <= 60
    shot(others[0], "banner-360")
    shot(others[1], "banner-1280")
    ticked = time.monotonic() + 8
    while seconds_in(others[1].locator("#away-banner").inner_text()) > first - 2:
        assert time.monotonic() < ticked, "the banner's countdown does not tick"
        time.sleep(0.2)

    back = table_page(page_for, dani, started, PHONE)
    expect(back.locator(".away-return")).to_contain_text(
        re.compile(r"Vous étiez déconnecté·e : la table vous a attendu \(il vous restait \d:\d\d")
    )
    shot(back, "returned-360")
    back.locator(".away-return").get_by_role("button", name="Compris").click()
    expect(back.locator(".away-return")).to_have_count(0)
    for page in others:
        expect(page.locator("#away-banner")).to_be_hidden(timeout=10000)
    print(
        f"\nbanner on the three other pages {seen_after * 1000:.0f} ms after the close;"
        f" boxes {boxes}"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_a_refused_decision_is_told_next_to_the_buttons(started, cast, page_for, viewport):
    page = table_page(page_for, cast[0], started, viewport)

    wait_connected(started, [cast[0]])
    expect(
        page.locator("#decision-panel").get_by_role("button", name=re.compile("^Mus"))
    ).to_be_visible()
    # A stale page: the version its forms send is not the game's (as after a lost push); the
    # decision goes up the socket, or as a POST, both answered by games.decisions. The forms are
    # made stale and the button clicked in one script: a push landing in between (the socket's
    # first one) would render the panel afresh with the right version.
    page.evaluate(
        """() => {
          const panel = document.querySelector('#decision-panel');
          panel.querySelectorAll('input[name=version]').forEach(input => { input.value = '99'; });
          const mus = Array.from(panel.querySelectorAll('button'))
            .find(button => button.textContent.trim().startsWith('Mus'));
          mus.click();
        }"""
    )
    # a push landing just after the answer (the socket's first one, or the change that made
    # the click stale) renders the panel without the message: it stays meanwhile
    page.wait_for_timeout(1000)
    refusal = page.locator("#decision-panel .tpanel__refusal")
    expect(refusal).to_have_text("La table a changé : voici la situation à jour.")
    expect(refusal).to_be_in_viewport()
    expect(page.locator("#flash .table-flash__message")).to_have_count(0)
    shot(page, f"refusal-{viewport['width']}")


def test_the_salle_counts_the_players_and_offers_the_start_only_at_four(
    transactional_db, cast, page_for, in_thread
):
    ane, bixente, camille, dani = cast
    table = in_thread(salle.table_create, user=ane, kings=4)
    host = page_for(ane)
    host.set_viewport_size(PHONE)
    host.goto("/salle/")
    expect(host.locator("#salle")).to_have_attribute("data-pushed", "1")
    card = host.locator(f"#table-{table.pk}")
    start = card.get_by_role("button", name="Lancer la partie")
    expect(card).to_contain_text("Il manque 3 joueurs pour lancer la partie.")
    expect(start).to_have_count(0)
    expect(host).to_have_title("Salle · Barajamos")
    shot(host, "salle-waiting-360")
    # A forged start (an old page, a second tab) is still refused; the refusal goes once a push
    # shows the table as it is.
    start_url = reverse("games:table_start", args=[table.pk])
    host.evaluate(
        "url => htmx.ajax('POST', url, {source: '#salle', target: '#salle', swap: 'outerHTML'})",
        start_url,
    )
    refused = host.locator("#messages li.error")
    expect(refused).to_have_text("Il faut quatre joueurs assis pour lancer la partie.")
    host.wait_for_timeout(2100)

    for number, (user, missing) in enumerate(
        ((bixente, "Il manque 2 joueurs"), (camille, "Il manque 1 joueur pour")), start=1
    ):
        in_thread(salle.seat_take, user=user, table_id=table.pk, number=number)
        expect(card).to_contain_text(missing)
        expect(refused).to_have_count(0)
        expect(start).to_have_count(0)

    in_thread(salle.seat_take, user=dani, table_id=table.pk, number=3)
    expect(card).to_contain_text("Les quatre sont là : lancez la partie !")
    expect(card).not_to_contain_text("Il manque")
    expect(start).to_be_visible()
    expect(host).to_have_title("● Table complète · Barajamos")
    shot(host, "salle-full-360")
    host.set_viewport_size(DESKTOP)
    shot(host, "salle-full-1280")

    in_thread(salle.seat_leave, user=dani, table_id=table.pk)
    expect(card).to_contain_text("Il manque 1 joueur pour")
    expect(start).to_have_count(0)
    expect(host).to_have_title("Salle · Barajamos")


def test_a_cancelled_partie_shows_its_end_screen_without_asking(started, cast, page_for, in_thread):
    from games.services import play

    page = table_page(page_for, cast[0], started)
    wait_connected(started, [cast[0]])
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.locator("#my-hand").click()  # a touched page: the browser would ask
    in_thread(play.game_finish, game=started, status="cancelled", reason="Modération.")
    # The table's address now shows the cancelled partie's end screen (and its shuffle).
    expect(page.locator(".partie-cancelled")).to_contain_text(
        "La partie a été annulée : Modération.", timeout=10000
    )
    expect(page).to_have_url(re.compile(rf"/tables/{started.table_id}/$"))
    assert asked == []
