"""Scenario 6: faults during play, on the private Redis of the bench. While 20 tables play: the
Celery worker killed (SIGKILL) for 30 s, Redis restarted, the web process killed (SIGKILL: its
sockets are never closed, its rows are left behind) and started again (players reconnect as
htmx's ws extension does). Afterwards: every table's four players show the database's version,
and the log holds exactly the decisions the players got a 200 for (no action lost, none applied
twice); and a player who leaves for good gets the partie cancelled within 60 s plus the sweep
period (the site's SEAT_GRACE_SECONDS and SWEEP_SECONDS)."""

import asyncio
import json
import signal
import subprocess
import time

from bench.players import Stats, percentiles
from bench.stack import ROOT, VENV_BIN, free_port

KILL_WORKER_S = 30.0


def dbtool(stack, *args: str):
    """The last line of `python -m bench.dbtool ARGS` (JSON), run on the bench's database."""
    out = subprocess.run(
        [str(VENV_BIN / "python"), "-m", "bench.dbtool", *args],
        cwd=ROOT,
        env=stack.env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def db_games(stack) -> dict:
    return {int(k): v for k, v in dbtool(stack, "games").items()}


def db_game_end(stack, table_id: int) -> dict:
    return dbtool(stack, "ended", str(table_id))


async def run(bench) -> None:
    stack, config = bench.stack, bench.config
    port = free_port()
    stack.start_web("web", "daphne", port)
    bench.rebase(port)
    tables = bench.tables[:20]
    for table in tables:
        table.auto_reconnect = True
    await bench.connect(tables)
    stats, events = Stats(), []
    start = time.monotonic() + 0.5
    period = config["period"]
    end = start + KILL_WORKER_S + 40
    runner = asyncio.gather(
        *(t.play(stats, start + period * i / len(tables), period, end, start) for i, t in
          enumerate(tables))
    )  # fmt: skip

    def mark(what):
        events.append((round(time.monotonic() - start, 1), what, stats.actions, stats.missed))

    await asyncio.sleep(5)
    stack.stop("worker", signal.SIGKILL)
    mark("worker killed")
    await asyncio.sleep(KILL_WORKER_S)
    stack.start("worker", *stack.commands["worker"])
    mark("worker back")
    await asyncio.sleep(5)
    stack.restart("redis")
    mark("redis restarted")
    await asyncio.sleep(10)
    missed_after_redis = stats.missed
    stack.restart("web", signal.SIGKILL)
    mark("web killed and restarted")
    await runner
    mark("play over")
    await asyncio.sleep(2)
    await asyncio.gather(*(t.reconnect() for t in tables))
    await asyncio.sleep(1)
    games = db_games(stack)
    out_of_sync, twice, lost = [], [], []
    applied: dict[int, int] = {}
    unanswered: dict[int, int] = {}
    for table in bench.tables:
        for table_id, _version in table.applied:
            applied[table_id] = applied.get(table_id, 0) + 1
        for table_id, count in table.unanswered.items():
            unanswered[table_id] = unanswered.get(table_id, 0) + count
    for table in tables:
        game = games[table.table_id]
        seen = [p.version for p in table.players]
        if any(v != game["version"] for v in seen):
            out_of_sync.append((table.table_id, game["version"], seen))
    for table_id, game in games.items():
        plays = game["plays"]
        # A POST cut by the web restart may have been applied: it may count, at most once.
        most = applied.get(table_id, 0) + unanswered.get(table_id, 0)
        if game["distinct"] != game["n"] or plays > most:
            twice.append((table_id, plays, applied.get(table_id, 0)))
        elif plays < applied.get(table_id, 0):
            lost.append((table_id, plays, applied.get(table_id, 0)))
    result = {
        "events": events,
        "statuses": stats.statuses,
        "actions": stats.actions,
        "missed_total": stats.missed,
        "missed_before_web_restart": missed_after_redis,
        "latency": percentiles(stats.latency),
        "out_of_sync": out_of_sync[:10],
        "applied_twice": twice[:10],
        "lost": lost[:10],
        "ok": not (out_of_sync or twice or lost),
    }
    result["seat_cancel"] = await seat_cancel(bench, tables[0])
    result["ok"] = result["ok"] and result["seat_cancel"]["within_limit"]
    bench.results["faults"] = result
    await asyncio.gather(*(t.disconnect() for t in tables))
    stack.stop("web")


async def seat_cancel(bench, table, grace: float = 60, sweep: float = 5) -> dict:
    """One player closes the table page for good: the partie must be cancelled within the
    grace plus the sweep period (the site's values), timed from the close to the log's end row."""
    limit = grace + sweep
    table.auto_reconnect = False
    await table.players[3].disconnect()
    left = time.time()
    while time.time() - left < limit + 30:
        await asyncio.sleep(2)
        game = db_game_end(bench.stack, table.table_id)
        if game["ended_at"] is not None:
            took = game["ended_at"] - left
            return {
                "status": game["status"],
                "cancelled_after_s": round(took, 2),
                "limit_s": limit,
                "within_limit": game["status"] == "cancelled" and took <= limit,
            }
    return {"cancelled_after_s": None, "limit_s": limit, "within_limit": False}
