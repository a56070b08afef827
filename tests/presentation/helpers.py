"""Small HTML helpers for the presentation tests (stdlib only)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory

from games.display.regions import render_region, with_csrf_token
from games.display.table_view import table_context
from games.display.view_model import TableFacts, TablePage

ACTION_URL = "/parties/7/action/"
SALLE_URL = "/salle/"

#: a card code as a whole token ("12o" but not "112o" nor "12os")
CODE_RE = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-7])[oceb](?![0-9A-Za-z])")


def codes_in(html: str) -> set[str]:
    return set(CODE_RE.findall(html))


def request():
    req = RequestFactory().get("/table/")
    req.user = AnonymousUser()
    return req


PAGE_FIELDS = ("action_url", "salle_url", "ws_url", "oob", "flash", "refusal")


def context(observation, players, viewer, **kwargs):
    """games.display.table_view.table_context, its TableFacts and TablePage fields as keywords."""
    page = {name: kwargs.pop(name) for name in PAGE_FIELDS if name in kwargs}
    page.setdefault("action_url", ACTION_URL)
    page.setdefault("salle_url", SALLE_URL)
    return table_context(TableFacts(observation, players, viewer, **kwargs), TablePage(**page))


def render_page(observation, players, viewer, **kwargs) -> str:
    return render_to_string(
        "games/table.html", context(observation, players, viewer, **kwargs), request=request()
    )


def render_partial(name, observation, players, viewer, **kwargs) -> str:
    """One region of the table (games/regions/<name>.html), as the page shows it."""
    values = context(observation, players, viewer, **kwargs)
    return render_region(name, with_csrf_token(values, request()))


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.orphans: list[dict] = []
        self._form: dict | None = None
        self._button: dict | None = None
        self.labels: list[str] = []
        self._in_kbd = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"attrs": a, "inputs": [], "buttons": []}
            self.forms.append(self._form)
        elif tag == "input":
            if a.get("form"):
                self.orphans.append(a)
            elif self._form is not None:
                self._form["inputs"].append(a)
        elif tag == "button" and self._form is not None:
            self._button = {"attrs": a, "text": "", "key": ""}
            self._form["buttons"].append(self._button)
        elif tag == "kbd" and self._button is not None:
            self._in_kbd = True  # the shortcut shown on the button, not part of its name

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "button":
            self._button = None
        elif tag == "kbd":
            self._in_kbd = False

    def handle_data(self, data):
        if self._button is not None:
            self._button["key" if self._in_kbd else "text"] += data


def parse_forms(html: str) -> list[dict]:
    """Every form: attrs, inputs (incl. inputs bound with form="id"), button texts, type."""
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        fid = form["attrs"].get("id")
        if fid:
            form["inputs"] += [i for i in parser.orphans if i.get("form") == fid]
        types = [i.get("value") for i in form["inputs"] if i.get("name") == "type"]
        form["type"] = types[0] if types else None
        form["labels"] = [b["text"].strip() for b in form["buttons"]]
    return parser.forms


def field(form: dict, name: str) -> list[dict]:
    return [i for i in form["inputs"] if i.get("name") == name]
