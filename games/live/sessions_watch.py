"""Sockets of ended sessions close: a socket was authenticated once, at its opening, and would
otherwise keep showing the player's cards after a logout or a password change elsewhere.

A logout, or any change of a user (a new password, a deactivation, a ban: whatever
`get_session_auth_hash` or `is_active` depends on), tells that user's sockets
(broadcast.sessions_changed); each then checks its own session with Django's own rules
(`session_still_valid`) and closes if it ended (games.live.consumers).
"""

from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver

from games import broadcast


def session_still_valid(*, session_key: str | None, user_id: int) -> bool:
    """True if the session `session_key` still authenticates user `user_id`: it exists, has
    not expired, its auth hash matches the user's (a changed password ends the others) and the
    user may log in (active). Django's own check, as a request would make it."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    user = auth.get_user(SimpleNamespace(session=store))
    return user.is_authenticated and user.pk == user_id


@receiver(user_logged_out, dispatch_uid="games.live.sessions_watch.logged_out")
def logged_out(sender, request, user, **kwargs):
    if user is not None and request is not None and hasattr(request, "session"):
        broadcast.sessions_changed(user.pk, ended_session_key=request.session.session_key)


@receiver(
    post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.live.sessions_watch.saved"
)
def user_saved(sender, instance, created, update_fields=None, **kwargs):
    # A log-in saves last_login only: no session of this user ended.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    broadcast.sessions_changed(instance.pk)
