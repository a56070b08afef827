"""The site's own origins, and the WebSocket check that only pages served from them may open a
socket.

A WebSocket is not bound by the same-origin policy, and the session cookie goes along with any
page of the same *site*: another port or scheme of the same host. So an origin must match one
of SITE_ORIGINS (or CSRF_TRUSTED_ORIGINS) exactly: scheme, host and port. Browsers always send
an Origin header with a WebSocket; a handshake without one (or with a malformed one) is refused.
"""

import logging
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

log = logging.getLogger(__name__)

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def origin_of(value: str) -> Origin | None:
    """(scheme, host, port) of an origin such as "https://example.com:8443" (the scheme's
    default port when none is written), or None if `value` is not one."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:  # a port out of range or not a number, a bad IPv6 address
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def site_origins() -> set[Origin]:
    """The origins the site's pages are served from (read at each call: tests change them)."""
    values = [*settings.SITE_ORIGINS, *settings.CSRF_TRUSTED_ORIGINS]
    return {origin for value in values if (origin := origin_of(value)) is not None}


def header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin1")
    return None


class SiteOriginValidator:
    """ASGI middleware: a WebSocket whose Origin is not one of the site's own is denied
    (the handshake gets a 403) before the session or the consumer is looked at."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator only guards WebSockets")
        value = header(scope, b"origin")
        origin = origin_of(value) if value is not None else None
        if origin is None or origin not in site_origins():
            log.info("WebSocket to %s refused: origin %r", scope.get("path"), value)
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
