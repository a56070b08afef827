"""The drawn cards: static/cards/ is exactly what scripts/draw_cards.py makes, every card has its
picture, and the table shows a picture of the viewer's own cards only."""

import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.utils.html import escape

from games.display.regions import render_regions
from games.display.table_view import card_view
from games.engine.cards import CARD_CODES
from tests.presentation import observations as O
from tests.presentation.helpers import codes_in, context, render_page, request

ROOT = Path(__file__).resolve().parents[2]
CARDS_DIR = ROOT / "static" / "cards"
SVG = "{http://www.w3.org/2000/svg}"
IMG_RE = re.compile(r'<img class="card__face" src="/static/cards/([0-9]+[oceb])\.svg" alt="">')


def load_generator():
    spec = importlib.util.spec_from_file_location("draw_cards", ROOT / "scripts" / "draw_cards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_cards_are_the_generators_output():
    drawn = load_generator().drawings()
    assert sorted(p.name for p in CARDS_DIR.iterdir()) == sorted(drawn)
    for name, text in drawn.items():
        assert (CARDS_DIR / name).read_text() == text, (
            f"static/cards/{name} was edited by hand: run python scripts/draw_cards.py"
        )


def test_the_deck_is_forty_faces_and_a_back():
    assert sorted(load_generator().drawings()) == sorted(
        [f"{c}.svg" for c in CARD_CODES] + ["back.svg"]
    )


@pytest.mark.parametrize("name", sorted(f"{c}.svg" for c in CARD_CODES) + ["back.svg"])
def test_each_file_is_a_small_standalone_svg(name):
    text = (CARDS_DIR / name).read_text()
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 200 300"
    assert len(text.encode()) < 6000
    for element in root.iter():
        assert element.tag not in (f"{SVG}script", f"{SVG}style", f"{SVG}use", f"{SVG}image")
        assert "style" not in element.attrib
        assert not any(
            str(v).startswith(("http:", "https:"))
            for k, v in element.attrib.items()
            if k != "xmlns"
        )


def test_every_suit_has_its_own_shape_and_colour():
    generator = load_generator()
    mains = [generator.COLOURS[s][0] for s in "oceb"]
    assert len(set(mains)) == 4
    shapes = {s: re.sub(r'"#[0-9a-f]{6}"', "", generator.emblem(s)) for s in "oceb"}
    assert len(set(shapes.values())) == 4
    # espadas vs bastos, the pair hard to tell apart when small: a straight upright blade
    # against a leaning club
    assert "rotate" in shapes["b"] and "rotate" not in shapes["e"]
    for code in CARD_CODES:
        main = generator.COLOURS[code[-1]][0]
        assert main in (CARDS_DIR / f"{code}.svg").read_text()
        others = {m for m in mains if m != main}
        # a figure's crown jewel may be red; the suit colours of the other suits never appear
        text = (CARDS_DIR / f"{code}.svg").read_text()
        if int(code[:-1]) != 12:
            assert not any(m in text for m in others), code


def test_the_rank_is_written_in_two_corners():
    for code in CARD_CODES:
        root = ET.fromstring((CARDS_DIR / f"{code}.svg").read_text())
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert texts == [code[:-1], code[:-1]], code


@pytest.mark.parametrize("kings", [4, 8])
def test_every_card_view_has_an_image_that_exists(kings):
    for code in CARD_CODES:
        image = card_view(code, kings)["image"]
        assert image == f"cards/{code}.svg"
        assert finders.find(image), image


def pictured(html):
    return IMG_RE.findall(html)


def other_codes(viewer):
    return {c for s, cards in O.HANDS.items() if s != viewer for c in cards}


@pytest.mark.parametrize("viewer", range(4))
@pytest.mark.parametrize("make", [O.base, O.discard, O.betting_open])
def test_the_table_pictures_my_four_cards_and_no_one_elses(make, viewer):
    obs = make(viewer)
    page = render_page(obs, O.PLAYERS, viewer)
    push = render_regions(context(obs, O.PLAYERS, viewer), request=request())
    for html in (page, push):
        assert sorted(pictured(html)) == sorted(O.HANDS[viewer])
        assert not codes_in(html) & other_codes(viewer)
        assert html.count('src="/static/cards/') == 4


def test_each_picture_sits_in_the_named_card():
    html = render_page(O.discard(0), O.PLAYERS, 0)
    for code in O.HANDS[0]:
        name = card_view(code, 8)["name"]
        assert re.search(
            rf'data-card="{code}" role="img" aria-label="{re.escape(escape(name))}">'
            rf'<img class="card__face" src="/static/cards/{code}\.svg" alt="">',
            html,
        ), code


def test_eight_rois_still_says_what_a_three_and_a_two_count_as():
    html = render_page(O.base(0), O.PLAYERS, 0)  # 8 rois, seat 0 holds the 3 of copas
    assert re.search(
        r'data-card="3c"[^>]*><img [^>]*><span class="card__counts-as"[^>]*>= roi</span>', html
    )
    html = render_page(O.base(2), O.PLAYERS, 2)  # seat 2 holds the 2 of oros
    assert re.search(
        r'data-card="2o"[^>]*><img [^>]*><span class="card__counts-as"[^>]*>= as</span>', html
    )
    assert html.count("card__counts-as") == 1


def test_the_backs_are_drawn_by_the_same_deck():
    css = (ROOT / "static" / "css" / "cards.css").read_text()
    assert re.search(r"\.card--back \{[^}]*url\(\"\.\./cards/back\.svg\"\)", css)
