"""French is the source language: every string a user reads is marked for translation, so that
translating the site later means writing catalogs, not editing templates."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# Words a user reads that are the same in every language.
NOT_TRANSLATED = {"Barajamos"}

# Blocks whose text is marked as a whole, or never shown.
SKIPPED_BLOCKS = {"blocktranslate", "blocktrans", "comment"}
# Blocks whose text is markup, not prose (the admin's body classes, its stylesheets).
MACHINE_BLOCKS = {"block bodyclass", "block extrastyle", "block extrahead"}

# Attributes whose value a user reads or hears; value= only on buttons (see _UserText).
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
BUTTON_INPUT_TYPES = {"submit", "button", "reset"}

WORD = re.compile(r"[^\W\d_]+")
# A quoted literal in a variable tag, e.g. |default:"À vous.", unless marked as _("...").
VAR_LITERAL = re.compile(r"""(_\()?("[^"]*"|'[^']*')""")


class _UserText(HTMLParser):
    """The text nodes and read attributes of an HTML fragment, as a user meets them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name, value in attrs.items():
            if value and name in READ_ATTRIBUTES:
                self.texts.append(value)
        is_button = tag == "button" or (
            tag == "input" and attrs.get("type", "") in BUTTON_INPUT_TYPES
        )
        if is_button and attrs.get("value"):
            self.texts.append(attrs["value"])

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.texts.append(data)


def _has_words(text: str) -> bool:
    return any(word not in NOT_TRANSLATED for word in WORD.findall(text))


def unmarked_template_strings(source: str) -> list[str]:
    """The user-facing texts of a template that no {% translate %}, {% blocktranslate %} or
    _("...") marks, as they appear (template tags blanked out)."""
    found = []
    html = []
    skipping = None  # the tag that ends the block being skipped
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if skipping:
                if name == skipping:
                    skipping = None
            elif name in SKIPPED_BLOCKS or token.contents in MACHINE_BLOCKS:
                skipping = "end" + name
            html.append(" ")
        elif skipping:
            html.append(" ")
        elif token.token_type == TokenType.TEXT:
            html.append(token.contents)
        else:
            if token.token_type == TokenType.VAR:
                for marked, literal in VAR_LITERAL.findall(token.contents):
                    if not marked and _has_words(literal):
                        found.append(literal)
            html.append(" ")
    parser = _UserText()
    parser.feed("".join(html))
    parser.close()
    found += [" ".join(text.split()) for text in parser.texts if _has_words(text)]
    return found


def test_the_checker_finds_unmarked_text_and_accepts_marked_text():
    source = """{% load i18n %}{% comment %}Pas pour les joueurs{% endcomment %}
    <p>Bonjour {{ name }}</p><p>{% translate "Bonsoir" %}</p>
    <p>{% blocktranslate %}À {{ n }} points{% endblocktranslate %} · 40</p>
    <span title="Main">{{ x|default:_("À vous.") }}</span><b aria-label="{% translate 'Oui' %}">
    <button value="go">Barajamos</button>{{ ok|yesno:"oui,non" }}
    <input type="hidden" name="type" value="mus"><input type="submit" value="Valider">"""
    assert unmarked_template_strings(source) == ['"oui,non"', "Bonjour", "Main", "go", "Valider"]


@pytest.mark.parametrize(
    "path",
    sorted(TEMPLATES.rglob("*.html")),
    ids=lambda path: str(path.relative_to(TEMPLATES)),
)
def test_every_user_facing_string_of_a_template_is_marked(path):
    assert unmarked_template_strings(path.read_text(encoding="utf-8")) == []
