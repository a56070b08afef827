"""The client's IP address, read correctly behind the site's reverse proxies.

A proxy appends the address it got the request from to X-Forwarded-For, so the header's right end
is written by our proxies and everything left of them by whoever sent the request: forgeable.
Walking from the right, the first address that is not one of TRUSTED_PROXIES is the client. With
no trusted proxy (the default), or when the direct peer is not one, the header is ignored and the
peer (REMOTE_ADDR) is the client.
"""

import ipaddress
from functools import cache

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_ip(request) -> str:
    """The client's address for a Django request."""
    meta = request.META
    return client_ip_from(meta.get("REMOTE_ADDR", ""), meta.get("HTTP_X_FORWARDED_FOR", ""))


def client_ip_from(peer: str, forwarded_for: str) -> str:
    """The client's address, given the direct peer and the X-Forwarded-For header (or "")."""
    networks = _trusted_networks(tuple(settings.TRUSTED_PROXIES))
    if not _is_trusted(_parse(peer), networks):
        return peer
    client = peer
    for hop in reversed(forwarded_for.split(",")):
        address = _parse(hop)
        if address is None:
            # Not an address: not written by a proxy of ours, so the last trusted hop stands.
            break
        client = str(address)
        if not _is_trusted(address, networks):
            break
    return client


@cache
def _trusted_networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy.strip(), strict=False) for proxy in proxies)


def _parse(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _is_trusted(address: Address | None, networks: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in networks)
