"""`python -m bench.floor`: the web CPU a decision costs on the site's stack before the site does
any work of its own -- the floor under `bench.cpu`'s figure.

One daphne runs bench.floor_app's levels in turn, with the site's settings and the bench's own
database and Redis; compare the levels with each other and with `bench.cpu`'s socket figure of
the same machine, never across machines. Method: docs/bench.md.

    .venv/bin/python -m bench.floor [--tables 20] [--rate 30] [--seconds 15] [--rounds 2]
"""

import argparse
import asyncio
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import websockets

from bench.run import log
from bench.stack import PG_URL, VENV_BIN, Stack, free_port

DB_NAME = "barajamos_bench_floor"
LEVELS = ("socket", "hop", "database", "publish")
TABLE = "bench_floor_game"


def create_database(stack: Stack, tables: int) -> None:
    psql = ["psql", f"{PG_URL}/postgres", "-q", "-v", "ON_ERROR_STOP=1", "-c"]
    subprocess.run([*psql, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"], check=True)
    subprocess.run([*psql, f"CREATE DATABASE {DB_NAME}"], check=True)
    rows = ", ".join(f"({table}, 0, '{{}}')" for table in range(tables))
    sql = (
        f"CREATE TABLE {TABLE} (id integer PRIMARY KEY, version integer, state jsonb);"
        f" INSERT INTO {TABLE} VALUES {rows};"
    )
    subprocess.run(["psql", f"{PG_URL}/{DB_NAME}", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])


def drop_database() -> None:
    psql = ["psql", f"{PG_URL}/postgres", "-q", "-c"]
    subprocess.run([*psql, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"], check=False)


class FloorTable:
    """A table's four sockets; one decision at a time, by the seats in turn."""

    def __init__(self, port: int, number: int):
        self.url = f"ws://127.0.0.1:{port}/floor/{number}/"
        self.sockets: list = []
        self.version = 0
        self.latencies: list[float] = []
        self.decisions = 0
        self.missed = 0

    async def connect(self) -> None:
        self.sockets = [await websockets.connect(self.url, max_size=None) for _ in range(4)]

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()

    async def decide(self) -> None:
        """One decision: sent by the seat in turn, done when all four sockets have the new
        version's frame."""
        seat = self.sockets[self.version % 4]
        start = time.monotonic()
        await seat.send(json.dumps({"v": self.version}))
        expected = f'{{"v": {self.version + 1}}}'
        try:
            frames = await asyncio.wait_for(
                asyncio.gather(*(s.recv() for s in self.sockets)), timeout=5
            )
        except TimeoutError:
            self.missed += 1
            raise
        if not all(frame.startswith(expected) for frame in frames):
            raise RuntimeError(f"{self.url}: expected version {self.version + 1}")
        self.version += 1
        self.decisions += 1
        self.latencies.append(time.monotonic() - start)

    async def play(self, first: float, period: float, end: float) -> None:
        at = first
        while at < end:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            await self.decide()
            at += period


async def measure_level(args, stack: Stack, level: str) -> dict:
    port = free_port()
    name = f"floor-{level}"
    stack.env["FLOOR_LEVEL"] = level
    command = [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port)]
    stack.start(name, [*command, "bench.floor_app:application"], port)
    tables = [FloorTable(port, number) for number in range(args.tables)]
    try:
        for table in tables:
            await table.connect()
        for table in tables:  # warm: every socket has had a decision
            for _ in range(4):
                await table.decide()
        await asyncio.sleep(1.0)
        cpu0, t0 = stack.cpu(name), time.monotonic()
        await asyncio.sleep(args.idle)
        idle = (stack.cpu(name) - cpu0) / (time.monotonic() - t0)
        for table in tables:
            table.latencies.clear()
            table.decisions = 0
        period = len(tables) / args.rate
        start = time.monotonic() + 0.2
        end = start + args.seconds
        cpu0, t0 = stack.cpu(name), time.monotonic()
        await asyncio.gather(
            *(t.play(start + period * i / len(tables), period, end) for i, t in enumerate(tables))
        )
        cpu, wall = stack.cpu(name) - cpu0, time.monotonic() - t0
    finally:
        for table in tables:
            await table.close()
        stack.stop(name)
    decisions = sum(t.decisions for t in tables)
    latencies = sorted(x for t in tables for x in t.latencies)
    net = max(0.0, cpu - idle * wall)
    return {
        "level": level,
        "decisions": decisions,
        "decisions_per_s": round(decisions / wall, 1),
        "web_cpu_ms_per_decision": round(1000 * net / max(decisions, 1), 2),
        "web_cpu_ms_per_decision_gross": round(1000 * cpu / max(decisions, 1), 2),
        "idle_cpu_share": round(idle, 4),
        "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p95_ms": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 1)
        if latencies
        else None,
    }


async def main_async(args, stack: Stack) -> dict:
    results: dict[str, list] = {level: [] for level in args.levels}
    for round_ in range(args.rounds):
        for level in args.levels:
            result = await measure_level(args, stack, level)
            results[level].append(result)
            log(f"floor round {round_} {level}: {result}")
    return {
        "floor_web_cpu_ms_per_decision": {
            level: round(statistics.mean(r["web_cpu_ms_per_decision"] for r in rounds), 2)
            for level, rounds in results.items()
        },
        "rounds": results,
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.floor")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rate", type=float, default=30.0, help="decisions per second")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measure")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    args = parser.parse_args()
    stack = Stack(Path(tempfile.mkdtemp(prefix="barajamos-floor-")))
    stack.env.update(
        DJANGO_SETTINGS_MODULE="musweb.settings",
        DATABASE_URL=f"{PG_URL}/{DB_NAME}",
        CHANNELS_REDIS_URLS=stack.env["REDIS_URL"],
    )
    try:
        stack.start_redis()
        create_database(stack, args.tables)
        results = asyncio.run(main_async(args, stack))
    finally:
        stack.stop_all()
        drop_database()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
