"""The lance-status region written from its parts (its template file holds them): at a table of
four languages it changes at every word of a bet for every (team, language), so its template's
fixed cost and a memo key per viewer were paid at every version (docs/languages.md, "Cost").
The head (the lance, the discard rounds) is written once per its words and language, the
declarations once per their words, the envite (said from the reader's side) at each render."""

from functools import lru_cache
from operator import itemgetter

from core import jinja, translations
from games.display.view_model import View

PARTS = "games/regions/lance-status.html"
#: The envite's fields, in the order of the "envite" macro's arguments.
_envite_fields = itemgetter("text", "held_text", "answering", "eligible", "votes")


def written(context: View) -> str:
    """The region for `context` (a table's template context: ``table_view``, ``oob``), the
    bytes its single template wrote."""
    status = context["table_view"]["lance_status"]
    envite = status["envite"]
    head = _head(
        translations.language(),
        bool(context.get("oob")),
        status["title"],
        status["discard_round_count"],
    )
    if not envite:
        return f"{head}{_tail(status['declarations'])}"
    envite_html = jinja.macro(PARTS, "envite", *_envite_fields(envite))
    return f"{head}{envite_html}{_tail(status['declarations'])}"


@lru_cache(maxsize=1024)
def _head(language: str | None, oob: bool, title: str, rounds: int) -> str:
    """The region's opening, its title and the discard rounds, once per `language` (the key:
    the label and the rounds are worded in it)."""
    return jinja.macro(PARTS, "head", oob, title, rounds)


@lru_cache(maxsize=4096)
def _tail(declarations: tuple) -> str:
    """The declarations and the region's end, once per the declarations (already worded)."""
    return jinja.macro(PARTS, "tail", declarations)
