"""The hourly prune: expired sessions and the session index rows nobody needs any more."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts import tasks
from moderation.models import UserSession

pytestmark = pytest.mark.django_db


def _session_key(client) -> str:
    return client.session.session_key


def test_prune_deletes_expired_sessions_and_their_index_rows(login, ane, bixente, camille):
    live, expired, gone = login(ane), login(bixente), login(camille)
    Session.objects.filter(session_key=_session_key(expired)).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    # A session that disappeared without a log-out (deleted by hand, another cleanup).
    Session.objects.filter(session_key=_session_key(gone)).delete()

    tasks.prune_sessions.apply().get()

    assert set(Session.objects.values_list("session_key", flat=True)) == {_session_key(live)}
    assert list(UserSession.objects.values_list("user__username", flat=True)) == ["ane"]


def test_prune_runs_every_hour_on_celery_beat():
    schedules = settings.CELERY_BEAT_SCHEDULE.values()
    entry = next(entry for entry in schedules if entry["task"] == tasks.prune_sessions.name)
    assert entry["schedule"] == 60 * 60
