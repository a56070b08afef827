"""Moderation fixtures: the staff cast.

- ``maite``: a superuser.
- ``mikel``: staff, not a superuser, holding only ``moderation.can_moderate`` (a moderator).
- ``peio``: staff with no permission at all.
Their admin actions are posted with tests/moderation/helpers.py.
"""

import pytest
from django.contrib.auth.models import Permission


@pytest.fixture
def maite(make_user):
    return make_user("maite", is_staff=True, is_superuser=True)


@pytest.fixture
def mikel(make_user):
    user = make_user("mikel", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="can_moderate"))
    return user


@pytest.fixture
def peio(make_user):
    return make_user("peio", is_staff=True)
