"""The hand-log region written from its parts (templates/jinja2/games/regions/hand-log.html):
it changes at every version for every (team, language) that reads it, and its template's fixed
cost was most of what a table of four languages adds to a decision (docs/languages.md, "Cost").
Its opening (the words said aloud) is written at each render; a section and each of its lines
once per their words, in the reader's language; the past hands once per their text."""

from functools import lru_cache

from core import jinja
from games.display.view_model import View

PARTS = "games/regions/hand-log.html"


def written(context: View) -> str:
    """The region for `context` (a table's template context: ``table_view``, ``oob``), the
    bytes its single template wrote."""
    view = context.get("table_view") or {}
    log = view.get("log") or ()
    parts: list[str] = [jinja.macro(PARTS, "opening", view, context.get("oob"))]
    parts += [_section(section["title"], section["items"]) for section in log]
    if not log:
        parts.append(jinja.macro(PARTS, "nothing_said"))
    parts.append(_closing(view.get("past_hands", "")))
    return "".join(parts)


@lru_cache(maxsize=1024)
def _closing(past_hands: str) -> str:
    """The past hands and the region's end, once per their text (a few kB late in a partie:
    kept apart, as many as score_screen keeps past hands)."""
    return jinja.macro(PARTS, "closing", past_hands)


@lru_cache(maxsize=8192)
def _section(title: str, items: tuple[tuple[str, bool], ...]) -> str:
    """A section of the log: its title, its lines ((text, deje) each), each written once."""
    lines: list[str] = [jinja.cached_macro(PARTS, "line", *item) for item in items]
    opening = jinja.cached_macro(PARTS, "section_opening", title)
    return "".join([opening, *lines, jinja.cached_macro(PARTS, "section_closing")])
