"""Celery task of the reviews: thin, imported by nobody (the receiver enqueues it by name).
Idempotent, acked late: a review already made with this robot is not made again."""

from celery import shared_task

from reviews import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def review_partie(game_id: int) -> bool:
    """The review of an ended partie (reviews.services.review_partie)."""
    return services.review_partie(game_id=game_id)
