"""Choosing the language: the picker on every page, the account's choice on any device, the
browser's for a visitor, French otherwise; links carry no language."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db

RULES = {"fr": "Règles", "es": "Reglas", "eu": "Arauak", "en": "Rules"}


def page_language(response) -> str:
    return re.search(r'<html lang="([a-z-]+)"', response.content.decode()).group(1)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("eu,es;q=0.8", "eu"),
        ("es-ES,es;q=0.9", "es"),
        ("en-GB", "en"),
        ("de-DE,de", "fr"),
        ("", "fr"),
    ],
)
def test_a_visitor_gets_the_browsers_language_else_french(header, expected):
    response = Client(headers={"accept-language": header}).get(reverse("rules"))
    assert page_language(response) == expected
    assert RULES[expected] in response.content.decode()


def picker(response) -> str:
    html = response.content.decode()
    start = html.index('<details class="lang-picker">')
    return html[start : html.index("</details>", start)]


def test_every_page_has_the_picker_two_clicks_away(ane, login, open_table):
    """Open (the summary), choose (a button posting to set_language with its CSRF token)."""
    player = login(ane)
    pages = [
        (Client(), reverse("home")),
        (Client(), reverse("rules")),
        (Client(), reverse("accounts:login")),
        (player, reverse("games:salle")),
        (player, reverse("games:table", args=[open_table.pk])),
        (player, reverse("records:profile", args=[ane.username])),
    ]
    for client, url in pages:
        form = picker(client.get(url, follow=True))
        assert f'action="{reverse("accounts:set_language")}"' in form, url
        assert "csrfmiddlewaretoken" in form
        for code, name in settings.LANGUAGES:
            assert f'name="language" value="{code}" lang="{code}"' in form
            assert name in form


def test_a_choice_is_kept_on_the_account_and_applied_on_another_device(ane, login):
    phone = login(ane)
    salle = reverse("games:salle")
    answer = phone.post(reverse("accounts:set_language"), {"language": "eu", "next": salle})
    assert answer.status_code == 302 and answer["Location"] == salle
    ane.refresh_from_db()
    assert ane.language == "eu"
    assert page_language(phone.get(salle)) == "eu"

    # Another device, whose browser asks for Spanish: the log-in brings the account's Basque.
    laptop = Client(headers={"accept-language": "es"})
    assert page_language(laptop.get(reverse("accounts:login"))) == "es"
    laptop.post(reverse("accounts:login"), {"username": "ane", "password": PASSWORD})
    page = laptop.get(salle)
    assert page_language(page) == "eu"
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "eu"


def test_an_unknown_language_changes_nothing(ane, login):
    client = login(ane)
    client.post(reverse("accounts:set_language"), {"language": "xx", "next": "/"})
    ane.refresh_from_db()
    assert ane.language == ""
    assert page_language(client.get(reverse("games:salle"))) == "fr"


def test_a_visitors_choice_becomes_the_accounts_at_log_in(ane):
    client = Client()
    client.post(reverse("accounts:set_language"), {"language": "es", "next": "/"})
    client.post(reverse("accounts:login"), {"username": "ane", "password": PASSWORD})
    ane.refresh_from_db()
    assert ane.language == "es"


def test_a_table_link_opens_in_each_readers_language(make_user, ane, login, open_table):
    """The link a French host sends has no language in it: the Basque friend reads Basque."""
    url = reverse("games:table", args=[open_table.pk])
    assert not re.match(r"^/(fr|es|eu|en)/", url)
    friend = make_user("miren", language="eu")
    assert page_language(login(ane).get(url, follow=True)) == "fr"
    assert page_language(login(friend).get(url, follow=True)) == "eu"


GOVERNS = (
    "Ces règles sont écrites en français : la version française fait foi, les autres langues "
    "en sont des traductions."
)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_rules_say_at_their_top_that_the_french_version_governs(language):
    page = Client(headers={"accept-language": language}).get(reverse("rules")).content.decode()
    with translation.override(language):
        governs = escape(translation.gettext(GOVERNS))
    top = page[page.index("<h1>") : page.index("<nav", page.index("<h1>"))]
    assert f'<p class="rules__governs">{governs}</p>' in top
