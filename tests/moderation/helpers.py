"""Helpers of the moderation tests: ``run_action(client, changelist, action, pk, reason)``
posts an admin action for one object (with ``reason``, its intermediate form too);
``ban_via_admin(client, user, reason)`` runs "Bannir" that way."""

from django.urls import reverse


def run_action(client, changelist: str, action: str, pk: int, reason: str | None):
    """Post an admin action for one object; with `reason`, also the intermediate form."""
    data = {"action": action, "_selected_action": [pk]}
    if reason is not None:
        data |= {"apply": "1", "reason": reason}
    return client.post(reverse(changelist), data)


def ban_via_admin(client, user, reason="Insultes répétées"):
    return run_action(client, "admin:accounts_user_changelist", "ban_users", user.pk, reason)
