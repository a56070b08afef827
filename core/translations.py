"""Django's gettext, with the active language and catalog looked up once for a block of work.

Django finds the active catalog at every string, through asgiref's Local (a context variable
behind a lock); the table's view model and regions translate a few hundred strings per game
version. Within `one_language()` (synchronous work in one thread that does not switch
languages) `gettext`, `ngettext` and `language` use the catalog and the language active when
the block started; outside it they are Django's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.utils import translation
from django.utils.translation import trans_real

_pinned = threading.local()


@contextmanager
def one_language() -> Iterator[None]:
    outer = getattr(_pinned, "value", None)
    _pinned.value = (translation.get_language(), trans_real.catalog())
    try:
        yield
    finally:
        _pinned.value = outer


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
