"""The review of an ended partie, made by the worker (reviews.tasks), never by a web process:
the analysis is the engine's (games.engine.review); this writes it under the partie, with its
progress, and makes it again only when the robot's version changed."""

import logging
import multiprocessing
import os
import warnings
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import review as analysis
from games.engine.robot import build_tables
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
    started = cpu_now()

    def progress(done: int, total: int) -> None:
        Review.objects.filter(pk=review.pk).update(done=done, total=total, updated=timezone.now())

    try:
        seats = reviewed_seats(game)
        todo = list(analysis.decisions(game.state, seats))
        found = analysis.by_seat(analysed(todo, progress), seats)
    except Exception:  # the page queues it again once STALLED has passed (review_wanted)
        Review.objects.filter(pk=review.pk).update(
            status=Review.Status.QUEUED, updated=timezone.now()
        )
        raise
    total = sum(len(rows) for rows in found.values())
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.READY,
        seats={
            str(seat): {"decisions": rows, "summary": analysis.summary(rows)}
            for seat, rows in found.items()
        },
        done=total,
        total=total,
        cpu_seconds=round(cpu_now() - started, 2),
    )
    log.info("game %s reviewed: %s decisions", game_id, total)
    return True


def cpu_now() -> float:
    """CPU seconds of this process and of its ended children (the analysing processes)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def analysed(
    todo: list[tuple[int, Any, Any]], progress: Callable[[int, int], None]
) -> list[dict[str, Any]]:
    """Every decision of ``todo`` reviewed, in settings.REVIEW_PROCESSES processes forked from
    this one (the robots' tables built once, before) by chunks of PROGRESS_EVERY decisions;
    ``progress`` is told as each chunk ends (in the order they end) and at the end. In any
    order: analysis.by_seat puts them back in play order."""
    processes = settings.REVIEW_PROCESSES
    if processes <= 1 or len(todo) <= PROGRESS_EVERY:
        rows = []
        for number, item in enumerate(todo, start=1):
            rows.append(analysis.review_decision(*item, samples=analysis.SAMPLES))
            if number % PROGRESS_EVERY == 0 or number == len(todo):
                progress(number, len(todo))
        return rows
    build_tables()
    chunks = [todo[i : i + PROGRESS_EVERY] for i in range(0, len(todo), PROGRESS_EVERY)]
    rows = []
    with warnings.catch_warnings():
        # fork: the children only compute (no database, no socket) and inherit the tables
        warnings.simplefilter("ignore", DeprecationWarning)
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(processes, mp_context=context) as pool:
            for future in as_completed(
                [pool.submit(review_chunk, chunk, analysis.SAMPLES) for chunk in chunks]
            ):
                rows.extend(future.result())
                progress(len(rows), len(todo))
    return rows


def review_chunk(chunk: list[tuple[int, Any, Any]], samples: int) -> list[dict[str, Any]]:
    """In an analysing process: a few decisions' reviews."""
    return [analysis.review_decision(*item, samples=samples) for item in chunk]


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
