"""core.client_ip: X-Forwarded-For believed only as far as our own proxies wrote it."""

import pytest

from core.client_ip import client_ip_from

PROXY = "10.0.0.2"


@pytest.fixture
def behind_proxies(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/24"]


def test_without_trusted_proxies_the_peer_is_the_client(settings):
    settings.TRUSTED_PROXIES = []
    assert client_ip_from("127.0.0.1", "1.2.3.4") == "127.0.0.1"


def test_by_default_a_proxy_on_this_machine_is_trusted():
    assert client_ip_from("127.0.0.1", "1.2.3.4, 203.0.113.9") == "203.0.113.9"
    assert client_ip_from("::1", "203.0.113.9") == "203.0.113.9"
    assert client_ip_from("198.51.100.7", "203.0.113.9") == "198.51.100.7"


@pytest.mark.usefixtures("behind_proxies")
@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        # The proxy appended the address it saw; the client forged the left part.
        (PROXY, "1.2.3.4, 203.0.113.9", "203.0.113.9"),
        # Two proxies of ours: the right-most untrusted address.
        (PROXY, "1.2.3.4, 203.0.113.9, 127.0.0.1", "203.0.113.9"),
        (PROXY, "2001:db8::1", "2001:db8::1"),
        # A peer that is not our proxy: its header counts for nothing.
        ("203.0.113.9", "1.2.3.4", "203.0.113.9"),
        # No header, or garbage where our proxy should have written: the last trusted hop.
        (PROXY, "", PROXY),
        (PROXY, "garbage", PROXY),
        (PROXY, "1.2.3.4, garbage, 10.0.0.3", "10.0.0.3"),
    ],
)
def test_behind_trusted_proxies(peer, forwarded_for, client):
    assert client_ip_from(peer, forwarded_for) == client
