"""The verifiable shuffle in a real browser: the explainer page's Web Crypto derivation
(static/js/verify-shuffle.js) gives the engine's decks and first mano for the same inputs,
its in-browser check accepts a real partie's record and refuses a changed one, and the salle's
forms sit the player with the seed their browser proposed."""

import json
import re

import pytest
from playwright.sync_api import expect

from games.engine import FairDeal, robot_seed
from games.models import Game, Table
from games.services import play, salle
from tests.games.helpers import fair_start

pytestmark = pytest.mark.browser

INPUTS = [
    (bytes(range(32)).hex(), ["alice", "b0b", "0123456789abcdef", "z"]),
    ("ff" * 32, ["0", "1", "2", "3"]),
    ("0a1b2c3d" * 8, ["a" * 64, "9" * 64, "m", "x1y2"]),
]


def test_the_browser_derives_the_engines_decks(new_page):
    page = new_page()
    page.goto("/melange-verifiable/")
    for server_seed, seeds in INPUTS:
        derived = page.evaluate(
            "([seed, seeds]) => window.BarajamosFairness.derive(seed, seeds, 4)",
            [server_seed, seeds],
        )
        deal = FairDeal(bytes.fromhex(server_seed), seeds)
        assert derived == {
            "commitment": deal.commitment,
            "first_mano": deal.first_mano(),
            "decks": [deal.deck(k) for k in range(1, 5)],
        }


def test_the_in_browser_check_accepts_a_real_record_and_refuses_a_changed_one(
    transactional_db, full_table, new_page, in_thread
):
    from games.display.dossier import partie_dossier

    game = in_thread(fair_start, full_table)
    in_thread(play.game_finish, game=game, status="cancelled", reason="Test.", by=None)
    game = Game.objects.get(pk=game.pk)
    record = partie_dossier(game)
    page = new_page()
    page.goto("/melange-verifiable/")
    page.fill("#verify-record", json.dumps(record))
    page.click("#verify-form button[type=submit]")
    summary = page.locator("[data-verify-summary]")
    expect(summary).to_have_attribute("data-verify-summary", "ok")
    expect(page.locator(".verify-checks .is-fail")).to_have_count(0)
    record["decks"][0][5], record["decks"][0][6] = record["decks"][0][6], record["decks"][0][5]
    page.fill("#verify-record", json.dumps(record))
    page.click("#verify-form button[type=submit]")
    expect(summary).to_have_attribute("data-verify-summary", "fail")
    expect(page.locator(".verify-checks .is-fail")).to_contain_text("Paquet de la main 1")


def test_sitting_uses_the_seed_the_browser_proposed(transactional_db, cast, page_for, in_thread):
    table = in_thread(salle.table_create, user=cast[0], kings=4)
    page = page_for(cast[1])
    page.goto("/salle/")
    proposed = page.locator(f"#table-{table.pk} li[data-seat='1'] input[name=seed]")
    expect(proposed).to_have_value(re.compile(r"^[0-9a-f]{32}$"))
    value = proposed.input_value()
    page.locator(f"#table-{table.pk} li[data-seat='1'] button[type=submit]").click()
    edit = page.locator("input[data-seed-edit]")
    expect(edit).to_have_value(value)
    assert table.seats.get(user=cast[1]).client_seed == value
    page.locator(f"#my-seed-{table.pk}-box summary").click()  # one click away
    page.locator("button[data-seed-random]").click()
    expect(edit).not_to_have_value(value)
    shown = page.locator(f"#table-{table.pk} li[data-seat='1'] .seat-seed")
    for _ in range(3):
        # A salle push that replaces the form while Playwright fills it takes the typing with
        # the old field (a person's keystrokes are kept: static/js/seed.js); fill again then.
        page.fill("input[data-seed-edit]", "bixente")
        page.locator(".seed-form button[type=submit]").click()
        try:
            expect(shown).to_contain_text("bixente", timeout=3000)
            break
        except AssertionError:
            continue
    expect(shown).to_contain_text("bixente")
    assert table.seats.get(user=cast[1]).client_seed == "bixente"


def synthetic_record(origins: list[str], seeds: list[str]) -> dict:
    """What the in-browser check reads of a record: the fairness block, the first mano and
    the first two decks (the check derives; replaying is the command's)."""
    server_seed = bytes(range(32))
    deal = FairDeal(server_seed, seeds)
    return {
        "kings": 4,
        "first_mano": deal.first_mano(),
        "decks": [deal.deck(1), deal.deck(2)],
        "reshuffles": [],
        "actions": [],
        "fairness": {
            "version": 1,
            "server_seed": server_seed.hex(),
            "commitment": deal.commitment,
            "client_seeds": seeds,
            "seed_origins": origins,
            "reshuffle_labels": [],
        },
    }


def check_in_browser(page, record: dict) -> None:
    page.fill("#verify-record", json.dumps(record))
    page.click("#verify-form button[type=submit]")


def test_the_in_browser_check_says_whether_the_proof_holds(new_page):
    commitment = FairDeal(bytes(range(32)), ["0"] * 4).commitment
    robots = [robot_seed(commitment, seat) for seat in range(4)]
    page = new_page()
    page.goto("/melange-verifiable/")
    check_in_browser(
        page, synthetic_record(["person", "robot", "robot", "robot"], ["ane", *robots[1:]])
    )
    proof = page.locator("[data-verify-proof]")
    expect(proof).to_have_attribute("data-verify-proof", "holds")
    expect(proof).to_contain_text("La preuve tient : la graine de la place 1")
    expect(page.locator(".verify-checks .is-ok")).to_contain_text(
        ["Graine du robot de la place 2 : suit la règle publique"]
    )
    check_in_browser(
        page, synthetic_record(["site", "robot", "robot", "robot"], ["ane", *robots[1:]])
    )
    expect(proof).to_have_attribute("data-verify-proof", "none")
    expect(page.locator("[data-verify-summary]")).to_have_attribute("data-verify-summary", "ok")


def test_the_in_browser_check_fails_a_robot_seed_off_the_rule(new_page):
    commitment = FairDeal(bytes(range(32)), ["0"] * 4).commitment
    ground = ["ane", "7101", robot_seed(commitment, 2), robot_seed(commitment, 3)]
    page = new_page()
    page.goto("/melange-verifiable/")
    check_in_browser(page, synthetic_record(["person", "robot", "robot", "robot"], ground))
    expect(page.locator("[data-verify-summary]")).to_have_attribute("data-verify-summary", "fail")
    expect(page.locator(".verify-checks .is-fail")).to_have_text(
        [f"✗ Graine du robot de la place 2 : la règle donne {robot_seed(commitment, 1)}"]
    )


def test_practice_shows_its_commitment_then_sits_with_the_browser_seed(
    transactional_db, cast, page_for
):
    page = page_for(cast[0])
    page.goto("/salle/")
    box = page.locator("#seed-practice-box")
    expect(box.locator("input[data-seed-propose]")).not_to_be_visible()  # one click away
    box.locator("summary").click()
    shown = box.locator("[data-next-commitment]").inner_text()
    field = box.locator("input[data-seed-propose]")
    expect(field).to_have_value(re.compile(r"^[0-9a-f]{32}$"))
    field.fill("maddi")
    page.locator(".practice-table button[type=submit]").click()
    # The form's answer and the salle socket's redirect both lead to the table: the second can
    # abort the first's navigation, so wait for where the page is, not for one navigation.
    expect(page).to_have_url(re.compile(r"/tables/\d+/"), timeout=10000)
    table = Table.objects.get(host=cast[0])
    assert table.commitment == shown
    game = Game.objects.get(table=table)
    assert game.client_seeds[0] == "maddi"
    assert game.seed_origins == ["person", "robot", "robot", "robot"]


def test_the_seed_boxes_and_the_proof_pass_axe_at_both_widths(
    transactional_db, cast, page_for, in_thread
):
    """The « Mélange vérifiable : votre graine » boxes opened (not seated, then seated) and the
    in-browser check's verdict: no serious or critical violation at phone and desktop width."""
    from tests.browser.axe import axe_problems

    table = in_thread(salle.table_create, user=cast[0], kings=4)
    page = page_for(cast[1])
    page.goto("/salle/")
    for summary in page.locator("details.seed-choice summary").all():
        summary.click()
    expect(page.locator("details.seed-choice[open]")).to_have_count(4)
    problems = axe_problems(page, "salle, seed boxes open")
    page.locator(f"#table-{table.pk} li[data-seat='1'] button[type=submit]").click()
    page.locator(f"#my-seed-{table.pk}-box summary").click()
    expect(page.locator(f"#my-seed-{table.pk}")).to_be_visible()
    problems += axe_problems(page, "salle, own seed box open")
    page.goto("/melange-verifiable/")
    commitment = FairDeal(bytes(range(32)), ["0"] * 4).commitment
    robots = [robot_seed(commitment, seat) for seat in range(4)]
    check_in_browser(
        page, synthetic_record(["site", "robot", "robot", "robot"], ["a", *robots[1:]])
    )
    expect(page.locator("[data-verify-proof]")).to_have_attribute("data-verify-proof", "none")
    problems += axe_problems(page, "fair shuffle, proof does not hold")
    assert problems == []
