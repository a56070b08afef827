"""Shared by the presence tests: waiting for what the real Celery worker wrote in its log."""

import asyncio
import re
import time


def task_line(task: str, event: str) -> re.Pattern:
    """A worker log line of `task` (e.g. "games.tasks.turn_time_out") `event` ("received",
    "succeeded")."""
    return re.compile(rf"{re.escape(task)}\[[^]]+\] {event}")


async def logged(worker, pattern, *, since: int, count: int = 1, timeout: float = 30.0) -> str:
    """The worker's log past offset `since` once `pattern` is found `count` times in it."""
    deadline = time.monotonic() + timeout
    while True:
        text = worker.worker_output()[since:]
        if len(pattern.findall(text)) >= count:
            return text
        assert time.monotonic() < deadline, f"no {count} x {pattern.pattern!r} in:\n{text}"
        await asyncio.sleep(0.05)
