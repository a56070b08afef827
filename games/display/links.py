"""The site's URLs for the table's renders, each reversed once per process.

A push builds several (the decision form's action, the salle, the fair-shuffle pages) and
Django's `reverse` walks the URL resolver every time: about a tenth of a render's CPU. The
result depends only on the URL configuration, the script prefix and the language, which key
the cache; a test that changes ROOT_URLCONF empties it."""

from functools import lru_cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language


def url(name: str, *args) -> str:
    """`reverse(name, args=args)`, reversed once per prefix, URL configuration and language."""
    return _reversed(get_script_prefix(), get_urlconf(), get_language(), name, args)


@lru_cache(maxsize=8192)
def _reversed(prefix: str, urlconf, language, name: str, args: tuple) -> str:
    return reverse(name, args=args, urlconf=urlconf)


@receiver(setting_changed)
def _forget(*, setting, **kwargs) -> None:
    if setting == "ROOT_URLCONF":
        _reversed.cache_clear()
