"""The reviews listen to games' end of a partie: its review is queued once the ending commits."""

import logging

from celery import current_app
from django.db import transaction
from django.dispatch import receiver

from games.signals import partie_ended

log = logging.getLogger(__name__)

REVIEW_TASK = "reviews.tasks.review_partie"


@receiver(partie_ended, dispatch_uid="reviews.queue_review")
def queue_review(sender, game, **kwargs):
    queue(game.pk)


def queue(game_id: int) -> None:
    """Ask the worker for the partie's review once the current transaction commits."""

    def send():
        try:
            current_app.send_task(REVIEW_TASK, args=(game_id,))
        except Exception:
            log.warning("game %s: its review was not queued; its page will ask again", game_id)

    transaction.on_commit(send)
