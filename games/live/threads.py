"""The sockets' way into Django's sync code: a thread of their own, the reader's language active."""

import functools

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation


@functools.lru_cache(maxsize=256)
def in_thread(function, language: str | None = None):
    """Run a rendering function (or a short database write) off the shared sync thread, so
    many sockets work side by side (each call opens and closes its own database connection),
    with `language` active (the socket's reader's: core.translations.reader_language; None:
    the site's): a socket's thread has none, and every {% translate %} then looked it up the
    slow way (asgiref's Local raising AttributeError, under its lock), a fifth of a push's CPU
    under load.

    Built once per function and language (the sockets call a handful of them at every
    decision): asgiref's wrapper is reusable, and building it inspected the function each time."""

    @functools.wraps(function)
    def in_language(*args, **kwargs):
        with translation.override(language or settings.LANGUAGE_CODE):
            return function(*args, **kwargs)

    return database_sync_to_async(in_language, thread_sensitive=False)


async def hop(function, *args, **kwargs):
    """`function(*args, **kwargs)` in a thread, as `in_thread` runs it (the site's language:
    the function renders in each reader's own, as fragments.table_pushes does)."""
    return await in_thread(function)(*args, **kwargs)
