"""Moderation fixtures: the staff cast.

- ``maite``: a superuser.
- ``mikel``: staff, not a superuser, holding only ``moderation.can_moderate`` (a moderator).
- ``peio``: staff with no permission at all.
``run_action(client, changelist, action, pk, reason)`` posts an admin action for one object
(with ``reason``, its intermediate form too); ``ban_via_admin(client, user, reason)`` runs
"Bannir" that way.
"""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse


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


def run_action(client, changelist: str, action: str, pk: int, reason: str | None):
    """Post an admin action for one object; with `reason`, also the intermediate form."""
    data = {"action": action, "_selected_action": [pk]}
    if reason is not None:
        data |= {"apply": "1", "reason": reason}
    return client.post(reverse(changelist), data)


def ban_via_admin(client, user, reason="Insultes répétées"):
    return run_action(client, "admin:accounts_user_changelist", "ban_users", user.pk, reason)
