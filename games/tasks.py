"""Celery tasks: thin, they take ids and call a service.

Nothing imports this module, so the imports stay one way: a service enqueues a task by its
name, on commit, and the beat schedule names them too. The names `games.tasks.*` are what
queued messages and the schedule hold: keep them. All ack late, are re-queued if their worker
dies and are idempotent, so nothing is ever revoked (docs/services.md, « Tasks »).
"""

from celery import shared_task

from games.services import deadlines, phrases, revanche, robots, sweep, time_outs


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def cancel_if_abandoned(seat_id: int, epoch: int) -> bool:
    """Due at the seat's deadline: cancel the game if that absence (epoch) is still open."""
    return deadlines.game_cancel_if_abandoned(seat_id=seat_id, epoch=epoch) is not None


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def sweep_abandoned() -> dict:
    """Every SWEEP_SECONDS (CELERY_BEAT_SCHEDULE): the safety net of the deadlines."""
    return sweep.sweep()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def turn_time_out(game_id: int, due_ms: int | None = None) -> int:
    """Due at the game's earliest turn deadline (`due_ms`): decide for the seats out of time,
    if still so, and queue the next check."""
    return time_outs.turn_time_out(game_id=game_id, due_ms=due_ms)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def robot_play(game_id: int, version: int) -> bool:
    """ROBOT_PAUSE_SECONDS after the game reached `version`: a robot that must act decides,
    if the game is still there (else nothing)."""
    return robots.robot_play(game_id=game_id, version=version)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def revanche_lapse(revanche_id: int) -> bool:
    """Due at the revanche offer's expiry: lapse it if it is still open."""
    return revanche.revanche_lapse_if_due(revanche_id=revanche_id) is not None


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def robot_phrase(phrase_id: int) -> bool:
    """ROBOT_PAUSE_SECONDS after a person's phrase at a table with robots: the first robot after
    them may answer (games.engine.robot_talk), if the table is still between the same hands."""
    return phrases.robot_answer(phrase_id=phrase_id) is not None
