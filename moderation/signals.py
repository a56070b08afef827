"""The user → session index (moderation.UserSession), kept at log-in and log-out; the phrases
players report at their table (games.signals.phrase_reported)."""

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from games.signals import phrase_reported
from moderation import services
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


@receiver(phrase_reported, dispatch_uid="moderation.record_phrase_report")
def record_phrase_report(sender, phrase, reporter, **kwargs):
    return services.phrase_report_record(phrase=phrase, reporter=reporter)
