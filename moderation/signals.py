"""The user → session index (moderation.UserSession), kept at log-in and log-out."""

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from moderation.models import UserSession


@receiver(user_logged_in, dispatch_uid="moderation.index_session")
def index_session(sender, request, user, **kwargs):
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        UserSession.objects.update_or_create(session_key=key, defaults={"user": user})


@receiver(user_logged_out, dispatch_uid="moderation.unindex_session")
def unindex_session(sender, request, user, **kwargs):
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        UserSession.objects.filter(session_key=key).delete()
