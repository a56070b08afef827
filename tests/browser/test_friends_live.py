"""The friends' whole path in real browsers: a private table opened, its link copied, three
friends join from it (one signing up on the way), the partie played (to its end by the
services: a whole partie of clicks is the table tests' business), then the revanche, accepted
by all, takes the four to a new table."""

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from games.models import Game, Revanche, Table
from tests.games.friends import finish_game
from tests.helpers import PASSWORD

pytestmark = pytest.mark.browser

SHOTS = "/tmp/shots/friends"


def join_from_link(page, link):
    page.goto(link)
    expect(page.locator("h1")).to_have_text("Invitation à une table privée")
    page.locator(".invitation-seats button").first.click()
    expect(page).to_have_url(re.compile(r"/salle/$"))
    expect(page.locator("#salle .my-seat")).to_be_visible()


def open_private_table(page):
    """From the salle, as the host: a private table opened, its invitation link shown."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/salle/")
    expect(page.locator("#salle")).to_have_attribute("data-pushed", "1")
    page.check("input[name=private]")
    page.click("text=Ouvrir la table")
    expect(page.locator(".invite-link")).to_be_visible()


def test_open_private_copy_link_three_join_play_revanche(
    transactional_db, cast, page_for, new_page, in_thread
):
    ane, bixente, camille = cast[0], cast[1], cast[2]
    host = page_for(ane)
    open_private_table(host)
    host.click("text=Copier le lien")
    expect(host.locator("[data-invite-copied]")).to_be_visible()
    link = host.evaluate("navigator.clipboard.readText()")
    table = Table.objects.get(host=ane)
    assert link.endswith(f"/tables/{table.pk}/invitation/{table.invite_token}/")
    host.screenshot(path=f"{SHOTS}/browser-host-link.png", full_page=True)

    for user in (bixente, camille):
        join_from_link(page_for(user), link)
    expect(host.locator(f"#table-{table.pk} .player")).to_have_count(3)

    visitor = new_page()  # a newcomer: the link, the log-in page, the sign-up page, the table
    visitor.goto(link)
    expect(visitor).to_have_url(re.compile(r"/connexion/\?next="))
    expect(visitor.locator("body")).to_contain_text("vous reviendrez ensuite à la table de ane")
    visitor.click("text=Inscrivez-vous")
    visitor.fill("input[name=username]", "eve")
    visitor.fill("input[name=email]", "eve@example.org")
    visitor.fill("input[name=password1]", PASSWORD)
    visitor.fill("input[name=password2]", PASSWORD)
    visitor.click("form.stack button[type=submit]")
    expect(visitor).to_have_url(re.compile(rf"/tables/{table.pk}/invitation/"))
    visitor.locator(".invitation-seats button").first.click()
    expect(visitor).to_have_url(re.compile(r"/salle/$"))

    expect(host).to_have_title(re.compile("Table complète"))
    host.click("text=Lancer la partie")
    expect(host).to_have_url(re.compile(rf"/tables/{table.pk}/$"))
    expect(visitor).to_have_url(re.compile(rf"/tables/{table.pk}/$"))

    game = Game.objects.get(table=table)
    seated = [s.user for s in game.seats.order_by("number").select_related("user")]
    pages = {ane.pk: host, seated[3].pk: visitor}
    for user in seated[1:3]:
        pages[user.pk] = page_for(user)
        pages[user.pk].goto(f"/tables/{table.pk}/")
    in_thread(finish_game, game, seated)
    for page in pages.values():
        expect(page.locator("#revanche")).to_be_visible()
    host.screenshot(path=f"{SHOTS}/browser-partie-over.png", full_page=True)

    host.click("#revanche button:has-text('Revanche')")
    for user in seated[1:]:
        page = pages[user.pk]
        expect(page.locator("#revanche")).to_contain_text("ane propose une revanche")
        page.click("text=Accepter la revanche")
    made = Revanche.objects.get(game=game)
    for page in pages.values():
        expect(page).to_have_url(re.compile(r"/tables/(\d+)/$"), timeout=5000)
        expect(page).not_to_have_url(re.compile(rf"/tables/{table.pk}/$"))
    made.refresh_from_db()
    assert made.status == Revanche.Status.STARTED
    assert Game.objects.get(table=made.table).status == Game.Status.PLAYING
    host.screenshot(path=f"{SHOTS}/browser-revanche-table.png")


def test_the_revanche_countdown_runs_on_the_servers_clock(
    cast, page_for, start_cast_table, in_thread
):
    """A device whose clock is ten minutes ahead still counts the offer's two minutes down."""
    from games.services import revanche

    game = start_cast_table(11)
    in_thread(finish_game, game, cast)
    in_thread(revanche.revanche_offer, user=cast[0], table_id=game.table_id)
    page = page_for(cast[1])
    page.clock.set_system_time(datetime.now() + timedelta(minutes=10))
    page.goto(f"/tables/{game.table_id}/")
    expiry = page.locator("[data-revanche-expires]")
    expect(expiry).to_contain_text(re.compile(r"L’offre tombe dans (1[01]\d|120) s"))


def test_a_page_that_missed_the_revanche_redirect_still_goes_to_the_new_table(
    cast, page_for, start_cast_table, in_thread
):
    """The socket's redirect to the revanche's table is dropped on its way (as when the
    socket reconnects at that moment): the panel pushed with the revanche started takes the
    page there all the same, since it showed the open offer."""
    from games.services import revanche

    game = start_cast_table(11)
    in_thread(finish_game, game, cast)
    in_thread(revanche.revanche_offer, user=cast[0], table_id=game.table_id)
    page = page_for(cast[1])

    def without_redirects(ws):
        server = ws.connect_to_server()
        server.on_message(lambda message: None if "data-redirect" in message else ws.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/"), without_redirects)
    page.goto(f"/tables/{game.table_id}/")
    expect(page.locator("[data-revanche-expires]")).to_be_visible()
    for user in cast[1:]:
        in_thread(revanche.revanche_answer, user=user, table_id=game.table_id, accept=True)
    made = Revanche.objects.get(game=game)
    expect(page).to_have_url(re.compile(rf"/tables/{made.table_id}/$"))
    expect(page.locator("#mus-table")).to_be_visible()


def test_the_copied_link_is_still_said_copied_after_a_push(
    transactional_db, cast, page_for, in_thread
):
    """« Lien copié ! » outlives a push that re-renders the salle right after the copy (the
    table just opened reaches every salle, its host's included; a friend sits down)."""
    from games.services import salle

    ane, bixente = cast[0], cast[1]
    host = page_for(ane)
    open_private_table(host)
    table = Table.objects.get(host=ane)
    host.click("text=Copier le lien")
    copied = host.locator("[data-invite-copied]")
    expect(copied).to_be_visible()

    in_thread(
        salle.seat_take,
        user=bixente,
        table_id=table.pk,
        number=1,
        invite_token=table.invite_token,
    )
    expect(host.locator(f"#table-{table.pk} .player")).to_have_count(2)  # pushed: re-rendered
    expect(copied).to_be_visible()
    host.set_viewport_size({"width": 360, "height": 740})
    copied.scroll_into_view_if_needed()
    host.screenshot(path=f"{SHOTS}/browser-link-copied-after-push-360.png")
