"""Celery tasks: thin, they call a service (accounts.services)."""

import logging

from celery import shared_task

from accounts import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def prune_sessions() -> None:
    """Every hour (CELERY_BEAT_SCHEDULE): expired sessions and their index rows go."""
    sessions, index_rows = services.sessions_prune()
    log.info("pruned %d expired sessions and %d session index rows", sessions, index_rows)
