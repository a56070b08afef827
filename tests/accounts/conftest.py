import pytest

from tests.accounts.throttling import CountingHasher
from tests.helpers import PASSWORD


@pytest.fixture
def cheap_hashing(settings):
    """A cheap hasher that counts its hashes, so tests can fail dozens of log-ins."""
    settings.PASSWORD_HASHERS = ["tests.accounts.throttling.CountingHasher"]
    CountingHasher.calls = 0
    return CountingHasher


@pytest.fixture
def player(cheap_hashing, django_user_model):
    """player("name", is_staff=...) -> a user whose password (PASSWORD) the cheap hasher made."""

    def make(username, **extra):
        user = django_user_model(username=username, **extra)
        user.set_password(PASSWORD)
        user.save()
        return user

    return make
