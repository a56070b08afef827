"""The table rendered from REAL engine states: random legal parties played with fixed seeds.

At every step, for each of the four seats: the HTML holds no card (code or French name) except
the viewer's own before the showdown, all four hands at the showdown, and the decision panel
offers exactly what ``legal_actions`` lists (the deal button only for the host).
"""

import re

import pytest

from games import engine, vocabulary
from games.display.answers import answer_choices
from games.display.regions import render_regions
from games.engine import SeededShuffler
from tests.presentation.helpers import codes_in, context, field, parse_forms, render_page, request

P = ["Ane", "Bixente", "Camille", "Dani"]
HOST = 0
#: a card's screen-reader name, without what a three or a two counts as with eight kings
NAME_RE = re.compile(r'aria-label="([^"(]+?)(?: \(compte comme un (?:roi|as)\))?"')
CARD_NAMES = {vocabulary.card_name(c) for c in engine.CARD_CODES}


def names_in(html):
    from html import unescape

    return {n for n in map(unescape, NAME_RE.findall(html)) if n in CARD_NAMES}


def check_view(state, seat, html):
    obs = engine.observation(state, seat)
    mine = set(obs["my_cards"] or [])
    shown = obs["hands_shown"]
    if obs["status"] == "playing" or not shown:
        assert codes_in(html) <= mine, f"seat {seat} sees {codes_in(html) - mine}"
        assert names_in(html) <= {vocabulary.card_name(c) for c in mine}
    else:
        everyone = {c for cards in shown.values() for c in cards}
        assert codes_in(html) == everyone
    # Answering a bet, the panel offers only what can still change the team's answer.
    choices, _note = answer_choices(obs, seat, P[(seat + 2) % 4])
    legal = {a["type"] for a in choices}
    if seat != HOST:
        legal.discard("deal")
    offered = {f["type"] for f in parse_forms(html)} - {None}  # None: the page's other forms
    assert offered == legal, (obs["phase"], offered, legal)
    for form in parse_forms(html):
        if form["type"] is not None:
            assert [i["value"] for i in field(form, "version")] == [str(obs["version"])]
    for item in choices:
        if item["type"] in ("bet", "raise"):
            name = "amount" if item["type"] == "bet" else "to"
            numbers = [
                i
                for f in parse_forms(html)
                if f["type"] == item["type"]
                for i in field(f, name)
                if i.get("type") == "number"
            ]
            assert [(int(i["min"]), int(i["max"])) for i in numbers] == [(item["min"], item["max"])]


def render_all(state, seat, full=False):
    obs = engine.observation(state, seat)
    if full:
        return render_page(obs, P, seat, host_seat=HOST)
    return render_regions(context(obs, P, seat, host_seat=HOST), request=request())


def random_action(state, seat, rng, ordagos):
    """A random legal action chosen from legal_actions (and the seat's own observation)."""
    templates = engine.legal_actions(state, seat)
    if not ordagos and len(templates) > 1:
        templates = [t for t in templates if t["type"] != "ordago"]
    t = templates[rng.randbelow(len(templates))]
    if t["type"] == "discard":
        cards = list(engine.observation(state, seat)["my_cards"])
        rng.shuffle(cards)
        return {"type": "discard", "cards": cards[: 1 + rng.randbelow(4)]}
    if t["type"] in ("bet", "raise"):
        top = min(t["max"], t["min"] + 6)
        value = t["min"] + rng.randbelow(top - t["min"] + 1)
        return {"type": t["type"], ("amount" if t["type"] == "bet" else "to"): value}
    return {"type": t["type"]}


@pytest.mark.parametrize(
    ("seed", "ordagos"),
    [(3, False), (11, False), (19, False), (23, False), (42, False), (2024, True), (7, True)],
)
def test_random_parties_never_show_hidden_cards(seed, ordagos):
    rng = SeededShuffler(seed)
    state = engine.new_partie(kings=(4, 8)[seed % 2], first_mano=seed % 4, shuffler=rng)
    steps = showdowns = 0
    while state["status"] != "finished" and steps < 1500:
        for seat in range(4):
            check_view(state, seat, render_all(state, seat, full=steps % 25 == 0))
        if state["status"] == "hand_over":
            showdowns += 1
        seats = engine.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        state = engine.apply(state, seat, random_action(state, seat, rng, ordagos), shuffler=rng)
        steps += 1
    for seat in range(4):
        check_view(state, seat, render_all(state, seat, full=True))
    assert state["status"] == "finished"
    assert showdowns >= (0 if ordagos else 1)


def test_a_fixed_hand_by_hand_with_the_real_engine():
    deck = list(engine.CARD_CODES)
    state = engine.new_partie(kings=4, first_mano=0, decks=[deck])
    hands = {s: engine.observation(state, s)["my_cards"] for s in range(4)}
    html0 = render_all(state, 0, full=True)
    decisions = [f for f in parse_forms(html0) if f["type"] is not None]  # not the leave dialog
    assert [f["labels"] for f in decisions] == [["Mus"], ["Je coupe"]]
    assert "En attente de Ane…" in render_all(state, 2)
    state = engine.apply(state, 0, {"type": "cut"})
    html = render_all(state, 0)
    assert "<li>Ane : Je coupe</li>" in html
    assert codes_in(html) == set(hands[0])
    # everybody passes through the lances until the score screen
    while state["status"] == "playing":
        seat = engine.to_act(state)[0]
        kinds = {a["type"] for a in engine.legal_actions(state, seat)}
        state = engine.apply(state, seat, {"type": "pass" if "pass" in kinds else "hold"})
    assert state["status"] in ("hand_over", "finished")
    for seat in range(4):
        html = render_all(state, seat)
        assert codes_in(html) == {c for cards in hands.values() for c in cards}
        assert "en paso" in html
        assert ("Distribuer la main suivante" in html) == (seat == HOST)
