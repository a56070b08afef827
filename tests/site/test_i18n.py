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

# Blocks whose text is marked as a whole, or never shown ("trans": Jinja2's blocktranslate, in
# templates/jinja2/).
SKIPPED_BLOCKS = {"blocktranslate", "blocktrans", "comment", "trans"}
# A comment, on one line (Django) or several (Jinja2).
COMMENT = re.compile(r"\{#.*?#\}", re.S)
# Blocks whose text is markup, not prose (the admin's body classes, its stylesheets, the
# site nav's data attributes).
MACHINE_BLOCKS = {"block bodyclass", "block extrastyle", "block extrahead", "block nav_attrs"}

# Attributes whose value a user reads or hears; value= only on buttons (see _UserText).
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
BUTTON_INPUT_TYPES = {"submit", "button", "reset"}

WORD = re.compile(r"[^\W\d_]+")
# A quoted literal in a variable tag, e.g. |default:"À vous.", unless marked as _("...").
VAR_LITERAL = re.compile(r"""(_\()?("[^"]*"|'[^']*')""")
# A word marked with its context in a Jinja template (pgettext("context", "...")), an element
# id (|json_script:"id") and a macro called by template and name (cached_macro("path", "name",
# ...)): no literal a user reads.
PGETTEXT_CALL = re.compile(
    r'pgettext\(\s*"[^"]*"\s*,\s*"[^"]*"\s*\)'
    r'|json_script:"[^"]*"'
    r'|cached_macro\(\s*"[^"]*"\s*,\s*"[^"]*"'
)


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
    for token in Lexer(COMMENT.sub(" ", source)).tokenize():
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
                for marked, literal in VAR_LITERAL.findall(PGETTEXT_CALL.sub("", token.contents)):
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
    <i>{{ pgettext("colonne", "Mise") }}</i>{{ words|json_script:"mots-du-script" }}
    {{ cached_macro("games/parts.html", "ligne", "Bonne main") }}
    <button value="go">Barajamos</button>{{ ok|yesno:"oui,non" }}
    <input type="hidden" name="type" value="mus"><input type="submit" value="Valider">"""
    assert unmarked_template_strings(source) == [
        '"Bonne main"',
        '"oui,non"',
        "Bonjour",
        "Main",
        "go",
        "Valider",
    ]


@pytest.mark.parametrize(
    "path",
    sorted(TEMPLATES.rglob("*.html")),
    ids=lambda path: str(path.relative_to(TEMPLATES)),
)
def test_every_user_facing_string_of_a_template_is_marked(path):
    assert unmarked_template_strings(path.read_text(encoding="utf-8")) == []


# ---------------------------------------------------------------- Python

import ast  # noqa: E402

PYTHON_PACKAGES = ("accounts", "games", "moderation", "musweb")
# Calls that mark a string for translation, and calls whose strings are for the logs only.
MARKING_CALLS = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
LOGGING_CALLS = {"debug", "info", "warning", "error", "exception", "critical"}
ACCENTED = re.compile(r"[àâçéèêëîïôûùüÿœÀÂÇÉÈÊËÎÏÔÛÙÜŒ]")
FRENCH_WORDS = frozenset(
    {
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "du",
        "de",
        "et",
        "est",
        "vous",
        "votre",
        "vos",
        "nous",
        "pas",
        "pour",
        "avec",
        "sur",
        "dans",
        "qui",
        "que",
        "au",
        "aux",
        "ce",
        "cette",
        "ces",
        "sont",
        "plus",
    }  # fmt: skip
)
# (path, literal) pairs that look French but no user reads as such.
PYTHON_ALLOWED = {
    ("games/vocabulary.py", "aeéiou"),  # the vowels before which "de" elides
    ("musweb/settings.py", "Français"),  # each language's own name, in the picker
}


def _looks_french(text: str) -> bool:
    words = [word.lower() for word in WORD.findall(text)]
    return bool(ACCENTED.search(text)) or len([w for w in words if w in FRENCH_WORDS]) >= 2


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def unmarked_python_strings(source: str) -> list[str]:
    """The string literals of a module that look French and that no gettext call marks;
    docstrings, other bare strings (comments) and log calls' arguments are skipped."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        elif isinstance(node, ast.Call) and (
            _call_name(node) in MARKING_CALLS
            or (isinstance(node.func, ast.Attribute) and _call_name(node) in LOGGING_CALLS)
        ):
            skipped.update(id(sub) for sub in ast.walk(node))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and _looks_french(node.value)
    ]


def test_the_python_checker_finds_unmarked_french_and_accepts_marked_text():
    source = '''"""Un docstring de module."""
import logging
from django.utils.translation import gettext as _
A = _("La partie est terminée.")
B = "Vous n'êtes pas assis."
C = f"{name} écarte {n} cartes"
D = "only the engine finishes a partie"
logging.getLogger(__name__).warning("échec de la connexion")
def f():
    """Pas pour les joueurs."""
    return ngettext("%(n)s carte", "%(n)s cartes", 2), "de la table et"
'''
    assert unmarked_python_strings(source) == [
        "Vous n'êtes pas assis.",
        " écarte ",
        "de la table et",
    ]


def _python_modules() -> list[Path]:
    base = Path(settings.BASE_DIR)
    return sorted(
        path
        for package in PYTHON_PACKAGES
        for path in (base / package).rglob("*.py")
        if "migrations" not in path.parts
    )


@pytest.mark.parametrize(
    "path", _python_modules(), ids=lambda path: str(path.relative_to(settings.BASE_DIR))
)
def test_every_user_facing_french_string_of_python_is_marked(path):
    relative = str(path.relative_to(settings.BASE_DIR))
    found = [
        text
        for text in unmarked_python_strings(path.read_text(encoding="utf-8"))
        if (relative, text) not in PYTHON_ALLOWED
    ]
    assert found == []
