"""Shared by the presence tests: their timings, short by default (the site's in the
comments), and waiting for what the real Celery worker wrote in its log."""

import asyncio
import os
import re
import time

# Seconds a seat waits (60 on the site) and between two sweeps (5 on the site). Longer ones
# for a measurement: PRESENCE_GRACE=60 PRESENCE_SWEEP=5 pytest -s -k measure tests/presence
GRACE = float(os.environ.get("PRESENCE_GRACE", "2"))
SWEEP = float(os.environ.get("PRESENCE_SWEEP", "1"))
# A web process silent this long is dead (15 on the site). The test process, whose sockets flush
# every 0.2 s while a test runs, stays well within it.
WEB_PROCESS_LIMIT = float(os.environ.get("PRESENCE_WEB_PROCESS_LIMIT", "3"))


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
