"""Accessibility in the browser: axe-core (bundled by axe-playwright-python, nothing fetched at
run time) finds no serious or critical violation on any page, at phone and desktop width: the
public pages, the salle, the table in every phase, the admin. And the table has ONE persistent
live region that announces the turn, each public word and each lance result after a push."""

import os

import pytest
from playwright.sync_api import expect

from games.engine import observation
from games.services import play, salle
from tests.browser.axe import WIDTHS, assert_clean, axe_problems, run_axe  # noqa: F401

pytestmark = pytest.mark.browser


def test_public_pages(new_page):
    page = new_page()
    problems = []
    for name, url in [
        ("accueil", "/"),
        ("règles", "/regles/"),
        ("connexion", "/comptes/connexion/"),
        ("inscription", "/comptes/inscription/"),
        ("mot de passe oublié", "/comptes/mot-de-passe/oublie/"),
        ("mélange vérifiable", "/melange-verifiable/"),
    ]:
        page.goto(url)
        problems += axe_problems(page, name)
    # A refused log-in: the form with its errors.
    page.goto("/comptes/connexion/")
    page.get_by_label("Nom d’utilisateur").or_(page.locator("#id_username")).first.fill("nobody")
    page.locator("#id_password").fill("wrong password")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    problems += axe_problems(page, "connexion refusée")
    assert_clean(problems)


def test_salle_empty_and_with_tables(cast, page_for, in_thread):
    page = page_for(cast[0])
    page.goto("/salle/")
    problems = axe_problems(page, "salle vide")
    table = in_thread(salle.table_create, user=cast[1], kings=4)
    in_thread(salle.seat_take, user=cast[2], table_id=table.pk, number=1)
    in_thread(salle.table_create, user=cast[3], kings=8)
    page.goto("/salle/")
    problems += axe_problems(page, "salle avec tables")
    page.goto("/comptes/mot-de-passe/")
    problems += axe_problems(page, "mot de passe")
    page.goto(f"/joueurs/{cast[0].username}/")
    problems += axe_problems(page, "profil")
    page.goto("/classement/")
    problems += axe_problems(page, "classement")
    assert_clean(problems)


# ---------------------------------------------------------------- the table, phase by phase


def acting_seats(game) -> list[int]:
    game.refresh_from_db()
    return [s for s in range(4) if observation(game.state, s)["legal"]]


def an_action(state: dict, seat: int, prefer: tuple[str, ...]) -> dict:
    """The first of `prefer` this seat may do, as the form would post it."""
    legal = {a["type"]: a for a in observation(state, seat)["legal"]}
    kind = next(t for t in prefer if t in legal)
    if kind == "bet":
        return {"type": "bet", "amount": legal["bet"]["min"]}
    if kind == "discard":
        return {"type": "discard", "cards": state["hand"]["cards"][seat][:1]}
    return {"type": kind}


def act(in_thread, game, users, seat: int, action: dict) -> None:
    game.refresh_from_db()
    in_thread(
        play.game_apply_action,
        user=users[seat],
        version=game.version,
        action=action,
        game_id=game.pk,
    )


def play_while(in_thread, game, users, prefer, keep_going) -> None:
    for _ in range(200):
        game.refresh_from_db()
        if not keep_going(game.state):
            return
        seat = acting_seats(game)[0]
        act(in_thread, game, users, seat, an_action(game.state, seat, prefer))
    raise AssertionError("the game did not get there")


def shown(pages, game) -> None:
    """Every page shows the game's current version (the push arrived)."""
    game.refresh_from_db()
    for page in pages:
        expect(page.locator("#decision-panel")).to_have_attribute("data-version", str(game.version))


def test_the_table_in_every_phase(cast, page_for, start_cast_table, in_thread):
    game = start_cast_table(2026)
    pages = [page_for(user) for user in cast]
    for page in pages:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"/tables/{game.table_id}/")
    problems = axe_problems(pages[acting_seats(game)[0]], "table : mus ?")

    play_while(in_thread, game, cast, ("mus",), lambda s: s["phase"] == "mus")
    shown(pages, game)
    problems += axe_problems(pages[0], "table : écart")

    play_while(in_thread, game, cast, ("discard",), lambda s: s["phase"] == "discard")
    act(in_thread, game, cast, acting_seats(game)[0], {"type": "cut"})
    shown(pages, game)
    opener = acting_seats(game)[0]
    problems += axe_problems(pages[opener], "table : ouverture d'un tour")

    act(in_thread, game, cast, opener, an_action(game.state, opener, ("bet",)))
    shown(pages, game)
    problems += axe_problems(pages[acting_seats(game)[0]], "table : réponse à une mise")

    play_while(
        in_thread,
        game,
        cast,
        ("hold", "pass", "cut", "declare"),
        lambda s: s["status"] == "playing",
    )
    shown(pages, game)
    problems += axe_problems(pages[0], "table : écran de score (hôte)")
    problems += axe_problems(pages[1], "table : écran de score")

    act(in_thread, game, cast, 0, {"type": "deal"})
    play_while(
        in_thread,
        game,
        cast,
        ("cut", "ordago", "hold", "pass", "declare"),
        lambda s: s["status"] != "finished",
    )
    expect(pages[0].locator(".partie-over")).to_be_visible()
    problems += axe_problems(pages[0], "table : partie terminée")
    pages[0].goto(f"/parties/{game.pk}/")
    problems += axe_problems(pages[0], "partie : la page")
    pages[0].goto(f"/parties/{game.pk}/?step=3")
    problems += axe_problems(pages[0], "partie : rejeu pas à pas")
    assert_clean(problems)


def test_a_private_table_and_its_invitation(cast, page_for, new_page, in_thread):
    table = in_thread(salle.table_create, user=cast[0], kings=4, private=True)
    invitation = f"/tables/{table.pk}/invitation/{table.invite_token}/"
    host = page_for(cast[0])
    host.goto("/salle/")
    problems = axe_problems(host, "salle : ma table privée")
    guest = page_for(cast[1])
    guest.goto(invitation)
    problems += axe_problems(guest, "invitation")
    visitor = new_page()
    visitor.goto(invitation)
    problems += axe_problems(visitor, "invitation : visiteur")
    visitor.goto(f"/tables/{table.pk}/invitation/{'x' * 43}/")
    problems += axe_problems(visitor, "invitation : lien mort")
    assert_clean(problems)


def test_the_admin(cast, make_user, page_for, start_cast_table):
    game = start_cast_table(7)
    staff = page_for(make_user("gorka", is_staff=True, is_superuser=True))
    problems = []
    for name, url in [
        ("admin : accueil", "/admin/"),
        ("admin : parties", "/admin/games/game/"),
        ("admin : une partie", f"/admin/games/game/{game.pk}/change/"),
        ("admin : rejouer une partie", f"/admin/games/game/{game.pk}/rejouer/"),
        ("admin : tables", "/admin/games/table/"),
        ("admin : joueurs", "/admin/accounts/user/"),
        ("admin : un joueur", f"/admin/accounts/user/{cast[1].pk}/change/"),
    ]:
        staff.goto(url)
        problems += axe_problems(staff, name)
    # A moderator's action with a reason (cancel, void or restore a rating): its form page.
    staff.goto("/admin/games/game/")
    staff.locator(f"input[name=_selected_action][value='{game.pk}']").check()
    staff.locator("select[name=action]").select_option("cancel_games")
    staff.locator("button[name=index], input[name=index]").first.click()
    staff.wait_for_load_state()
    expect(staff.locator("textarea, input[name=reason]").first).to_be_visible()
    problems += axe_problems(staff, "admin : action avec motif")
    assert_clean(problems)


# ---------------------------------------------------------------- the persistent live region


def announced(page) -> str:
    return page.locator("#announcer").text_content() or ""


def test_turns_words_and_lance_results_are_announced_in_one_persistent_region(
    cast, page_for, start_cast_table, in_thread
):
    game = start_cast_table(2026)
    ane, bixente = page_for(cast[0]), page_for(cast[1])
    for page in (ane, bixente):
        page.goto(f"/tables/{game.table_id}/")
        live = page.locator("#announcer")
        expect(live).to_have_attribute("role", "status")
        expect(live).to_have_attribute("aria-live", "polite")
        # Outside every pushed region: the same node for the page's whole life.
        assert live.evaluate("n => !n.closest('[hx-swap-oob], #mus-table')")
        live.evaluate("n => { window.__announcer = n; }")
        expect(live).to_have_text("")  # the loaded page is read, not announced

    assert acting_seats(game) == [0]
    act(in_thread, game, cast, 0, {"type": "mus"})
    expect(bixente.locator("#announcer")).to_have_text(
        "ane : Mus. À vous de parler. Mus ou couper ?"
    )
    expect(ane.locator("#announcer")).to_have_text("ane : Mus.")

    bixente.locator("#decision-panel").get_by_role("button", name="Je coupe").click()
    expect(ane.locator("#announcer")).to_contain_text("bixente : Je coupe")
    expect(bixente.locator("#announcer")).to_contain_text("bixente : Je coupe")

    # A bet refused decides the lance: its result is said with the refusal.
    opener = acting_seats(game)[0]
    act(in_thread, game, cast, opener, {"type": "bet", "amount": 2})
    game.refresh_from_db()
    answering = acting_seats(game)
    for seat in answering:
        act(in_thread, game, cast, seat, {"type": "refuse"})
    for page in (ane, bixente):
        expect(page.locator("#announcer")).to_contain_text("Je ne tiens pas")
        expect(page.locator("#announcer")).to_contain_text("Grand : refusée")
        assert page.evaluate("window.__announcer === document.getElementById('announcer')")


# ---------------------------------------------------------------- the first minute (issue 33)


def test_the_first_minute_pages(cast, page_for, start_cast_table, in_thread, settings):
    """The pages and states issue 33 added: the landing page of a player (the robots' door), a
    seated player's salle with the wait and the robots offer shown, and a table whose clock ran
    out on the viewer (the panel's note, the seat's line for the others)."""
    from datetime import timedelta

    from games.models import Table

    ane = page_for(cast[0])
    ane.goto("/")
    problems = axe_problems(ane, "accueil : joueur connecté")
    table = in_thread(salle.table_create, user=cast[0], kings=4)
    in_thread(salle.seat_take, user=cast[1], table_id=table.pk, number=1)
    Table.objects.filter(pk=table.pk).update(
        created=table.created - timedelta(seconds=settings.ROBOT_OFFER_SECONDS + 1)
    )
    guest = page_for(cast[1])
    guest.goto("/salle/")
    expect(guest.get_by_role("button", name="Compléter avec des robots")).to_be_visible()
    problems += axe_problems(guest, "salle : attente et offre de robots")
    in_thread(salle.seat_leave, user=cast[1], table_id=table.pk)
    in_thread(salle.seat_leave, user=cast[0], table_id=table.pk)

    game = start_cast_table(2026)
    game.clock["seats"][0].update(misses=1, reserve_ms=0)
    game.save(update_fields=["clock"])
    for user, name in (
        (cast[0], "table : temps écoulé (le joueur)"),
        (cast[1], "table : temps écoulé (la table)"),
    ):
        page = page_for(user)
        page.goto(f"/tables/{game.table_id}/")
        if user == cast[0]:
            expect(page.locator(".tpanel__clock-note")).to_be_visible()
        else:
            expect(page.locator(".tseat__misses")).to_be_visible()
        problems += axe_problems(page, name)
    assert_clean(problems)


def test_the_parejas_pages(cast, page_for, in_thread):
    """« Mes parejas » with a proposal to answer, a pareja's page with its rated parties, the
    classement des parejas with it, a profile listing pairs, the salle's pair forms and a
    seated pair."""
    from pairs import services as pairs
    from tests.pairs.helpers import form_pair
    from tests.records.helpers import play_out, start

    ane, bixente, camille, dani = cast
    pair = in_thread(form_pair, ane, camille)
    in_thread(pairs.pair_propose, user=dani, partner_name="ane", name="Hegoak")
    for seed in range(1, 6):
        in_thread(lambda seed=seed: play_out(start(cast), seed))
    page = page_for(ane)
    problems = []
    for name, url in [
        ("mes parejas", "/mes-parejas/"),
        ("pareja", pair.get_absolute_url()),
        ("classement des parejas", "/classement/parejas/"),
        ("profil avec parejas", "/joueurs/camille/"),
        ("salle avec pareja", "/salle/"),
    ]:
        page.goto(url)
        problems += axe_problems(page, name)
        keep_shots(page, name)
    expect(page.locator("#salle")).to_have_attribute("data-pushed", "1")
    page.get_by_role("button", name="À deux · Mus · 4 rois").click()
    expect(page.locator("#salle .my-seat")).to_contain_text("Vous jouez en pareja")
    problems += axe_problems(page, "salle, pareja assise")
    assert_clean(problems)


def keep_shots(page, name: str) -> None:
    """SHOTS_DIR=/some/dir keeps the page at both widths, to look at."""
    folder = os.environ.get("SHOTS_DIR")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{folder}/{name.replace(' ', '-')}-{width}.png", full_page=True)
