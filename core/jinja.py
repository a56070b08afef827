"""The Jinja2 environment of the live table's regions (templates/jinja2/): compiled templates,
for the renders a decision repeats for four players. They must write the bytes Django writes,
so three things are Django's here, not Jinja's: escaping (``conditional_escape``'s entities,
through ``finalize``; a safe value as it is), translations (``_("...")`` is ``{% translate %}``,
``{% trans %}`` is ``{% blocktranslate %}``, with Django's catalogs and active language), and
lookups (``x.key`` on a dict reads the key first; a missing name renders empty). Numbers are
written with ``str``, as ``{% localize off %}`` wrote them."""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.utils import translation
from jinja2 import ChainableUndefined, Environment, FileSystemLoader
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from markupsafe import escape as markupsafe_escape

from core import translations


def escape(value: Any) -> Markup:
    """Django's conditional_escape, as Markup (which Jinja's autoescape then leaves alone)."""
    if hasattr(value, "__html__"):
        return Markup(value.__html__())
    return Markup(html.escape(str(value)))


def finalize(value: Any) -> Any:
    """Each ``{{ value }}`` before the autoescape: markupsafe's escape writes Django's bytes for
    a text without quotes and for a number, so only the others are escaped here (the C escape
    is faster: a push writes some hundred values)."""
    kind = type(value)
    if kind is Markup or kind is int or (kind is str and "'" not in value and '"' not in value):
        return value
    return escape(value)


def translate(message: str) -> Markup:
    """``_("...")``: Django's ``{% translate "..." %}``, the translation as it is; looked up once
    per language (a push writes some twenty)."""
    key = (translations.language(), message)
    text = _translations.get(key)
    if text is None:
        text = _translations[key] = Markup(translation.gettext(message))
    return text


#: translate's answers by (language, message): the templates' strings in each language.
_translations: dict[tuple[str | None, str], Markup] = {}


def pgettext(context: str, message: str) -> Markup:
    """``pgettext("context", "...")``: a word with two meanings in French, one per context
    (Django's ``{% translate "..." context "..." %}``)."""
    key = (translations.language(), f"{context}\x04{message}")
    text = _translations.get(key)
    if text is None:
        text = _translations[key] = Markup(translation.pgettext(context, message))
    return text


def gettext(message: str, **variables: Any) -> Markup:
    """A ``{% trans %}`` block: its text has its "%" doubled, and its variables to fill in."""
    return Markup(translations.gettext(message) % {k: escape(v) for k, v in variables.items()})


def ngettext(singular: str, plural: str, number: int, **variables: Any) -> Markup:
    text = translations.ngettext(singular, plural, number)
    return Markup(text % {k: escape(v) for k, v in variables.items()})


@lru_cache(maxsize=32768)
def cached_macro(name: str, macro_name: str, *args: Any) -> Markup:
    """:func:`macro` written once per its (hashable) arguments: a part of a region that is the
    same from one version to the next (a section of the hand's log already said) is not written
    again at every push. Only for a macro that reads nothing but its arguments, no translation:
    the words come in already in the reader's language."""
    return macro(name, macro_name, *args)


def json_attribute(texts: tuple[str, ...] | list[str]) -> Markup:
    """``texts|tojson|forceescape``, the same bytes, each text's part written once: a hand's
    words go out with every push, each of them again at each version."""
    return Markup(", ".join(map(_json_text, texts)).join("[]"))


@lru_cache(maxsize=8192)
def _json_text(text: str) -> str:
    return str(markupsafe_escape(str(htmlsafe_json_dumps(text, sort_keys=True))))


class _Environment(Environment):
    def make_globals(self, d: Any = None) -> Any:
        """A template's globals as one plain dict, not Jinja's ChainMap over the environment's:
        every render copies its globals into a new context, and a ChainMap is walked key by
        key (a region's render paid that a dozen times). The environment's globals are set
        once, in :func:`environment`, before any template is loaded."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def environment() -> Environment:
    env = _Environment(
        loader=FileSystemLoader(settings.BASE_DIR / "templates" / "jinja2"),
        autoescape=True,
        finalize=finalize,
        undefined=ChainableUndefined,
        keep_trailing_newline=True,  # a file's last newline is part of its region, as in Django
        auto_reload=settings.DEBUG,
        extensions=["jinja2.ext.i18n"],
    )
    # {% trans %} blocks call gettext(message, **variables): ours formats them, Django's way.
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    env.filters["json_attribute"] = json_attribute
    env.globals.update(
        gettext=gettext,
        _=translate,
        ngettext=ngettext,
        pgettext=pgettext,
        cached_macro=cached_macro,
    )
    return env


ENV = environment()


def render(name: str, context: dict[str, Any]) -> str:
    return ENV.get_template(name).render(context)


def macro(name: str, macro_name: str, *args: Any) -> Markup:
    """One macro of a template of parts (context-free: its arguments and the globals only)."""
    return getattr(ENV.get_template(name).module, macro_name)(*args)
