"""Log-in and sign-up throttling: an attacker's own address gets blocked, never the account they
aim at.

Limits per client IP, per user name (a browser that logged in as that name skips it, with a
signed device cookie), per sign-up and per password reset; each check runs before the password
is hashed, so a refused try costs no CPU. The counters are core.ratelimit's (Redis), shared by
every web process. Each limit: docs/services.md (« Throttling »).
"""

import logging
import math

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import ratelimit
from core.client_ip import client_ip

log = logging.getLogger(__name__)

FAILURES_PER_IP = ratelimit.Limit("login-failures-ip", 20, 15 * 60)
FAILURES_PER_USERNAME = ratelimit.Limit("login-failures-username", 10, 60 * 60)
SLOW_TRIES_PER_USERNAME = ratelimit.Limit("login-slow-tries-username", 1, 60)
SIGNUPS_PER_IP = ratelimit.Limit("signups-ip", 5, 60 * 60)

DEVICE_COOKIE = "appareil"
DEVICE_COOKIE_SALT = "accounts.throttle.device"
DEVICE_COOKIE_MAX_AGE = 180 * 24 * 60 * 60


def login_wait(request, username: str) -> int:
    """Seconds the client must wait before trying `username` (0: it may try now).

    A try let through in slow mode takes the user name's slot for the window."""
    ip = client_ip(request)
    if ratelimit.exceeded(FAILURES_PER_IP, ip):
        log.info("log-in refused: too many failures from %s", ip)
        return ratelimit.retry_after(FAILURES_PER_IP, ip)
    slow = not device_trusted(request, username) and ratelimit.exceeded(
        FAILURES_PER_USERNAME, username
    )
    if slow and ratelimit.hit(SLOW_TRIES_PER_USERNAME, username):
        log.info("log-in refused: user name in slow mode, from %s", ip)
        return ratelimit.retry_after(SLOW_TRIES_PER_USERNAME, username)
    return 0


def login_failed(request, username: str) -> None:
    ratelimit.hit(FAILURES_PER_IP, client_ip(request))
    if not device_trusted(request, username):
        ratelimit.hit(FAILURES_PER_USERNAME, username)


def signup_wait(request) -> int:
    """Seconds before this client may create another account (0: now)."""
    return _address_wait(SIGNUPS_PER_IP, request, "sign-up refused: too many accounts")


def _address_wait(limit: ratelimit.Limit, request, refused: str) -> int:
    """Seconds before the client's address is under `limit` again (0: now), logged when not."""
    ip = client_ip(request)
    if ratelimit.exceeded(limit, ip):
        log.info("%s from %s", refused, ip)
        return ratelimit.retry_after(limit, ip)
    return 0


def signed_up(request) -> None:
    ratelimit.hit(SIGNUPS_PER_IP, client_ip(request))


def wait_message(seconds: int) -> str:
    return _("Trop de tentatives : réessayez dans %(delay)s.") % {"delay": delay_text(seconds)}


def signup_wait_message(seconds: int) -> str:
    """Said to a sign-up refused by SIGNUPS_PER_IP: about this address, not about the form."""
    return _("Trop de comptes créés depuis cette adresse : réessayez dans %(delay)s.") % {
        "delay": delay_text(seconds)
    }


def delay_text(seconds: int) -> str:
    """« 40 secondes », « 15 minutes »: a wait in the unit a person reads at a glance."""
    if seconds < 60:
        return ngettext("%(count)d seconde", "%(count)d secondes", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def device_trusted(request, username: str) -> bool:
    """Whether this browser has logged in as `username` before (its signed device cookie)."""
    name = request.get_signed_cookie(
        DEVICE_COOKIE, default=None, salt=DEVICE_COOKIE_SALT, max_age=DEVICE_COOKIE_MAX_AGE
    )
    return name is not None and name == username


def set_device_cookie(response, username: str) -> None:
    response.set_signed_cookie(
        DEVICE_COOKIE,
        username,
        salt=DEVICE_COOKIE_SALT,
        max_age=DEVICE_COOKIE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# Password reset requests: each one may send a mail, so an address gets few (a flood of mails
# to someone else's inbox) and a client few more (one client spraying addresses).
RESETS_PER_IP = ratelimit.Limit("password-resets-ip", 10, 60 * 60)
RESETS_PER_ADDRESS = ratelimit.Limit("password-resets-address", 3, 60 * 60)


def reset_wait(request) -> int:
    """Seconds before this client may ask another password reset (0: now)."""
    return _address_wait(RESETS_PER_IP, request, "password reset refused: too many requests")


def reset_requested(request, email: str) -> bool:
    """Count a reset request; False when its address has had its share of mails this hour (the
    answer the client sees stays the same, so it learns nothing about the address)."""
    ratelimit.hit(RESETS_PER_IP, client_ip(request))
    if ratelimit.hit(RESETS_PER_ADDRESS, email.strip().lower()):
        log.info("password reset: no mail, too many requests for one address")
        return False
    return True
