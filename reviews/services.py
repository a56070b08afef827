"""The review of an ended partie, made by the worker (reviews.tasks), never by a web process:
the analysis is the engine's (games.engine.review); this writes it under the partie, with its
progress, and makes it again only when the robot's version changed."""

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.engine import review as analysis
from games.models import Game
from reviews.models import Review
from reviews.receivers import queue

log = logging.getLogger(__name__)

#: The progress is written every this many decisions (and at the last).
PROGRESS_EVERY = 5
#: A review this long without progress was lost with its worker: it is made again.
STALLED = timedelta(minutes=5)


def reviewed_seats(game: Game) -> set[int]:
    """The seats played by a person: a robot's own decisions are the robot's advice."""
    return {seat.number for seat in game.seats.all() if not seat.robot}


def review_partie(*, game_id: int) -> bool:
    """Analyse every decision of the partie's people; False when there is nothing to do (no
    such partie, a partie in play, a review already made with this robot)."""
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None or game.status == Game.Status.PLAYING:
        return False
    version = analysis.review_version()
    with transaction.atomic():
        review, _created = Review.objects.select_for_update().get_or_create(
            game=game, defaults={"version": version}
        )
        if review.version == version and review.status == Review.Status.READY:
            return False
        running = review.status == Review.Status.RUNNING
        if review.version == version and running and review.updated > timezone.now() - STALLED:
            return False  # being made by another worker
        Review.objects.filter(pk=review.pk).update(
            version=version, status=Review.Status.RUNNING, done=0, total=0, updated=timezone.now()
        )
    started = time.process_time()

    def progress(done: int, total: int) -> None:
        if done % PROGRESS_EVERY == 0 or done == total:
            Review.objects.filter(pk=review.pk).update(
                done=done, total=total, updated=timezone.now()
            )

    try:
        found = analysis.review_seats(game.state, reviewed_seats(game), progress=progress)
    except Exception:  # the page queues it again once STALLED has passed (review_wanted)
        Review.objects.filter(pk=review.pk).update(
            status=Review.Status.QUEUED, updated=timezone.now()
        )
        raise
    seats = {
        str(seat): {"decisions": rows, "summary": analysis.summary(rows)}
        for seat, rows in found.items()
    }
    total = sum(len(rows) for rows in found.values())
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.READY,
        seats=seats,
        done=total,
        total=total,
        cpu_seconds=round(time.process_time() - started, 2),
    )
    log.info("game %s reviewed: %s decisions", game_id, total)
    return True


def review_wanted(game: Game) -> Review | None:
    """The partie's review as the page shows it; for an ended partie without one made with
    today's robot, one is queued (the end's task lost, or the robot changed). None in play."""
    if game.status == Game.Status.PLAYING:
        return None
    version = analysis.review_version()
    # get_or_create: two first visits at once make one row (the loser reads the winner's)
    review, created = Review.objects.get_or_create(game=game, defaults={"version": version})
    if not created and review.version == version:
        if review.status == Review.Status.READY or review.updated > timezone.now() - STALLED:
            return review
        # not made, nor moving, for STALLED: its task failed or was lost; queued again, once
        # per STALLED whatever the number of visits (the first to touch the row sends it)
        touched = Review.objects.filter(pk=review.pk, updated=review.updated).update(
            status=Review.Status.QUEUED, updated=timezone.now()
        )
        review.refresh_from_db()
        if touched:
            queue(game.pk)
        return review
    if not created:
        Review.objects.filter(pk=review.pk, version=review.version).update(
            version=version, status=Review.Status.QUEUED, done=0, total=0
        )
        review.refresh_from_db()
    queue(game.pk)
    return review
