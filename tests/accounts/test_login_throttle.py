"""Log-in throttling: the attacker's address is blocked, never the account it aims at."""

import logging

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttle
from core import ratelimit
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.66"
OWNER = "198.51.100.7"
LOGIN_URLS = [reverse("accounts:login"), reverse("admin:login")]


def _fail(client, username, times, url=LOGIN_URLS[0]):
    for _ in range(times):
        response = client.post(url, {"username": username, "password": "mauvais"})
        assert response.status_code == 200


def _spray(client, times, url=LOGIN_URLS[0]):
    """Fail `times` log-ins, each with another user name."""
    for number in range(times):
        _fail(client, f"joueur{number}", 1, url)


def _login(client, username, url=LOGIN_URLS[0]):
    return client.post(url, {"username": username, "password": PASSWORD})


@pytest.mark.parametrize("url", LOGIN_URLS)
def test_an_address_spraying_user_names_is_blocked_and_only_it(player, url):
    player("garazi", is_staff=True)
    attacker = Client(REMOTE_ADDR=ATTACKER)
    _spray(attacker, throttle.FAILURES_PER_IP.count, url)

    response = _login(attacker, "garazi", url)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 14 * 60
    assert "Trop de tentatives : réessayez dans 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in attacker.session

    # garazi herself, from her own address, is not concerned.
    assert _login(Client(REMOTE_ADDR=OWNER), "garazi", url).status_code == 302


def test_a_refused_try_hashes_no_password(player, cheap_hashing):
    player("ane")
    cheap_hashing.calls = 0
    attacker = Client(REMOTE_ADDR=ATTACKER)
    _spray(attacker, throttle.FAILURES_PER_IP.count)
    assert cheap_hashing.calls == throttle.FAILURES_PER_IP.count

    for _ in range(5):
        assert _login(attacker, "ane").status_code == 429
    assert cheap_hashing.calls == throttle.FAILURES_PER_IP.count


def test_a_user_name_under_attack_goes_slow_but_its_owner_still_gets_in(player):
    player("ane")
    # Ane logs in from her usual browser, which keeps the device cookie, and logs out.
    browser = Client(REMOTE_ADDR=OWNER)
    response = _login(browser, "ane")
    assert response.status_code == 302
    assert throttle.DEVICE_COOKIE in response.cookies
    browser.post(reverse("accounts:logout"))

    # Wrong passwords for ane from many addresses, each under the per-address limit.
    for number in range(throttle.FAILURES_PER_USERNAME.count):
        _fail(Client(REMOTE_ADDR=f"203.0.113.{number}"), "ane", 1)
    # Past that, one try a minute from a browser ane never used: the first passes, the next not.
    _fail(Client(REMOTE_ADDR="203.0.113.100"), "ane", 1)
    stranger = Client(REMOTE_ADDR="203.0.113.101")
    response = _login(stranger, "ane")
    assert response.status_code == 429
    assert "Trop de tentatives : réessayez dans" in response.content.decode()
    assert "_auth_user_id" not in stranger.session

    # Ane's own browser is past the per-name limit, even from a new address.
    browser.defaults["REMOTE_ADDR"] = "192.0.2.44"
    assert _login(browser, "ane").status_code == 302

    # A minute later a new browser gets its one try, and the right password works.
    ratelimit.reset(throttle.SLOW_TRIES_PER_USERNAME, "ane")
    assert _login(Client(REMOTE_ADDR="192.0.2.45"), "ane").status_code == 302


def test_a_forged_device_cookie_counts_for_nothing(player):
    player("ane")
    for number in range(throttle.FAILURES_PER_USERNAME.count + 1):
        _fail(Client(REMOTE_ADDR=f"203.0.113.{number}"), "ane", 1)
    forger = Client(REMOTE_ADDR=ATTACKER)
    forger.cookies[throttle.DEVICE_COOKIE] = "ane"
    assert _login(forger, "ane").status_code == 429


def test_behind_the_local_proxy_the_forwarded_address_is_the_client(player):
    player("ane")
    # Through the proxy on this machine (trusted by default), the attacker forges a left part of
    # X-Forwarded-For; the proxy appends the address it really saw.
    attacker = Client(REMOTE_ADDR="127.0.0.1", headers={"X-Forwarded-For": f"1.2.3.4, {ATTACKER}"})
    _spray(attacker, throttle.FAILURES_PER_IP.count)
    assert ratelimit.exceeded(throttle.FAILURES_PER_IP, ATTACKER)
    assert _login(attacker, "ane").status_code == 429

    # Everybody else behind the same proxy logs in.
    owner = Client(REMOTE_ADDR="127.0.0.1", headers={"X-Forwarded-For": OWNER})
    assert _login(owner, "ane").status_code == 302


def test_an_untrusted_peer_cannot_pick_its_address(player):
    player("ane")
    attacker = Client(REMOTE_ADDR=ATTACKER)
    _spray(attacker, throttle.FAILURES_PER_IP.count)
    attacker.defaults["HTTP_X_FORWARDED_FOR"] = OWNER
    assert _login(attacker, "ane").status_code == 429


@pytest.mark.parametrize("url", LOGIN_URLS)
def test_an_overlong_user_name_is_refused_like_a_wrong_one(client, player, settings, caplog, url):
    settings.DEBUG = False
    player("garazi", is_staff=True)
    client.raise_request_exception = False
    with caplog.at_level(logging.WARNING):
        response = client.post(url, {"username": "a" * 300, "password": PASSWORD})
    assert response.status_code == 200
    assert "mot de passe" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize(("seconds", "message"), [(1, "1 seconde."), (59, "59 secondes.")])
def test_short_waits_are_told_in_seconds(seconds, message):
    assert throttle.wait_message(seconds).endswith(message)


@pytest.mark.parametrize(("seconds", "message"), [(60, "1 minute."), (61, "2 minutes.")])
def test_long_waits_are_told_in_minutes(seconds, message):
    assert throttle.wait_message(seconds).endswith(message)
