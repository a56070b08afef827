"""Four players at one live table in four browsers: they play by clicking, each page shows its
own cards and only card backs for the others, every move reaches the four pages."""

import re
import statistics

import pytest
from playwright.sync_api import expect

from games.engine import observation
from games.models import GameSeat

pytestmark = pytest.mark.browser

BUTTONS = {
    "mus": "Mus",
    "cut": "Je coupe",
    "pass": "Je passe",
    "hold": "Je tiens",
    "refuse": "Je ne tiens pas",
    "ordago": "Órdago",
    "deal": "Distribuer la main suivante",
}
TOTALS = re.compile(r"Total : Nous (\d+) · Eux (\d+)")
#: each page notes when (epoch ms) it first showed each version and when it last posted: the
#: latency benchmark (decision sent, up the socket or POSTed -> the fourth page shows the new
#: version)
RECORD_VERSIONS = """
window.__seen = {};
new MutationObserver(function () {
  var panel = document.getElementById("decision-panel");
  if (panel && !(panel.dataset.version in window.__seen)) {
    window.__seen[panel.dataset.version] = performance.timeOrigin + performance.now();
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
["htmx:beforeRequest", "htmx:wsBeforeSend"].forEach(function (name) {
  document.addEventListener(name, function () {
    window.__posted = performance.timeOrigin + performance.now();
  });
});
"""


@pytest.fixture
def table_pages(cast, page_for, start_cast_table):
    """The cast seated at one table started with fixed decks (first mano: ane), four pages."""
    game = start_cast_table(2026)
    pages = [page_for(user) for user in cast]
    for page in pages:
        page.add_init_script(RECORD_VERSIONS)
        page.goto(f"/tables/{game.table_id}/")
    return game, pages


def state_of(game) -> dict:
    game.refresh_from_db()
    return game.state


def wait_version(pages, version):
    for page in pages:
        expect(page.locator("#decision-panel")).to_have_attribute("data-version", str(version))


def click(page, action: dict):
    panel = page.locator("#decision-panel")
    if action["type"] == "discard":
        for code in action["cards"]:
            page.locator(f"#my-hand [data-card='{code}']").click()  # the card is the label
            expect(page.locator(f"#my-hand input[value='{code}']")).to_be_checked()
        panel.get_by_role("button", name="Écarter").click()
    elif action["type"] == "bet":
        panel.get_by_role("button", name=f"Mise {action['amount']}", exact=True).click()
    elif action["type"] == "deal":
        page.locator("#score-screen").get_by_role("button", name=BUTTONS["deal"]).click()
    else:
        panel.get_by_role("button", name=BUTTONS[action["type"]], exact=True).click()


def play_until(game, pages, choose, done, latencies):
    """Click `choose(state, seat, legal types)` for a seat that may act, until `done(state)`."""
    for _ in range(200):
        state = state_of(game)
        if done(state):
            return state
        seat, legal = next(
            (s, {a["type"] for a in observation(state, s)["legal"]})
            for s in range(4)
            if observation(state, s)["legal"]
        )
        action = choose(state, seat, legal)
        click(pages[seat], action)
        wait_version(pages, state["version"] + 1)
        seen = [p.evaluate(f"window.__seen['{state['version'] + 1}']") for p in pages]
        latencies.append(max(seen) - pages[seat].evaluate("window.__posted"))
    raise AssertionError("the hand did not end")


def check_own_cards_only(game, pages):
    state = state_of(game)
    for seat, page in enumerate(pages):
        codes = state["hand"]["cards"][seat]
        expect(page.locator("#my-hand [data-card]")).to_have_count(4)
        for code in codes:
            expect(page.locator(f"#my-hand [data-card='{code}']")).to_be_visible()
        expect(page.locator("[data-card]")).to_have_count(4)  # nowhere else on the page
        expect(page.locator("#table-seats .card--back")).to_have_count(12)


def a_whole_hand(state, seat, legal):
    """Two mus rounds with discards, then cut; a bet refused at grand, held at petit."""
    hand = state["hand"]
    if "mus" in legal:
        return {"type": "mus" if len(hand["discard_rounds"]) < 2 else "cut"}
    if "discard" in legal:
        count = len(hand["discard_rounds"]) + 1
        return {"type": "discard", "cards": hand["cards"][seat][:count]}
    lance = hand["lance"]
    if "bet" in legal and lance in ("grand", "petit"):
        return {"type": "bet", "amount": 5 if lance == "grand" else 2}
    if "pass" in legal:
        return {"type": "pass"}
    return {"type": "refuse" if lance == "grand" else "hold"}


def print_latencies(latencies):
    ms = sorted(latencies)
    print(
        f"\nPOST -> four browsers updated ({len(ms)} decisions, daphne + Redis + chromium): "
        f"p50 {statistics.median(ms):.0f} ms, max {ms[-1]:.0f} ms"
    )


def test_four_players_play_a_whole_hand_by_clicking(table_pages, cast):
    game, pages = table_pages
    check_own_cards_only(game, pages)
    latencies = []
    state = play_until(
        game,
        pages,
        a_whole_hand,
        lambda s: s["status"] != "playing" or s["phase"] == "lance",
        latencies,
    )
    assert len(state["hand"]["discard_rounds"]) == 2
    check_own_cards_only(game, pages)  # the new cards after two discards, still only mine
    for page in pages:
        expect(page.locator("#table-seats")).to_contain_text("a changé 1, 2")
    state = play_until(game, pages, a_whole_hand, lambda s: s["status"] != "playing", latencies)
    outcomes = {r["lance"]: r["outcome"] for r in state["hands"][0]["lances"]}
    assert outcomes["grand"] == "refused" and outcomes["petit"] == "held"

    scores = state["scores"]
    for seat, page in enumerate(pages):
        screen = page.locator("#score-screen")
        expect(screen).to_be_visible()
        expect(screen.locator("[data-card]")).to_have_count(16)  # the showdown: all four hands
        expect(screen).to_contain_text("refusée")
        expect(screen).to_contain_text("tenue")
        totals = TOTALS.search(screen.locator(".score-screen__totals").inner_text())
        assert (int(totals[1]), int(totals[2])) == (scores[seat % 2], scores[1 - seat % 2])
    expect(pages[0].locator("#score-screen")).to_contain_text(BUTTONS["deal"])
    for page in pages[1:]:
        expect(page.locator("#score-screen")).to_contain_text("ane distribue la main suivante.")
        expect(page.locator("#score-screen").get_by_role("button")).to_have_count(0)

    click(pages[0], {"type": "deal"})
    wait_version(pages, state["version"] + 1)
    for page in pages:
        expect(page.locator("#score-screen")).to_be_hidden()
        expect(page.locator("#scoreboard")).to_contain_text("main n° 2")
    check_own_cards_only(game, pages)
    print_latencies(latencies)


def ordago_at_grand(state, seat, legal):
    """The mano cuts; ordago at grand, held; everyone passes whatever else is asked."""
    if "mus" in legal:
        return {"type": "cut"}
    if "ordago" in legal and state["hand"]["lance"] == "grand" and "pass" in legal:
        return {"type": "ordago"}
    if "hold" in legal:
        return {"type": "hold"}
    return {"type": "pass"}


def test_a_partie_ends_with_a_held_ordago(table_pages, cast):
    game, pages = table_pages
    state = play_until(game, pages, ordago_at_grand, lambda s: s["status"] != "playing", [])
    assert state["status"] == "finished"
    winner = state["winner"]
    for seat, page in enumerate(pages):
        over = page.locator(".partie-over")
        expect(over).to_be_visible()
        if seat % 2 == winner:
            expect(over).to_contain_text("Vous avez gagné la partie !")
        else:
            expect(over).to_contain_text("Eux gagnent la partie.")
        expect(over.get_by_role("link", name="Retour à la salle")).to_be_visible()
        expect(page.locator("#score-screen")).to_contain_text("órdago")
    game.refresh_from_db()
    assert game.status == "finished" and game.winning_team == winner
    results = dict(GameSeat.objects.filter(game=game).values_list("number", "result"))
    assert results == {s: "won" if s % 2 == winner else "lost" for s in range(4)}
    pages[1].locator(".partie-over").get_by_role("link", name="Retour à la salle").click()
    expect(pages[1]).to_have_url(re.compile(r"/salle/$"))
    expect(pages[1].locator("#salle")).to_contain_text("Ouvrir la table")  # free to play again
