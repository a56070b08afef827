"""A push never loses what the player is doing: the cards checked for the discard, an amount
typed, the focused control stay; when the turn comes to the player, the focus goes to the first
action; each decision has a key (static/js/keep.js, static/js/shortcuts.js)."""

import pytest
from playwright.sync_api import expect

from games.engine import observation
from games.services import play

pytestmark = pytest.mark.browser

#: each page notes its socket's opening, when (performance.now()) the last push arrived and when
#: the focus last moved, to measure a push -> the focused first action.
RECORD_PUSHES = """
window.__pushAt = null; window.__focusAt = null; window.__wsOpen = false;
document.addEventListener("htmx:wsOpen", function () { window.__wsOpen = true; });
document.addEventListener("htmx:wsBeforeMessage", function () {
  window.__pushAt = performance.now();
});
document.addEventListener("focusin", function () { window.__focusAt = performance.now(); });
"""


@pytest.fixture
def table(cast, start_cast_table, in_thread):
    """The cast's table (ane first to speak, seat 0), and act(seat, action) for a player who is
    not in a browser: the service writes, the pages get the push."""
    game = start_cast_table(2026)

    def act(seat, action):
        game.refresh_from_db()
        in_thread(
            play.game_apply_action,
            user=cast[seat],
            version=game.version,
            action=action,
            game_id=game.pk,
        )
        game.refresh_from_db()
        return game.version

    return game, act


def open_table(page_for, user, game):
    page = page_for(user)
    page.add_init_script(RECORD_PUSHES)
    page.goto(f"/tables/{game.table_id}/")
    page.wait_for_function("() => window.__wsOpen")
    return page


def wait_version(page, version):
    expect(page.locator("#decision-panel")).to_have_attribute("data-version", str(version))


def focused(page) -> str:
    """The focused element, as `tag#id[name=value]` or its text."""
    return page.evaluate(
        """() => { const e = document.activeElement;
        if (!e || e === document.body) return "body";
        return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
          + (e.value && e.tagName !== "BUTTON" ? "=" + e.value : "")
          + (e.tagName === "BUTTON" ? ":" + e.getAttribute("aria-keyshortcuts") : ""); }"""
    )


def tabs_to_first_action(page) -> int:
    """Tab presses from the current focus to the decision panel's first button."""
    first = page.locator("#decision-panel button[type=submit]").first
    for presses in range(1, 80):
        page.keyboard.press("Tab")
        if first.evaluate("b => b === document.activeElement"):
            return presses
    raise AssertionError("Tab never reached the first action")


def test_a_partners_discard_keeps_my_checked_cards_and_focus(table, cast, page_for):
    game, act = table
    for seat in range(4):
        version = act(seat, {"type": "mus"})
    page = open_table(page_for, cast[0], game)
    codes = game.state["hand"]["cards"][0]
    boxes = [page.locator(f"#my-hand input[value='{code}']") for code in codes]
    page.locator(f"#my-hand [data-card='{codes[0]}']").click()  # the card is the box's label
    page.locator(f"#my-hand [data-card='{codes[2]}']").click()
    boxes[2].focus()

    version = act(2, {"type": "discard", "cards": game.state["hand"]["cards"][2][:1]})
    wait_version(page, version)

    expect(boxes[0]).to_be_checked()
    expect(boxes[2]).to_be_checked()
    expect(boxes[1]).not_to_be_checked()
    assert focused(page) == f"input={codes[2]}"
    # and the kept choice is the one sent
    page.keyboard.press("e")
    expect(page.locator("#my-hand input[type=checkbox]")).to_have_count(0)
    game.refresh_from_db()
    assert observation(game.state, 0)["discard_ready"][0]


def test_a_partners_answer_keeps_the_amount_i_typed(table, cast, page_for):
    game, act = table
    act(0, {"type": "cut"})
    act(0, {"type": "bet", "amount": 2})
    page = open_table(page_for, cast[1], game)
    amount = page.locator("#raise-to")
    amount.fill("12")
    page.keyboard.press("t")  # typing in the field: not "Je tiens"
    page.wait_for_timeout(300)
    game.refresh_from_db()
    assert "1" not in game.state["hand"]["betting"]["votes"]

    version = act(3, {"type": "hold"})  # dani, my partner, holds
    wait_version(page, version)

    expect(amount).to_have_value("12")
    assert focused(page) == "input#raise-to=12"
    page.keyboard.press("Enter")  # the amount kept is the one sent
    expect(page.locator("#raise-to")).to_have_count(0)
    game.refresh_from_db()
    words = [w for w in game.state["hand"]["words"] if w.get("type") == "raise"]
    assert words and words[-1]["to"] == 12


def test_my_turn_takes_the_focus_and_the_others_keep_theirs(table, cast, page_for):
    game, act = table
    answering = open_table(page_for, cast[1], game)  # bixente answers ane's bet
    partner = open_table(page_for, cast[2], game)  # camille, ane's partner, only watches
    partner.locator("#hand-log").focus()

    version = act(0, {"type": "cut"})
    wait_version(answering, version)
    assert focused(answering) == "body"  # not my turn yet: nothing moves
    version = act(0, {"type": "bet", "amount": 2})
    wait_version(answering, version)

    hold = answering.locator("#decision-panel").get_by_role("button", name="Je tiens", exact=True)
    expect(hold).to_be_focused()
    delay = answering.evaluate("window.__focusAt - window.__pushAt")
    wait_version(partner, version)
    expect(partner.locator("#hand-log")).to_be_focused()

    # The numbers of the closing note: Tab presses from the focus after a push to the first
    # action, now (0) and as it was (the focus on <body>).
    answering.evaluate("document.activeElement.blur()")
    before = tabs_to_first_action(answering)
    print(f"\npush -> focused first action: {delay:.1f} ms; Tab presses: 0 now, {before} before")
    assert 0 <= delay < 500


def test_a_key_sends_the_decision_shown_on_its_button(table, cast, page_for):
    game, act = table
    page = open_table(page_for, cast[0], game)
    mus = page.locator("#decision-panel").get_by_role("button", name="Mus", exact=True)
    expect(mus).to_be_focused()  # the page opened on my turn starts at my first action
    expect(mus).to_have_attribute("aria-keyshortcuts", "M")
    expect(mus.locator("kbd")).to_have_text("M")
    page.keyboard.press("Control+m")  # a modifier: the browser's, not ours
    page.keyboard.press("m")
    expect(page.locator("#decision-panel button[type=submit]")).to_have_count(0)
    game.refresh_from_db()
    assert game.state["hand"]["words"][-1]["type"] == "mus"
    assert game.state["hand"]["words"][-1]["seat"] == 0
    assert len(game.state["hand"]["words"]) == 1
