from django.contrib.sessions.models import Session
from django.db.models import Exists, OuterRef
from django.utils import timezone

from moderation.models import UserSession


def sessions_prune() -> tuple[int, int]:
    """Delete expired sessions, then the index rows (moderation.UserSession) of sessions that
    no longer exist; returns how many of each.

    The site keeps sessions in the database (Django's default engine), where nothing else ever
    deletes an expired one. A log-in saves its session before its index row, so the index is
    never pruned ahead of a session being made."""
    sessions, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    orphans, _ = (
        UserSession.objects.alias(
            live=Exists(Session.objects.filter(session_key=OuterRef("session_key")))
        )
        .filter(live=False)
        .delete()
    )
    return sessions, orphans
