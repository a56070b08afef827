"""`python -m bench.review --live`: from a partie's end to its review ready, on the real stack
while the site serves play (the method: docs/bench.md, "bench.review --live"; the figures:
docs/review.md, "Cost, measured").

Four bench players' game is staged as a robot partie but for its last decision, which they POST
through the site (the real end: the review queued on commit, made by the Procfile's reviewer),
while bench players play at other tables; the harness reads the partie's reviews.Review row."""

import argparse
import asyncio
import json
import os
import random
import shlex
import tempfile
import time
from pathlib import Path

import psycopg

from bench.players import Stats, Table
from bench.robot_parties import decisions, robot_partie
from bench.run import QUICK, Bench, log
from bench.stack import DB_NAME, PG_URL, ROOT, VENV_BIN, Stack, free_port

#: (label, seed) of the measured parties: robot parties of 4 kings
#: (bench.robot_parties.robot_partie) chosen for their length (6 and 7 hands; 12 and 11, the
#: longest of seeds 1-200); the first one warms the reviewer up (its tables, its imports).
PARTIES = (("warm-up", 67), ("typical", 8), ("typical", 17), ("long", 39), ("long", 40))


def start_reviewer(stack: Stack) -> None:
    """The Procfile's `reviewer` line as it is written (nice, its queue, one process)."""
    line = next(
        text.split(":", 1)[1].strip()
        for text in (ROOT / "Procfile").read_text().splitlines()
        if text.startswith("reviewer:")
    )
    command = line.replace(".venv/bin/", f"{VENV_BIN}/")
    stack.start("reviewer", ["sh", "-c", f"exec {command}"])
    log(f"reviewer: {shlex.join(['sh', '-c', command])}")


def settings_processes(stack: Stack) -> str:
    return stack.env.get("REVIEW_PROCESSES", "2")


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def form(action: dict, version: int) -> dict:
    """A decision as the table's form posts it (games.forms)."""
    data = {"version": str(version), "type": action["type"]}
    if action["type"] == "bet":
        data["amount"] = str(action["amount"])
    elif action["type"] == "raise":
        data["to"] = str(action["to"])
    elif action["type"] == "discard":
        data["cards"] = list(action["cards"])
    return data


async def stage(stack: Stack, table_id: int, state: dict, workdir: Path) -> dict:
    path = workdir / f"partie-{table_id}.json"
    path.write_text(json.dumps(state))
    process = await asyncio.create_subprocess_exec(
        *(str(VENV_BIN / "python"), "-m", "bench.dbtool", "stage", str(table_id), str(path)),
        cwd=ROOT,
        env=stack.env,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate()
    if process.returncode:
        raise RuntimeError(f"staging table {table_id} failed")
    return json.loads(out)


async def review_row(db: psycopg.AsyncConnection, game_id: int) -> tuple | None:
    cursor = await db.execute(
        "SELECT status, done, total, cpu_seconds FROM reviews_review WHERE game_id = %s",
        (game_id,),
    )
    return await cursor.fetchone()


async def measure_one(
    stack: Stack, table: Table, db, stats: Stats, label: str, seed: int, timeout: float
) -> dict:
    state = robot_partie(seed, 4)
    staged = await stage(stack, table.table_id, state, stack.workdir)
    player = table.players[staged["seat"]]
    await player.open_table(table.table_id)  # the page: its CSRF token, the staged version
    actions0, load0 = stats.actions, load_average()
    sent = time.monotonic()
    answer = await player.post(
        f"/tables/{table.table_id}/jouer/", form(staged["action"], staged["version"])
    )
    ended = time.monotonic()
    if answer.status_code != 200:
        raise RuntimeError(f"the last decision was refused: {answer.status_code} {answer.text}")
    started = ready = None
    row = None
    while time.monotonic() < ended + timeout:
        row = await review_row(db, staged["game"])
        now = time.monotonic()
        if row is not None and row[0] != "queued" and started is None:
            started = now
        if row is not None and row[0] == "ready":
            ready = now
            break
        if started is not None and row is not None and row[0] == "queued":
            raise RuntimeError(f"the review of game {staged['game']} failed (reviewer.log)")
        await asyncio.sleep(0.2)
    served = stats.actions - actions0
    result = {
        "partie": label,
        "seed": seed,
        "game": staged["game"],
        "hands": state["hand_number"],
        "decisions": decisions(state),
        "reviewed": row[2] if row else None,
        "end_post_ms": round(1000 * (ended - sent)),
        "queued_s": round(started - ended, 1) if started else None,
        "wall_s": round(ready - ended, 1) if ready else None,
        "cpu_s": row[3] if row and ready else None,
        "load_at_end": load0,
        "load_at_ready": load_average(),
        "site_decisions_per_s": round(served / max(time.monotonic() - ended, 1e-9), 1),
    }
    log(
        f"{label} (seed {seed}, {settings_processes(stack)} processes): {result['hands']} "
        f"hands, {result['reviewed']} decisions, "
        f"cpu {result['cpu_s']} s, end to ready {result['wall_s']} s (in the queue "
        f"{result['queued_s']} s), load {load0} -> {result['load_at_ready']}, the site "
        f"served {result['site_decisions_per_s']} decisions/s"
    )
    return result


async def main_async(args, stack: Stack) -> dict:
    stack.env["REVIEW_PROCESSES"] = str(args.processes[0])
    stack.start_redis()
    stack.prepare_database()
    stack.start_celery()
    start_reviewer(stack)
    port = free_port()
    stack.start_web("web", "serve", port)
    bench = Bench(stack, dict(QUICK, tables=args.tables + 1))
    await bench.setup(port)
    measured = bench.tables.pop()
    load = bench.tables
    await bench.gather_limited((t.reconnect() for t in load), 10)
    stats = Stats()
    period = len(load) / args.rate if args.rate else 0
    start = time.monotonic() + 0.5
    players = [
        asyncio.create_task(t.play(stats, start + period * i / len(load), period, 1e12, start))
        for i, t in enumerate(load)
        if args.rate
    ]
    out: dict = {"tables": args.tables, "rate": args.rate}
    results = []
    async with await psycopg.AsyncConnection.connect(f"{PG_URL}/{DB_NAME}", autocommit=True) as db:
        await asyncio.sleep(args.settle)
        running = args.processes[0]
        for number, (label, seed) in enumerate(args.parties):
            # each partie with each process count, the order alternating from one to the next
            order = args.processes if number % 2 == 0 else args.processes[::-1]
            for processes in order if label != "warm-up" else [running]:
                if processes != running:  # the reviewer started again with its new setting
                    stack.env["REVIEW_PROCESSES"] = str(processes)
                    stack.restart("reviewer")
                    running = processes
                    await asyncio.sleep(args.settle)
                if results:  # the same four open a new table (the last one ended)
                    await measured.sit_down()
                one = await measure_one(stack, measured, db, stats, label, seed, args.timeout)
                results.append(dict(one, processes=processes))
        cursor = await db.execute("SELECT count(*) FROM reviews_review")
        (reviews,) = await cursor.fetchone()
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    out["parties"] = results
    # the load's own parties that ended meanwhile were reviewed by the same reviewer
    out["other_reviews"] = reviews - len(results)
    out["load_statuses"] = {str(k): v for k, v in stats.statuses.items()}
    for player in bench.players:
        await player.aclose()
    return out


def parse_parties(text: str) -> list[tuple[str, int]]:
    """ "typical:4,long:39" -> [("typical", 4), ("long", 39)]."""
    return [(item.split(":")[0], int(item.split(":")[1])) for item in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.review --live", description=__doc__)
    parser.add_argument("--tables", type=int, default=20, help="tables of the load")
    parser.add_argument("--rate", type=float, default=20.0, help="the load's decisions a second")
    parser.add_argument(
        "--parties",
        type=parse_parties,
        default=list(PARTIES),
        help="label:seed,... robot parties of 4 kings (bench.robot_parties.robot_partie)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[int(os.environ.get("REVIEW_PROCESSES", "2"))],
        help="REVIEW_PROCESSES of the reviewer; several: each partie with each, compared",
    )
    parser.add_argument("--settle", type=float, default=5.0, help="s of load before the first")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    random.seed(7)
    stack = Stack(Path(tempfile.mkdtemp(prefix="barajamos-review-")))
    try:
        results = asyncio.run(main_async(args, stack))
    finally:
        stack.stop_all()
        stack.drop_database()
    print(json.dumps(results))
