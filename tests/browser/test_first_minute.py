"""The first minute and the table as new players live them (issue 33), in Chromium at a phone's
and a laptop's size: what each sees first, where the focus goes, what a screen reader hears,
that every control is big enough to tap, and that the site installs on a home screen.
Screenshots under $SHOTS_DIR (default /tmp/shots-firstmin)."""

import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-firstmin"))
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


def shoot(page, name: str) -> None:
    """The page as it is at both sizes (the viewport is put back to what it was)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    was = page.viewport_size
    for label, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"))
    page.set_viewport_size(was)


# ---------------------------------------------------------------- 11. installable


def test_the_site_installs_on_a_home_screen(new_page):
    page = new_page()
    page.goto("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href
    answer = page.request.get(href)
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Barajamos" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["start_url"]
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= set(sizes)
    for size in (192, 512):
        icon = sizes[f"{size}x{size}"]
        # the icon loads in the page (the policy allows it) at its stated size
        loaded = page.evaluate(
            """src => new Promise(done => { const img = new Image();
                 img.onload = () => done([img.naturalWidth, img.naturalHeight]);
                 img.onerror = () => done(null); img.src = src; })""",
            icon["src"],
        )
        assert loaded == [size, size], (icon, loaded)
    assert (
        page.locator("meta[name=theme-color]").get_attribute("content") == manifest["theme_color"]
    )


# ---------------------------------------------------------------- 2. the newcomer alone


#: Whether an element is visible without scrolling (its box inside the viewport).
IN_FIRST_SCREEN_JS = (
    "el => { const r = el.getBoundingClientRect();"
    " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"
)


def in_first_screen(locator) -> bool:
    return locator.evaluate(IN_FIRST_SCREEN_JS)


def settles_in_first_screen(page, selector: str) -> None:
    """Waits until the first element matching the selector is in the first screen: a region
    swapped by a push is briefly detached (no box), so one reading could catch the swap."""
    page.wait_for_function(
        f"sel => {{ const el = document.querySelector(sel);"
        f" return !!el && ({IN_FIRST_SCREEN_JS})(el); }}",
        arg=selector,
        timeout=10000,
    )


def test_a_visitor_sees_the_robots_on_the_landing_page(new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto("/")
    door = page.get_by_role("link", name="Jouer contre les robots")
    assert in_first_screen(door)
    shoot(page, "landing-visitor")


@pytest.fixture
def robot_worker(clock_worker):
    if clock_worker.worker is None:
        clock_worker.start_worker()
    return clock_worker


def test_alone_on_a_phone_from_the_landing_page_to_the_first_decision(robot_worker, ane, page_for):
    """The newcomer's walk, counted: one tap from the landing page to the table, where the
    first decision is on screen (after the robots' own, made by the worker)."""
    page = page_for(ane)
    page.set_viewport_size(PHONE)
    started = time.monotonic()
    page.goto("/")
    shoot(page, "landing-player")
    door = page.get_by_role("button", name="Jouer contre les robots")
    assert in_first_screen(door)
    door.click()
    taps, screens = 1, 2
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=10000)
    first_action = "#decision-panel .tpanel__actions button[type=submit]"
    expect(page.locator(first_action).first).to_be_visible(timeout=20000)
    seconds = time.monotonic() - started
    settles_in_first_screen(page, first_action)
    print(f"landing → first decision: {taps} tap, {screens} screens, {seconds:.1f} s")
    shoot(page, "practice-first-decision")
    assert seconds < 30


def test_the_salle_offers_the_robots_on_a_phones_first_screen(ane, page_for):
    page = page_for(ane)
    page.set_viewport_size(PHONE)
    page.goto("/salle/")
    door = page.locator("form.practice-table").get_by_role("button", name="Jouer contre les robots")
    shoot(page, "salle-first-screen")
    assert in_first_screen(door)
    assert in_first_screen(page.get_by_role("button", name="Jouer maintenant · Mus · 4 rois"))
    shoot(page, "salle-first-screen")


# ---------------------------------------------------------------- 8. the laptop salle


def test_the_laptop_salle_uses_its_width(cast, page_for, in_thread):
    from games.services import salle

    other = in_thread(salle.table_create, user=cast[2], kings=4)
    in_thread(salle.seat_take, user=cast[3], table_id=other.pk, number=1)
    table = in_thread(salle.table_create, user=cast[0], kings=4)
    in_thread(salle.seat_take, user=cast[1], table_id=table.pk, number=1)
    page = page_for(cast[0])
    page.set_viewport_size(LAPTOP)
    page.goto("/salle/")
    mine = page.locator(".my-table .table-card")
    expect(mine).to_be_visible()
    shoot(page, "salle-seated")
    width = mine.bounding_box()["width"]
    assert width >= 560, width
    # the other open tables beside it, not below it
    beside = page.locator(".open-tables .table-card").first.bounding_box()
    assert beside["y"] < 800 and beside["x"] > mine.bounding_box()["x"] + width - 1


# ---------------------------------------------------------------- 1. the end shows the result


def act(in_thread, game, user, action: dict) -> None:
    """One decision through the services, as the player's click would (pushed to the pages)."""
    from games.services import play

    game.refresh_from_db()
    in_thread(
        play.game_apply_action, user=user, version=game.version, action=action, game_id=game.pk
    )


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_end_of_the_partie_shows_the_result_first(
    size, cast, page_for, start_cast_table, in_thread
):
    game = start_cast_table(7)
    act(in_thread, game, cast[0], {"type": "cut"})
    act(in_thread, game, cast[0], {"type": "ordago"})
    page = page_for(cast[0])
    page.set_viewport_size(size)
    page.goto(game.get_absolute_url())
    expect(page.locator("#decision-panel")).to_be_visible()
    act(in_thread, game, cast[1], {"type": "hold"})
    title = page.locator(".partie-over__title")
    expect(title).to_be_visible()
    # the page's focus (whether the browser window itself has it or not)
    page.wait_for_function(
        "() => document.activeElement === document.querySelector('.partie-over__title')"
    )
    page.wait_for_timeout(300)  # any scrolling the focus brings
    shoot(page, f"partie-over-{size['width']}")
    assert in_first_screen(title)
    assert in_first_screen(page.locator(".partie-over__final"))
    assert in_first_screen(page.locator("#revanche").get_by_role("button", name="Revanche"))
    shoot(page, f"partie-over-{size['width']}")


# ---------------------------------------------------------------- 6. keyboard and defaults


def test_facing_an_ordago_the_focus_is_on_the_cautious_answer(
    cast, page_for, start_cast_table, in_thread
):
    game = start_cast_table(7)
    act(in_thread, game, cast[0], {"type": "cut"})
    bixente = page_for(cast[1])
    bixente.goto(game.get_absolute_url())
    expect(bixente.locator("#decision-panel")).to_be_visible()
    act(in_thread, game, cast[0], {"type": "ordago"})
    refuse = bixente.locator("#decision-panel").get_by_role("button", name="Je ne tiens pas")
    expect(refuse).to_be_focused()
    # and on a page opened facing it
    again = page_for(cast[1])
    again.goto(game.get_absolute_url())
    expect(
        again.locator("#decision-panel").get_by_role("button", name="Je ne tiens pas")
    ).to_be_focused()


def test_when_my_mus_closes_the_round_the_focus_goes_to_my_cards(
    cast, page_for, start_cast_table, in_thread
):
    game = start_cast_table(2026)
    for user in cast[:3]:
        act(in_thread, game, user, {"type": "mus"})
    dani = page_for(cast[3])
    dani.goto(game.get_absolute_url())
    mus = dani.locator("#decision-panel").get_by_role("button", name="Mus")
    mus.focus()
    dani.keyboard.press("Enter")
    first_card = dani.locator("#my-hand input[type=checkbox]").first
    expect(first_card).to_be_focused()


# ---------------------------------------------------------------- 10. words


def test_the_classement_explains_itself_in_plain_french(ane, page_for):
    page = page_for(ane)
    page.goto("/classement/")
    text = page.locator("main").inner_text()
    assert "Plackett" not in text and "openskill" not in text
    assert "Gagner une partie rapporte des points" in text


def test_the_invitation_says_who_your_partner_will_be(cast, page_for, in_thread):
    from games.services import salle

    table = in_thread(salle.table_create, user=cast[0], kings=4, private=True)
    in_thread(
        salle.seat_take, user=cast[1], table_id=table.pk, number=1, invite_token=table.invite_token
    )
    guest = page_for(cast[2])
    guest.set_viewport_size(PHONE)
    guest.goto(f"/tables/{table.pk}/invitation/{table.invite_token}/")
    seats = guest.locator(".invitation-seats > li")
    expect(seats.nth(2)).to_contain_text("Votre partenaire : ane")
    expect(seats.nth(3)).to_contain_text("Votre partenaire : bixente")
    button = seats.nth(2).get_by_role("button", name="S’asseoir ici")
    assert button.bounding_box()["height"] >= 44
    shoot(guest, "invitation")


def dani_leaves(cast, page_for, start_cast_table):
    """The cast's table in ane's and dani's pages, both connected; then dani's page closed.
    Returns the game, ane's page and dani's browser context (for her return)."""
    from games.models import SeatConnection

    game = start_cast_table(55)
    url = game.get_absolute_url()
    watcher, leaver = page_for(cast[0]), page_for(cast[3])
    watcher.goto(url)
    leaver.goto(url)
    deadline = time.monotonic() + 20
    while SeatConnection.objects.filter(game_seat__game=game).count() < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    context = leaver.context
    leaver.close()
    return game, watcher, context


def test_a_returning_player_is_not_told_they_lost_the_connection(cast, page_for, start_cast_table):
    game, watcher, context = dani_leaves(cast, page_for, start_cast_table)
    url = game.get_absolute_url()
    expect(watcher.locator("#table-seats")).to_contain_text(
        "dani a perdu la connexion", timeout=10000
    )
    # the page the returning player gets, before its socket says it is back
    html = context.request.get(url).text()
    assert "Vous étiez déconnecté" in html
    seats = html[html.index('id="table-seats"') : html.index('id="lance-status"')]
    assert "a perdu la connexion" not in seats


# ------------------------------------------------ 3. « Jouer maintenant » waits aloud


def test_play_now_shows_the_wait_and_offers_robots_to_every_seated_player(
    cast, page_for, in_thread, settings
):
    from datetime import timedelta

    from games import broadcast
    from games.models import Table

    ane, bixente = page_for(cast[0]), page_for(cast[1])
    for page in (ane, bixente):
        page.set_viewport_size(PHONE)
        page.goto("/salle/")
        page.get_by_role("button", name="Jouer maintenant · Mus · 4 rois").click()
        expect(page.locator(".my-table")).to_be_visible()
    for page in (ane, bixente):
        wait = page.locator(".my-table .table-card__wait")
        expect(wait).to_contain_text("Pas encore assez de parties pour estimer")
        expect(wait).to_contain_text("Vous attendez depuis")
        expect(wait.locator("[data-waited-since]")).to_have_text(
            re.compile(r"0:0[1-9]"), timeout=5000
        )
    shoot(bixente, "play-now-waiting")
    # two minutes later (the table's opening moved back), at the next push
    table = Table.objects.get(host=cast[0])
    Table.objects.filter(pk=table.pk).update(
        created=table.created - timedelta(seconds=settings.ROBOT_OFFER_SECONDS + 1)
    )
    in_thread(broadcast.salle_changed)
    for page in (ane, bixente):
        offer = page.get_by_role("button", name="Compléter avec des robots")
        expect(offer).to_be_visible()
        shoot(page, "play-now-robots-offer")
        assert in_first_screen(offer)
        expect(page).to_have_title("● Compléter avec des robots ? · Barajamos")
    bixente.get_by_role("button", name="Compléter avec des robots").click()
    expect(ane.locator(".table-card__ready")).to_have_text(
        "Les quatre sont là : lancez la partie !"
    )
    expect(bixente.locator(".table-card__full")).to_contain_text(
        "La table est complétée avec des robots : ane va lancer la partie."
    )
    shoot(ane, "play-now-filled-host")


# ---------------------------------------------------------------- 4. what a screen reader hears

#: The text a screen reader would hear from the page's live regions (aria-hidden parts left out).
LIVE_TEXT = """() => Array.from(document.querySelectorAll(
    "[role=alert], [role=status], [role=log], [aria-live]:not([aria-live=off])"))
  .filter(el => !el.closest("[aria-hidden=true]"))
  .map(el => { const copy = el.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach(n => n.remove());
    return copy.textContent.replace(/\\s+/g, " ").trim(); })
  .join(" | ")"""


def live_changes(page, seconds: float = 3.5) -> list[str]:
    """The successive texts of the live regions over `seconds`, polled every 100 ms."""
    seen = [page.evaluate(LIVE_TEXT)]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        text = page.evaluate(LIVE_TEXT)
        if text != seen[-1]:
            seen.append(text)
    return seen


def test_the_away_countdown_is_not_read_every_second(cast, page_for, start_cast_table):
    _game, watcher, _context = dani_leaves(cast, page_for, start_cast_table)
    expect(watcher.locator("#away-banner")).to_contain_text(
        "dani a perdu la connexion", timeout=10000
    )
    banner = watcher.locator("#away-banner .away-banner__countdown")
    first = banner.inner_text()
    changes = live_changes(watcher)
    assert banner.inner_text() != first  # it still ticks on screen
    assert len(changes) == 1, changes  # and is said once, at its start
    expect(watcher.locator("#announcer")).to_contain_text("dani a perdu la connexion.")


def test_the_revanche_countdown_is_not_read_every_second(
    cast, page_for, start_cast_table, in_thread
):
    from games.services import revanche

    game = start_cast_table(7)
    act(in_thread, game, cast[0], {"type": "cut"})
    act(in_thread, game, cast[0], {"type": "ordago"})
    act(in_thread, game, cast[1], {"type": "hold"})
    in_thread(revanche.revanche_offer, user=cast[0], table_id=game.table_id, partner_id=cast[2].pk)
    page = page_for(cast[1])
    page.goto(game.get_absolute_url())
    expiry = page.locator(".revanche__expiry")
    expect(expiry).to_contain_text("L’offre tombe dans")
    changes = live_changes(page)
    assert len(changes) == 1, changes


def test_every_word_of_a_push_is_said_in_order(cast, page_for, start_cast_table, in_thread):
    game = start_cast_table(2026)
    camille = page_for(cast[2])
    camille.goto(game.get_absolute_url())
    expect(camille.locator("#hand-log")).to_be_visible()
    camille.wait_for_timeout(500)  # the socket's first push
    # the next push is lost (a slow network): the one after carries two words
    camille.evaluate(
        """() => document.addEventListener("htmx:wsBeforeMessage", function drop(event) {
             event.preventDefault(); window.dropped = true;
             document.removeEventListener("htmx:wsBeforeMessage", drop); })"""
    )
    act(in_thread, game, cast[0], {"type": "mus"})
    camille.wait_for_function("() => window.dropped === true")
    act(in_thread, game, cast[1], {"type": "mus"})
    expect(camille.locator("#announcer")).to_have_text(
        "ane : Mus. bixente : Mus. À vous de parler. Mus ou couper ?"
    )


# ---------------------------------------------------------------- 5. the clock's consequences


def test_the_clocks_consequences_are_told_to_the_player_and_to_the_table(
    short_clock, clock_worker, start_cast_table, cast, page_for
):
    if clock_worker.worker is None:
        clock_worker.start_worker()
    game = start_cast_table(14)
    ane, bixente = page_for(cast[0]), page_for(cast[1])
    for page in (ane, bixente):
        page.set_viewport_size(PHONE)
        page.goto(game.get_absolute_url())
        expect(page.locator("#table-seats .tclock--running")).to_have_count(1)
    # ane lets the clock run out: the decision is made for her
    expect(bixente.locator("#hand-log")).to_contain_text("temps écoulé", timeout=20000)
    note = ane.locator("#decision-panel .tpanel__clock-note")
    expect(note).to_contain_text("la décision a été prise pour vous (1 fois de suite sur 3")
    expect(note).to_contain_text("Votre réserve est épuisée")
    expect(ane.locator("#announcer")).to_contain_text("Votre réserve est épuisée")
    expect(bixente.locator("#announcer")).to_contain_text(
        "ane : temps écoulé 1 fois de suite sur 3 avant l'annulation."
    )
    expect(bixente.locator(".tseat__misses")).to_have_text(
        "temps écoulé 1 fois de suite sur 3 avant l'annulation"
    )
    shoot(ane, "clock-note-late-player")
    shoot(bixente, "clock-note-table")


# ---------------------------------------------------------------- 7. the phone

#: Every control a player uses that is shown and smaller than 44 px high: "tag.class text (h)".
SMALL_CONTROLS = """() => Array.from(document.querySelectorAll(
    "main button, main .button, main .tbtn, main select, main input:not([type=hidden])"
    + ":not([type=radio]):not([type=checkbox]), main label:has(> input[type=radio]),"
    + " main label:has(> input[type=checkbox])"))
  .filter(el => el.offsetParent !== null && !el.closest(".visually-hidden"))
  .map(el => [el, el.getBoundingClientRect().height])
  .filter(([el, height]) => height < 43.5)
  .map(([el, height]) => el.tagName + "." + el.className + " " + el.textContent.trim().slice(0, 30)
    + " (" + Math.round(height) + ")")"""


def covered_cards(page) -> float:
    """How many px of the player's cards the decision panel covers (0: none)."""
    return page.evaluate(
        """() => { const panel = document.querySelector("#decision-panel").getBoundingClientRect();
             return Math.max(0, ...Array.from(document.querySelectorAll("#my-hand .card"))
               .map(card => card.getBoundingClientRect().bottom - panel.top)); }"""
    )


def test_on_a_phone_the_panel_leaves_my_cards_and_the_header_is_short(
    cast, page_for, start_cast_table, in_thread
):
    game = start_cast_table(7)
    act(in_thread, game, cast[0], {"type": "cut"})
    act(in_thread, game, cast[0], {"type": "bet", "amount": 2})
    dani = page_for(cast[3])
    dani.set_viewport_size(PHONE)
    dani.goto(game.get_absolute_url())
    expect(dani.locator("#decision-panel")).to_be_visible()
    # the header (site and attention toggles) above the score: one short band
    shoot(dani, "table-header")
    assert dani.locator("#scoreboard").bounding_box()["y"] <= 64
    act(in_thread, game, cast[1], {"type": "raise", "to": 5})  # dani answers after her partner
    expect(dani.locator("#decision-panel #raise-to")).to_be_visible()
    dani.wait_for_timeout(300)
    shoot(dani, "answer-after-partner")
    dani.set_viewport_size(PHONE)
    assert covered_cards(dani) <= 0
    assert dani.evaluate(SMALL_CONTROLS) == []


def test_every_control_outside_the_table_is_44_px_high(cast, page_for, in_thread):
    from games.services import robots, salle

    table = in_thread(salle.table_create, user=cast[0], kings=4)
    in_thread(robots.robot_seat, user=cast[0], table_id=table.pk, number=3)
    for user in (cast[0], cast[1]):
        page = page_for(user)
        for size in (PHONE, LAPTOP):
            page.set_viewport_size(size)
            page.goto("/salle/")
            expect(page.locator("#salle")).to_be_visible()
            assert page.evaluate(SMALL_CONTROLS) == [], (user, size)
    private = in_thread(salle.table_create, user=cast[2], kings=4, private=True)
    page = page_for(cast[3])
    page.set_viewport_size(PHONE)
    page.goto(f"/tables/{private.pk}/invitation/{private.invite_token}/")
    assert page.evaluate(SMALL_CONTROLS) == []


# ---------------------------------------------------------------- 9. the partie page


def play_while_playing(game, cast, in_thread, prefer: tuple[str, ...]) -> None:
    """Each seat to act takes the first of `prefer` it may, until the hand or partie is over."""
    from games import engine

    for _ in range(60):
        game.refresh_from_db()
        if game.state["status"] != "playing":
            return
        seat = engine.to_act(game.state)[0]
        legal = {a["type"] for a in engine.observation(game.state, seat)["legal"]}
        kind = next(k for k in prefer if k in legal)
        act(in_thread, game, cast[seat], {"type": kind})
    raise AssertionError("the hand did not end")


def play_an_ordago_partie(game, cast, in_thread) -> None:
    """Cut, órdago at the Grand, held: the partie ends at its first lance."""
    play_while_playing(game, cast, in_thread, ("cut", "hold", "ordago", "pass", "declare"))


def test_the_partie_page_opens_on_its_story(cast, page_for, in_thread):
    from games.models import Game
    from games.services import salle

    table = in_thread(salle.table_create, user=cast[0], kings=4)
    for number, user in enumerate(cast[1:], start=1):
        in_thread(salle.seat_take, user=user, table_id=table.pk, number=number)
    in_thread(salle.table_start, user=cast[0], table_id=table.pk)
    game = Game.objects.get(table=table)
    play_an_ordago_partie(game, cast, in_thread)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.commitment
    page = page_for(cast[1])
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.goto(f"/parties/{game.pk}/")
        story = page.get_by_role("heading", name="L’histoire de la partie")
        assert in_first_screen(story), size
        assert not page.get_by_text("python -m games.engine").is_visible()
        shoot(page, "partie-page")
    jump = page.locator(".partie-story").get_by_role("link", name="Main n° 1")
    jump.click()
    expect(page).to_have_url(re.compile(r"#main-1$"))
    page.wait_for_timeout(300)  # the scroll to the hand
    assert in_first_screen(page.locator("#main-1-title"))
    expect(page.locator("#main-1-title")).to_contain_text("Main n° 1 · mano")
    expect(page.locator(".replay-nav__where")).to_contain_text("Donne (0 sur")
    expect(page.locator(".partie-commitment")).to_have_text(game.commitment)
    check = page.get_by_role("link", name="Vérifier le mélange dans le navigateur")
    check.click()
    expect(page).to_have_url(re.compile(r"/melange-verifiable/$"))


def test_on_a_phone_the_score_screen_explains_while_the_deal_clock_runs(
    cast, page_for, start_cast_table, in_thread
):
    game = start_cast_table(7)
    play_while_playing(game, cast, in_thread, ("cut", "pass", "hold", "declare"))
    assert game.state["status"] == "hand_over"
    host = page_for(cast[0])
    host.set_viewport_size(PHONE)
    host.goto(game.get_absolute_url())
    expect(host.locator("#score-screen .tclock--running")).to_be_visible()
    host.wait_for_timeout(300)
    shoot(host, "score-screen-host")
    # the first lance's explanation (its winner and why) on the first screen, above the deal bar
    why = host.locator("#score-screen .score-lances__why").first
    bar = host.locator("#score-screen > form").bounding_box()
    box = why.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (box, bar)
