"""Celery tasks: thin, they fetch ids and call a service (games.presence).

Both ack late and are re-queued if their worker dies (`acks_late`, `reject_on_worker_lost`);
both are idempotent, so running twice or late does no harm. Nothing here is ever revoked: a
seat that comes back makes the check a no-op through its presence epoch.
"""

from celery import shared_task

from games import presence


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def cancel_if_abandoned(seat_id: int, epoch: int) -> bool:
    """Due at the seat's deadline: cancel the game if that absence (epoch) is still open."""
    return presence.game_cancel_if_abandoned(seat_id=seat_id, epoch=epoch) is not None


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def sweep_abandoned() -> dict:
    """Every SWEEP_SECONDS (CELERY_BEAT_SCHEDULE): the safety net of the deadlines."""
    return presence.sweep()
