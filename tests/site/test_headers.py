"""The headers every page and fragment carries: a Content-Security-Policy with no inline code
allowed, a Permissions-Policy, and no caching of anything a player sees."""

import re

import pytest
from django.urls import reverse

HTMX = {"HX-Request": "true"}


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";")]
    return {words[0]: words[1:] for words in directives if words}


@pytest.fixture
def pages(client, login, ane, started_game):
    """Every kind of page, by name: (client, url)."""
    player = login(ane)
    table = started_game.table_id
    return {
        "home": (client, reverse("home")),
        "rules": (client, reverse("rules")),
        "login": (client, reverse("accounts:login")),
        "salle": (player, reverse("games:salle")),
        "table": (player, reverse("games:table", args=[table])),
        "404": (player, "/nope/"),
    }


@pytest.mark.django_db
def test_every_page_carries_a_policy_without_inline_code(pages):
    for name, (client, url) in pages.items():
        response = client.get(url)
        csp = policy(response)
        assert csp["default-src"] == ["'self'"], name
        assert csp["script-src"] == ["'self'"], name
        assert csp["style-src"] == ["'self'"], name
        assert csp["connect-src"] == ["'self'"], name  # the sockets: same origin, ws: or wss:
        assert csp["object-src"] == csp["base-uri"] == csp["frame-ancestors"] == ["'none'"]
        assert "unsafe" not in response["Content-Security-Policy"], name


@pytest.mark.django_db
def test_no_page_holds_inline_script_or_style(pages):
    """What the policy would block: an inline <script>, a <style> block, a style attribute."""
    for name, (client, url) in pages.items():
        content = client.get(url).content.decode()
        assert "<style" not in content, name
        assert not re.search(r"\sstyle=", content), name
        assert not re.search(r"\son[a-z]+=", content), name  # onclick=... and the like
        for script in re.findall(r"<script\b[^>]*>", content):
            assert "src=" in script, (name, script)


@pytest.mark.django_db
def test_every_page_refuses_powerful_browser_features(pages):
    for name, (client, url) in pages.items():
        features = client.get(url)["Permissions-Policy"]
        for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
            assert feature in features, name


def assert_not_stored(response):
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= directives


@pytest.mark.django_db
def test_no_page_is_kept_by_browsers_or_proxies(pages):
    for _name, (client, url) in pages.items():
        assert_not_stored(client.get(url))


@pytest.mark.django_db
def test_the_table_fragments_are_not_kept_either(login, ane, started_game):
    player = login(ane)
    url = reverse("games:act", args=[started_game.table_id])
    # A stale version: refused whoever is mano (the first mano is drawn at random).
    refused = player.post(url, {"version": "999", "type": "mus"}, headers=HTMX)
    assert refused.status_code == 409 and 'id="my-hand"' in refused.content.decode()
    assert_not_stored(refused)
    salle_fragment = player.get(reverse("games:salle"), headers=HTMX)
    assert_not_stored(salle_fragment)
