"""The table's quick phrases on the page (docs/phrases.md): the picker, the log, the mute
toggles, and one phrase pushed to a reader. The phrase is stored as an id: it is written here,
in the language of the reader the render is for."""

from __future__ import annotations

import functools

from django.urls import reverse
from django.utils import translation
from markupsafe import Markup

from core import jinja
from games import phrases, selectors
from games.display.table_view import POSITIONS
from games.models import Table, TablePhrase
from games.phrases import said_event

#: The phrases a page shows when it opens (the newest, oldest first).
LOG_SIZE = 30
#: A phrase's bubble stays this long at its speaker's seat (static/js/talk.js reads it).
BUBBLE_SECONDS = 6

SPEAKER = "speaker"  # the reader said it
PLAYER = "player"  # another player of the table: may report it and mute its speaker
PUBLIC = "public"  # a spectator: reads it, nothing more


def entry(phrase: dict, role: str) -> dict:
    """One phrase of the log as `role` reads it (phrase: games.phrases.said_event)."""
    text = phrases.phrase_text(phrase["phrase"])
    return {
        "pk": phrase["pk"],
        "seat": phrase["seat"],
        "name": phrase["name"],
        "text": text,
        "robot": phrase["robot"],
        "can_report": role == PLAYER and not phrase["robot"],
        "report_url": reverse("games:phrase_report", args=[phrase["table_id"]]),
    }


def said_fragment(phrase: dict, role: str) -> str:
    """One phrase pushed to a reader's page: appended to its log, shown in a bubble at the
    speaker's seat and said in the table's live region by static/js/talk.js."""
    return _said_fragment(phrase["pk"], role, translation.get_language(), _frozen(phrase))


@functools.lru_cache(maxsize=1024)
def _said_fragment(_pk: int, role: str, _language: str, frozen: tuple) -> str:
    """Keyed by the phrase, the role and the language: a table's four players and its spectators
    share their renders."""
    return jinja.render("games/_talk_said.html", {"e": entry(dict(frozen), role)})


def _frozen(phrase: dict) -> tuple:
    return tuple(sorted(phrase.items()))


def log_entries(table_id: int, *, role: str, muted: set[int], viewer_id: int | None) -> list:
    """The newest LOG_SIZE phrases of the table but those of `muted` speakers, oldest first."""
    rows = (
        TablePhrase.objects.filter(table_id=table_id)
        .exclude(user_id__in=muted)
        .select_related("user")
        .order_by("-pk")[:LOG_SIZE]
    )
    entries = []
    for said in reversed(rows):
        mine = viewer_id is not None and said.user_id == viewer_id
        entries.append(entry(said_event(said), SPEAKER if mine else role))
    return entries


def talk_context(
    table_id: int, *, seats: list[tuple[int, int, str]], viewer_id: int | None, muted: set[int]
) -> dict:
    """The talk section of a table page: for a player (`viewer_id` seated among `seats`, each
    (seat, user id, name)) the picker and the toggles; for a spectator (None) the log alone."""
    role = PUBLIC if viewer_id is None else PLAYER
    mine = next((seat for seat, user_id, _name in seats if user_id == viewer_id), 0)
    ring = [
        {"seat": seat, "name": name, "position": POSITIONS[(seat - mine) % 4]}
        for seat, _user_id, name in seats
    ]
    others = [
        {"seat": seat, "name": name, "muted": user_id in muted}
        for seat, user_id, name in seats
        if user_id != viewer_id
    ]
    return {
        "role": role,
        "seats_selector": "#table-seats, .talk__ring",
        "ring": ring,
        "phrases": [(key, str(text)) for key, text in phrases.PHRASES.items()],
        "say_url": reverse("games:phrase_say", args=[table_id]),
        "mute_url": reverse("games:phrase_mute", args=[table_id]),
        "log": log_entries(table_id, role=role, muted=muted, viewer_id=viewer_id),
        "others": others if viewer_id is not None else [],
        "bubble_seconds": BUBBLE_SECONDS,
    }


def salle_talk(user, table: Table | None) -> Markup | None:
    """The talk section of the salle's « Votre table » while its four wait for the partie (the
    moment before the first deal); None otherwise. The table's seats come prefetched."""
    if table is None or table.status != Table.Status.OPEN:
        return None
    seats = [(s.number, s.user_id, s.user.username) for s in table.seats.all() if s.active]
    muted = selectors.phrase_muted_ids(table_id=table.pk, user=user)
    context = talk_context(table.pk, seats=seats, viewer_id=user.pk, muted=muted)
    return Markup(talk_section(in_the_salle(context)))  # noqa: S704 (rendered by Jinja, escaped)


def in_the_salle(context: dict) -> dict:
    """The talk section as the salle's « Votre table » shows it: the bubbles on the table
    card's seats, no ring of its own."""
    context["seats_selector"] = ".my-table .seats"
    context["ring"] = []
    return context


def talk_section(context: dict, csrf_token: str = "", *, oob: bool = False) -> str:
    return jinja.render("games/_talk.html", {"talk": context, "csrf_token": csrf_token, "oob": oob})


def talk_note(message: str) -> str:
    """The talk section's note (a refusal, a report recorded), out of band."""
    return jinja.render("games/_talk_note.html", {"message": message})


def reported_fragment(pk: int, message: str) -> str:
    """A reported phrase's button replaced by its mark, and the note."""
    return jinja.render("games/_talk_reported.html", {"pk": pk}) + talk_note(message)
