"""Celery tasks of the tournaments: thin, imported by nobody (services enqueue them by name,
the beat schedule names the sweep). Idempotent, acked late: run twice or late, no harm."""

from celery import shared_task

from tournaments import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def advance(tournament_id: int) -> int:
    """Whatever is due in the tournament now (tournaments.services.advance)."""
    return services.advance(tournament_id=tournament_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def sweep() -> int:
    """Every SWEEP_SECONDS (CELERY_BEAT_SCHEDULE): every tournament due or running advances."""
    return services.sweep()
