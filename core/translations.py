"""Django's gettext, with the active language and catalog looked up once for a block of work:
the one place that pins a language.

Django finds the active catalog at every string, through asgiref's Local (a context variable
behind a lock), and a lazy string translates itself again at every use; the table's view model
and regions translate a few hundred strings per game version. Within `one_language()`
(synchronous work in one thread that does not switch languages) `gettext`, `ngettext`,
`in_language` and `language` use the language and catalog active when the block started;
outside it they are Django's. `reader_language` says which language a socket's reader reads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.cookies import CookieError, SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import trans_real

_pinned = threading.local()

#: Module-level lazy strings as translated, by language and by the string's id. Each entry
#: keeps its lazy string, so no other object can take its id while it is there (meant for
#: module constants: a bounded set); dict reads and writes are atomic.
_lazy_words: dict[str | None, dict[int, tuple[Promise, str]]] = {}


@contextmanager
def one_language() -> Iterator[None]:
    outer = getattr(_pinned, "value", None)
    language = translation.get_language()
    _pinned.value = (language, trans_real.catalog(), _words(language))
    try:
        yield
    finally:
        _pinned.value = outer


def in_language(word: Promise) -> str:
    """A module-level lazy string (``gettext_lazy``) in the active language."""
    pinned = getattr(_pinned, "value", None)
    words = pinned[2] if pinned is not None else _words(translation.get_language())
    entry = words.get(id(word))
    if entry is None or entry[0] is not word:
        entry = words[id(word)] = (word, str(word))
    return entry[1]


def _words(language: str | None) -> dict[int, tuple[Promise, str]]:
    words = _lazy_words.get(language)
    if words is None:
        words = _lazy_words.setdefault(language, {})
    return words


def _catalog() -> Any:
    pinned = getattr(_pinned, "value", None)
    return pinned[1] if pinned is not None else None


def language() -> str | None:
    pinned = getattr(_pinned, "value", None)
    return pinned[0] if pinned is not None else translation.get_language()


def gettext(message: str) -> str:
    catalog = _catalog()
    # Django's own gettext also turns "\r\n" into "\n" and keeps a SafeString safe: the
    # pinned path is for plain one-line source strings, the others go Django's way.
    if catalog is None or not message or "\r" in message or hasattr(message, "__html__"):
        return translation.gettext(message)
    return catalog.gettext(message)


def ngettext(singular: str, plural: str, number: int) -> str:
    catalog = _catalog()
    if catalog is None:
        return translation.ngettext(singular, plural, number)
    return catalog.ngettext(singular, plural, number)


def reader_language(user: Any, headers: dict[str, str]) -> str:
    """The language a socket's pushes are rendered in, as a page of the same reader would be:
    the account's choice, else the language cookie, else the browser's Accept-Language, else
    the site's (French). `headers`: the socket's request headers, names in lower case."""
    offered = dict(settings.LANGUAGES)
    chosen = getattr(user, "language", "") if getattr(user, "is_authenticated", False) else ""
    if chosen in offered:
        return chosen
    cookies = SimpleCookie()
    with suppress(CookieError):
        cookies.load(headers.get("cookie", ""))
    morsel = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if morsel is not None and morsel.value in offered:
        return morsel.value
    for code, _quality in trans_real.parse_accept_lang_header(headers.get("accept-language", "")):
        if code == "*":
            break
        try:
            return trans_real.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
