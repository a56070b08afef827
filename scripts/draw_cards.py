"""Draw the Spanish deck as SVG files: static/cards/<code>.svg (``1o`` .. ``12b``) and back.svg.

    python scripts/draw_cards.py          # rewrite static/cards/
    python scripts/draw_cards.py --check  # exit 1 when a committed file differs

The files are committed and never edited by hand (tests/site/test_cards.py compares them with
this script's output). Standard library only.

Drawn for a phone, where a card is about 45 px wide: every suit has its own shape AND colour
(oros a gold coin, copas a red cup, espadas a blue straight sword standing upright, bastos a
thick green knotted club leaning over), the rank is large in two corners, ranks 1-7 lay their pips
out by count, and the figures are simple silhouettes holding their suit: the sota a standing
page in a cap, the caballo a rider on a horse, the rey a crowned and bearded king in a robe.
Each file stands alone (an <img> cannot share <symbol>s across files), so the shapes are a few
plain paths. The 8-rois note ("= roi") is not drawn here: the page writes it over the card.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "static" / "cards"

RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
SUITS = ("o", "c", "e", "b")
WIDTH, HEIGHT = 200, 300

#: per suit: main colour, dark (outline and rank), light (clothes' trim)
COLOURS = {
    "o": ("#e8a600", "#6e4600", "#f8d76b"),
    "c": ("#d32f2f", "#7a1212", "#f6b3b3"),
    "e": ("#2a62c9", "#0d2b66", "#b4cbf2"),
    "b": ("#3b8f36", "#1a4d17", "#b5dcab"),
}
SKIN, SKIN_LINE, PAPER, FRAME = "#f3c892", "#6b4a2b", "#fffdf5", "#8a7f6a"


def num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def emblem(suit: str) -> str:
    """The suit's shape in a 100-unit box centred on 0,0."""
    main, dark, light = COLOURS[suit]
    if suit == "o":  # a coin: rim, ring, centre
        return (
            f'<circle r="46" fill="{main}" stroke="{dark}" stroke-width="7"/>'
            f'<circle r="25" fill="{light}" stroke="{dark}" stroke-width="6"/>'
            f'<circle r="8" fill="{dark}"/>'
        )
    if suit == "c":  # a cup: rim, bowl, stem, foot
        return (
            f'<path d="M-42-38H42Q42 10 7 14V30Q26 34 30 48H-30Q-26 34-7 30V14Q-42 10-42-38Z" '
            f'fill="{main}" stroke="{dark}" stroke-width="6" stroke-linejoin="round"/>'
            f'<rect x="-46" y="-48" width="92" height="13" rx="5" fill="{dark}"/>'
        )
    if suit == "e":  # a straight sword pointing up: blade, crossguard, grip, pommel
        return (
            f'<path d="M0-54L17-34V16H-17V-34Z" fill="{main}" stroke="{dark}" stroke-width="6" '
            f'stroke-linejoin="round"/>'
            f'<path d="M0-40V14" stroke="{light}" stroke-width="4"/>'
            f'<rect x="-36" y="14" width="72" height="14" rx="6" fill="{dark}"/>'
            f'<rect x="-7" y="27" width="14" height="14" fill="{dark}"/>'
            f'<circle cy="45" r="8" fill="{dark}"/>'
        )
    # bastos: a thick club, wide at the top, leaning, with knots cut on both sides
    return (
        '<g transform="rotate(-28)">'
        f'<path d="M-9 50L-20-28Q-22-52 0-52Q22-52 20-28L9 50Q0 56-9 50Z" fill="{main}" '
        f'stroke="{dark}" stroke-width="6" stroke-linejoin="round"/>'
        f'<circle cx="-19" cy="-14" r="7" fill="{dark}"/>'
        f'<circle cx="17" cy="4" r="7" fill="{dark}"/>'
        f'<circle cx="-13" cy="24" r="6" fill="{dark}"/>'
        f'<path d="M-4-40Q-8-10-2 38" fill="none" stroke="{light}" stroke-width="4"/>'
        "</g>"
    )


def place(suit: str, x: float, y: float, size: float, rotate: float = 0) -> str:
    turn = f" rotate({num(rotate)})" if rotate else ""
    transform = f"translate({num(x)} {num(y)}){turn} scale({num(size / 100)})"
    return f'<g transform="{transform}">{emblem(suit)}</g>'


#: pips of ranks 1-7: (x, y) centres and one size
PIPS: dict[int, tuple[float, list[tuple[float, float]]]] = {
    1: (104, [(100, 150)]),
    2: (62, [(100, 88), (100, 212)]),
    3: (54, [(100, 78), (100, 150), (100, 222)]),
    4: (50, [(72, 96), (128, 96), (72, 204), (128, 204)]),
    5: (46, [(72, 90), (128, 90), (100, 150), (72, 210), (128, 210)]),
    6: (44, [(x, y) for y in (80, 150, 220) for x in (72, 128)]),
    7: (40, [(x, y) for y in (72, 150, 228) for x in (70, 130)] + [(100, 111)]),
}


def corner(suit: str, rank: int) -> str:
    """The rank, large, over a small emblem; drawn top left, and turned for bottom right."""
    dark = COLOURS[suit][1]
    size = 60 if rank < 10 else 48
    spacing = "" if rank < 10 else ' letter-spacing="-3"'
    index = f'<text x="28" y="56" font-size="{size}"{spacing} fill="{dark}">{rank}</text>' + place(
        suit, 28, 86, 30
    )
    return index + f'<g transform="rotate(180 100 150)">{index}</g>'


def sota(suit: str) -> str:
    """A page standing, in a cap, the suit held out at his side."""
    main, dark, light = COLOURS[suit]
    return (
        f'<path d="M86 218V262H78M114 218V262H122" fill="none" stroke="#4a3524" stroke-width="11" '
        f'stroke-linejoin="round"/>'
        f'<path d="M80 122H120L134 222H66Z" fill="{main}" stroke="{dark}" stroke-width="4" '
        f'stroke-linejoin="round"/>'
        f'<path d="M74 176H126" stroke="{dark}" stroke-width="6"/>'
        f'<path d="M88 122L100 150L112 122" fill="{light}" stroke="{dark}" stroke-width="3"/>'
        f'<path d="M82 128L66 178M118 128L136 150" fill="none" stroke="{dark}" stroke-width="10" '
        f'stroke-linecap="round"/>'
        f'<circle cx="100" cy="100" r="18" fill="{SKIN}" stroke="{SKIN_LINE}" stroke-width="3"/>'
        f'<path d="M78 92Q80 70 104 72Q124 74 124 90Z" fill="{dark}"/>'
        f'<path d="M118 78Q140 60 146 70Q134 74 122 86Z" fill="{light}" stroke="{dark}" '
        f'stroke-width="2"/>' + place(suit, 150, 150, 52)
    )


def caballo(suit: str) -> str:
    """A rider on a horse walking right, the suit raised in his hand."""
    main, dark, light = COLOURS[suit]
    horse, horse_dark = "#9a6331", "#4e2e12"
    return (
        f'<path d="M70 212V262M84 214V262M126 214V262M140 210V262" stroke="{horse_dark}" '
        f'stroke-width="9" stroke-linecap="round"/>'
        f'<path d="M58 196Q40 210 44 240Q54 222 62 210Z" fill="{horse_dark}"/>'
        f'<path d="M56 192Q56 170 84 170H126L148 128L174 140L172 154L156 150L150 196Q146 220 '
        f'120 220H80Q56 220 56 192Z" fill="{horse}" stroke="{horse_dark}" stroke-width="4" '
        f'stroke-linejoin="round"/>'
        f'<path d="M146 130L152 116L160 134" fill="{horse}" stroke="{horse_dark}" '
        f'stroke-width="3"/>'
        f'<circle cx="160" cy="138" r="3" fill="{horse_dark}"/>'
        f'<path d="M84 172H122L120 196H86Z" fill="{light}" stroke="{dark}" stroke-width="3"/>'
        f'<path d="M98 176V210L106 214" fill="none" stroke="{dark}" stroke-width="9" '
        f'stroke-linecap="round"/>'
        f'<path d="M86 176L92 124H116L118 176Z" fill="{main}" stroke="{dark}" stroke-width="4" '
        f'stroke-linejoin="round"/>'
        f'<path d="M94 130L74 116" stroke="{dark}" stroke-width="9" stroke-linecap="round"/>'
        f'<circle cx="104" cy="106" r="15" fill="{SKIN}" stroke="{SKIN_LINE}" stroke-width="3"/>'
        f'<path d="M86 100Q88 82 106 84Q122 86 124 100Z" fill="{dark}"/>' + place(suit, 68, 116, 46)
    )


def rey(suit: str) -> str:
    """A king in a long robe and a gold crown, bearded, holding his suit."""
    main, dark, light = COLOURS[suit]
    gold, gold_dark = "#f2c230", "#7a5600"
    return (
        '<path d="M74 130H126L146 264H54Z" fill="#7b1f3a" stroke="#3d0b1b" stroke-width="4" '
        'stroke-linejoin="round"/>'
        f'<path d="M84 130H116L124 264H76Z" fill="{main}" stroke="{dark}" stroke-width="3"/>'
        '<path d="M56 252H144V264H54Z" fill="#ffffff" stroke="#3d0b1b" stroke-width="3"/>'
        f'<path d="M80 138L64 186M120 138L138 168" fill="none" stroke="#3d0b1b" stroke-width="11" '
        f'stroke-linecap="round"/>'
        f'<path d="M90 208H110" stroke="{light}" stroke-width="5"/>'
        f'<circle cx="100" cy="104" r="18" fill="{SKIN}" stroke="{SKIN_LINE}" stroke-width="3"/>'
        '<path d="M84 108Q86 134 100 138Q114 134 116 108Q108 118 100 116Q92 118 84 108Z" '
        'fill="#8f8f8f" stroke="#4d4d4d" stroke-width="2"/>'
        f'<path d="M80 92L78 62L90 76L100 56L110 76L122 62L120 92Z" fill="{gold}" '
        f'stroke="{gold_dark}" stroke-width="3" stroke-linejoin="round"/>'
        f'<circle cx="100" cy="82" r="4" fill="{COLOURS["c"][0]}"/>' + place(suit, 150, 170, 52)
    )


FIGURES = {10: sota, 11: caballo, 12: rey}


def face(code: str) -> str:
    rank, suit = int(code[:-1]), code[-1]
    if rank in FIGURES:
        middle = FIGURES[rank](suit)
    else:
        size, spots = PIPS[rank]
        middle = "".join(place(suit, x, y, size) for x, y in spots)
    return svg(
        f'<rect x="2" y="2" width="196" height="296" rx="14" fill="{PAPER}" stroke="{FRAME}" '
        f'stroke-width="3"/>' + corner(suit, rank) + middle
    )


def back() -> str:
    """The same for every card: a lattice in two reds inside a white frame."""
    return svg(
        '<defs><pattern id="lattice" width="20" height="20" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="20" height="20" fill="#7c1c2c"/>'
        '<path d="M0 10H20M10 0V20" stroke="#a3334a" stroke-width="5"/></pattern></defs>'
        '<rect x="2" y="2" width="196" height="296" rx="14" fill="#fffdf5" stroke="#5a1020" '
        'stroke-width="3"/>'
        '<rect x="14" y="14" width="172" height="272" rx="8" fill="url(#lattice)"/>'
        '<circle cx="100" cy="150" r="34" fill="#7c1c2c" stroke="#fffdf5" stroke-width="6"/>'
        '<circle cx="100" cy="150" r="14" fill="#e8a600"/>'
    )


def svg(body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" font-family="Arial, Helvetica, \'DejaVu Sans\', '
        f'sans-serif" font-weight="700" text-anchor="middle">{body}</svg>\n'
    )


def drawings() -> dict[str, str]:
    """File name -> SVG text of every card and the back."""
    files = {f"{rank}{suit}.svg": face(f"{rank}{suit}") for rank in RANKS for suit in SUITS}
    files["back.svg"] = back()
    return files


def main(argv: list[str]) -> int:
    files = drawings()
    if "--check" in argv:
        stale = [
            name
            for name, text in files.items()
            if not (OUT_DIR / name).exists() or (OUT_DIR / name).read_text() != text
        ]
        for name in stale:
            print(f"static/cards/{name} differs from scripts/draw_cards.py", file=sys.stderr)
        return 1 if stale else 0
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (OUT_DIR / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
