"""`make bench` (`python -m bench`, QUICK=1 for a short run): start the stack, sit the bench
players down through the site, run the bench scenarios, print a table and, last, one JSON
line. Everything it starts is stopped at the end, Ctrl-C included."""

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.players import PASSWORD, Player, Stats, Table, percentiles
from bench.stack import ROOT, VENV_BIN, Stack, cpu_seconds, free_port, group_pids

FULL = {
    "tables": 250,  # 1,000 players: the idle-memory scenario
    "levels": (10, 50, 100, 200),
    "period": 2.0,  # one decision per table every 2 s
    "warmup": 4.0,
    "duration": 20.0,
    # the capacity search, actions/s (the target: 150/s with p95 < 100 ms); it goes on
    # past the target so that a machine that holds 200/s says how far it goes
    "rates": (10, 20, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300),
    "step": 12.0,
    "split_tables": 50,
    "idle": 10.0,  # s with every socket connected and nothing played
}
QUICK = {
    "tables": 60,
    "levels": (10, 50),
    "period": 2.0,
    "warmup": 3.0,
    "duration": 8.0,
    "rates": (10, 20, 30, 40),
    "step": 8.0,
    "split_tables": 20,
    "idle": 6.0,
}
PROCESSES = ("web", "web2", "worker", "beat", "redis")


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def machine_busy() -> tuple[float, float]:
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


class Bench:
    def __init__(self, stack: Stack, config: dict):
        self.stack = stack
        self.config = config
        self.rng = random.Random(7)
        self.players: list[Player] = []
        self.tables: list[Table] = []
        self.results: dict = {"latency_ms": {}, "capacity": {}, "memory": {}, "per_action": {}}
        # % of a core the web processes spend with every socket connected and nothing played
        # (heartbeats, the heals' checks, the heartbeats' writes): a decision's CPU net of it
        self.idle_web_pct = 0.0

    # ------------------------------------------------------------ helpers
    def base(self, port: int) -> str:
        return f"http://127.0.0.1:{port}"

    async def counters(self, port: int) -> dict:
        async with httpx.AsyncClient() as client:
            return (await client.get(self.base(port) + "/__bench__/counters")).json()

    async def reset(self, port: int) -> None:
        async with httpx.AsyncClient() as client:
            await client.get(self.base(port) + "/__bench__/reset")

    def cpu_snapshot(self) -> dict:
        snap = {name: self.stack.cpu(name) for name in PROCESSES if name in self.stack.procs}
        if "web" in self.stack.procs:  # each web process apart: does one saturate first?
            snap["_web_pids"] = {pid: cpu_seconds(pid) for pid in group_pids(self.stack.pid("web"))}
        snap["harness"] = sum(os.times()[:2])
        # PostgreSQL's backends: the server is shared, but the bench is the only one using it
        snap["postgres"] = sum(cpu_seconds(pid) for pid in pids_named("postgres"))
        snap["_machine"] = machine_busy()
        snap["_t"] = time.monotonic()
        return snap

    @staticmethod
    def cpu_delta(before: dict, after: dict) -> dict:
        wall = after["_t"] - before["_t"]
        out = {
            name: round(100 * (after[name] - before[name]) / wall, 1)
            for name in after
            if not name.startswith("_") and name in before
        }
        pids = before.get("_web_pids", {})
        out["web_by_process"] = sorted(
            (
                round(100 * (seconds - pids[pid]) / wall, 1)
                for pid, seconds in after.get("_web_pids", {}).items()
                if pid in pids
            ),
            reverse=True,
        )
        busy = after["_machine"][0] - before["_machine"][0]
        total = after["_machine"][1] - before["_machine"][1]
        out["machine_busy_pct_of_all_cores"] = round(100 * busy / max(total, 1), 1)
        return out

    async def gather_limited(self, coroutines, limit: int):
        semaphore = asyncio.Semaphore(limit)

        async def one(coroutine):
            async with semaphore:
                return await coroutine

        return await asyncio.gather(*(one(c) for c in coroutines))

    # ------------------------------------------------------------ setup
    async def setup(self, port: int) -> None:
        count = self.config["tables"] * 4
        started = time.monotonic()
        subprocess.run(
            [str(VENV_BIN / "python"), "-m", "bench.dbtool", "users", str(count), PASSWORD],
            cwd=ROOT,
            env=self.stack.env,
            check=True,
        )
        self.players = [Player(f"bench{i:04d}", self.base(port)) for i in range(count)]
        await self.gather_limited((p.login() for p in self.players), 16)
        logged = time.monotonic()
        self.tables = [Table(self.players[i : i + 4], random.Random(i)) for i in range(0, count, 4)]
        await self.gather_limited((t.sit_down() for t in self.tables), 8)
        done = time.monotonic()
        self.results["setup"] = {
            "players": count,
            "login_s": round(logged - started, 1),
            "tables_through_salle_s": round(done - logged, 1),
        }
        log(f"setup: {count} logins in {logged - started:.1f} s, tables in {done - logged:.1f} s")

    def rebase(self, port: int, port2: int | None = None) -> None:
        for player in self.players:
            seat = int(player.username[5:]) % 4
            player.rebase(self.base(port2 if port2 is not None and seat >= 2 else port))

    async def connect(self, tables: list[Table]) -> float:
        started = time.monotonic()
        # As the pages do, a socket refused (daphne drops a handshake not accepted within 5 s,
        # which a loaded machine sees while hundreds connect at once) is opened again.
        await self.gather_limited((t.reconnect() for t in tables), 25)
        return time.monotonic() - started

    async def disconnect_all(self) -> None:
        await asyncio.gather(*(t.disconnect() for t in self.tables))

    async def steady(self, tables: list[Table], period: float, duration: float) -> dict:
        # A table whose players disagree would wait forever for its stale one. After an
        # overloaded step pushes may still be on their way: wait (up to 20 s) for them, then
        # the stale players left catch up with a full render, and how many had to is reported
        # (pushes lost, or later than 20 s).
        settle = time.monotonic() + 20
        while time.monotonic() < settle and any(t.disagree() for t in tables):
            await asyncio.sleep(0.5)
        stale = sum(await self.gather_limited((t.resync() for t in tables), 25))
        stats = Stats()
        start = time.monotonic() + 0.5
        end = start + self.config["warmup"] + duration
        record_from = start + self.config["warmup"]
        plays = [
            t.play(stats, start + period * i / len(tables), period, end, record_from)
            for i, t in enumerate(tables)
        ]
        runner = asyncio.gather(*plays)
        await asyncio.sleep(max(0, record_from - time.monotonic()))
        before = self.cpu_snapshot()
        await asyncio.sleep(max(0, end - time.monotonic()))
        after = self.cpu_snapshot()
        await runner
        recorded = len(stats.latency)
        cpu = self.cpu_delta(before, after)
        web = cpu.get("web", 0) + cpu.get("web2", 0)
        return {
            # CPU time of the web process(es) per decision, in ms (gross: idle sockets' included;
            # net: less what they spent idle, the measure)
            "web_cpu_ms_per_decision": round(10 * web * duration / recorded, 1)
            if recorded
            else None,
            "web_cpu_ms_per_decision_net": round(
                10 * max(0.0, web - self.idle_web_pct) * duration / recorded, 1
            )
            if recorded
            else None,
            "tables": len(tables),
            "offered_per_s": round(len(tables) / period, 1),
            "done_per_s": round(recorded / duration, 1),
            "latency": percentiles(stats.latency),
            "service": percentiles(stats.service),
            "post": percentiles(stats.post),
            "statuses": stats.statuses,
            "missed": stats.missed,
            "missed_detail": stats.missed_detail[:10],
            "finished": stats.finished,
            "actions": stats.actions,
            "cpu_pct": cpu,
            "stale_tables_at_start": stale,
        }

    # ------------------------------------------------------------ the scenarios
    async def per_server(self, server: str) -> None:
        port = free_port()
        self.stack.start_web("web", server, port)
        self.rebase(port)
        config = self.config
        if not self.players:
            await self.setup(port)
        warm = self.tables[:1]
        await self.connect(warm)
        await self.steady(warm, 0.2, 3.0)  # warm the templates and the code paths
        base_rss = self.stack.rss("web")
        idle_players = (len(self.tables) - 1) * 4
        connect_s = await self.connect(self.tables[1:])
        await asyncio.sleep(3)
        rss = self.stack.rss("web")
        per_player = (rss - base_rss) / idle_players
        spread = sockets_by_process(self.stack.pid("web"))
        self.results.setdefault("sockets_by_process", {})[server] = spread
        log(f"{server}: client connections per web process {spread}")
        self.results["memory"][server] = {
            "players": idle_players + 4,
            "rss_before_kb": base_rss,
            "rss_after_kb": rss,
            "kb_per_player": round(per_player, 1),
            "connect_all_s": round(connect_s, 1),
        }
        log(f"{server}: {idle_players} sockets in {connect_s:.1f} s, {per_player:.1f} kB each")
        before = self.cpu_snapshot()
        await asyncio.sleep(config["idle"])
        idle = self.cpu_delta(before, self.cpu_snapshot())
        self.idle_web_pct = idle.get("web", 0) + idle.get("web2", 0)
        self.results["memory"][server]["idle_web_cpu_pct"] = round(self.idle_web_pct, 1)
        log(f"{server}: {self.idle_web_pct:.1f} % of a core idle with every socket connected")

        # The capacity search first: the overloaded levels (100 and 200 tables here) leave a
        # backlog of pushes that would weigh on whatever ran after them.
        best = None
        steps = []
        for rate in config["rates"]:
            period = len(self.tables) / rate
            result = await self.steady(self.tables, period, config["step"])
            steps.append(result)
            log(
                f"{server} {rate}/s: {result['latency']} done {result['done_per_s']}/s"
                f" missed {result['missed']} stale at start {result['stale_tables_at_start']}"
            )
            if result["latency"]["p95"] is None or result["latency"]["p95"] >= 100:
                break
            best = result
        self.results["capacity"][server] = {"best": best, "steps": steps}

        levels = {}
        for count in config["levels"]:
            await self.reset(port)
            result = await self.steady(self.tables[:count], config["period"], config["duration"])
            counters = await self.counters(port)
            result["counters"] = per_action(counters, result["actions"])
            levels[count] = result
            log(
                f"{server} {count} tables: {result['latency']} done {result['done_per_s']}/s"
                f" missed {result['missed']} stale at start {result['stale_tables_at_start']}"
            )
        self.results["latency_ms"][server] = levels
        await self.disconnect_all()
        self.stack.stop("web")

    async def split(self, server: str) -> None:
        """Two web processes sharing the channel layer; seats 0-1 on one, 2-3 on the other."""
        port, port2 = free_port(), free_port()
        self.stack.start_web("web", server, port)
        self.stack.start_web("web2", server, port2)
        self.rebase(port, port2)
        tables = self.tables[: self.config["split_tables"]]
        await self.connect(tables)
        for table in tables:  # one POST per process first, so each has warmed up
            for player in table.players:
                await player.open_table(table.table_id)
        result = await self.steady(tables, self.config["period"], self.config["duration"])
        result["every_update_reached_everyone"] = result["missed"] == 0
        self.results["two_processes"] = {"server": server, **result}
        log(f"two {server} processes: {result['latency']} missed {result['missed']}")
        await asyncio.gather(*(t.disconnect() for t in tables))
        self.stack.stop("web2")
        self.stack.stop("web")


def pids_named(name: str) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == name:
                    pids.append(int(entry))
            except OSError:
                pass
    return pids


def sockets_by_process(pgid: int) -> list[int]:
    """Client connections each daphne of the web process group holds (ss), most loaded first:
    how the kernel (one shared socket) or HAProxy (a daphne per table) spread them."""
    pids = set(group_pids(pgid))

    def ss(*args: str) -> list[str]:
        return subprocess.run(
            ["ss", "-Htnp", *args], capture_output=True, text=True
        ).stdout.splitlines()

    def daphne_pids(line: str) -> list[int]:
        found = re.findall(r'\("([^"]+)",pid=(\d+)', line)
        return [int(pid) for name, pid in found if name == "daphne" and int(pid) in pids]

    # the daphnes' listening ports (deploy.serve holds those sockets too, hence the pid filter)
    ports = {line.split()[3].rsplit(":", 1)[1] for line in ss("-l") if daphne_pids(line)}
    counts: dict[int, int] = {}
    for line in ss("state", "established"):
        fields = line.split()
        if len(fields) > 2 and fields[2].rsplit(":", 1)[1] in ports:
            for pid in daphne_pids(line):
                counts[pid] = counts.get(pid, 0) + 1
    return sorted(counts.values(), reverse=True)


def per_action(counters: dict, actions: int) -> dict:
    """Counters of one web process over a level, divided by the decisions applied."""
    if not actions:
        return {}
    out = {}
    for key, value in sorted(counters.items()):
        if key == "pid":
            continue
        out[key] = round(value / actions * (1000 if key.endswith("_s") else 1), 2)
    return out  # *_s keys are milliseconds per action


def print_table(results: dict) -> None:
    print()
    print("Barajamos bench (2 cores shared with other work: figures are noisy)")
    head = f"{'server':8} {'tables':>6} {'offered/s':>9} {'done/s':>7} {'p50':>7} {'p95':>7} "
    print(
        head + f"{'p99':>7} {'max':>8} {'svc p95':>8} {'missed':>6} {'web cpu%':>8} "
        f"{'ms/dec':>6} {'net':>5}"
    )
    for server, levels in results["latency_ms"].items():
        for count, r in levels.items():
            lat, svc = r["latency"], r["service"]
            print(
                f"{server:8} {count:>6} {r['offered_per_s']:>9} {r['done_per_s']:>7} "
                f"{lat['p50']!s:>7} {lat['p95']!s:>7} {lat['p99']!s:>7} {lat['max']!s:>8} "
                f"{svc['p95']!s:>8} {r['missed']:>6} {r['cpu_pct'].get('web', 0):>8} "
                f"{r['web_cpu_ms_per_decision']!s:>6} {r['web_cpu_ms_per_decision_net']!s:>5}"
            )
    for server, cap in results["capacity"].items():
        best = cap["best"]
        if best:
            print(
                f"{server}: max {best['done_per_s']} actions/s with p95 {best['latency']['p95']} ms"
                f" (cpu% {best['cpu_pct']})"
            )
        else:
            print(f"{server}: p95 above 100 ms already at the lowest rate")
    for server, mem in results["memory"].items():
        print(
            f"{server}: {mem['players']} idle players: {mem['kb_per_player']} kB RSS each,"
            f" {mem['idle_web_cpu_pct']} % of a core"
        )
    for server, levels in results["latency_ms"].items():
        if not levels:
            continue
        counters = nearest_50(levels)["counters"]
        keys = ("queries", "renders", "db_connects", "pushes", "group_send", "requests")
        shown = {k: v for k, v in counters.items() if k.split(".")[0] in keys}
        print(f"{server} per action: {shown}")
    if "two_processes" in results:
        r = results["two_processes"]
        print(
            f"two {r['server']} processes, {r['tables']} tables: p95 {r['latency']['p95']} ms,"
            f" missed {r['missed']}, every update reached everyone: "
            f"{r['every_update_reached_everyone']}"
        )


def nearest_50(levels: dict) -> dict:
    """The latency level nearest 50 tables (one decision per table every 2 s)."""
    return levels[min(levels, key=lambda c: abs(c - 50))]


def at_50_tables(results: dict, key: str) -> dict:
    """`key` of each server's level nearest 50 tables."""
    return {
        server: nearest_50(levels)[key]
        for server, levels in results["latency_ms"].items()
        if levels
    }


def summary(results: dict) -> dict:
    latency = {
        server: {str(c): r["latency"] for c, r in levels.items()}
        for server, levels in results["latency_ms"].items()
    }
    capacity = {
        s: (c["best"]["done_per_s"] if c["best"] else 0) for s, c in results["capacity"].items()
    }
    best_server = max(capacity, key=capacity.get) if capacity else None
    first = next(iter(results["latency_ms"].values()), {})
    mid = nearest_50(first)["counters"] if first else {}
    return {
        "latency_ms": latency,
        "max_actions_per_s": capacity,
        "cpu_pct_at_max": {
            s: c["best"]["cpu_pct"] if c["best"] else None for s, c in results["capacity"].items()
        },
        "rss_kb_per_player": {s: m["kb_per_player"] for s, m in results["memory"].items()},
        # at the level nearest 50 tables (one decision per table every 2 s)
        "web_cpu_ms_per_decision": at_50_tables(results, "web_cpu_ms_per_decision"),
        "web_cpu_ms_per_decision_net": at_50_tables(results, "web_cpu_ms_per_decision_net"),
        "queries_per_action": round(mid.get("queries.http", 0) + mid.get("queries.ws", 0), 2),
        "renders_per_action": round(mid.get("renders.http", 0) + mid.get("renders.ws", 0), 2),
        "db_connects_per_action": round(
            mid.get("db_connects.http", 0) + mid.get("db_connects.ws", 0), 2
        ),
        "two_processes": {
            k: results["two_processes"][k]
            for k in ("tables", "latency", "missed", "every_update_reached_everyone")
        }
        if "two_processes" in results
        else None,
        "faults": results.get("faults"),
        "better_server": best_server,
        "setup": results.get("setup"),
    }


async def main_async(args, stack: Stack) -> dict:
    config = dict(QUICK if args.quick else FULL)
    if args.rates is not None:
        config["rates"] = tuple(args.rates)
    if args.levels is not None:
        config["levels"] = tuple(args.levels)
    bench = Bench(stack, config)
    log("database and Redis")
    stack.start_redis()
    stack.prepare_database()
    stack.start_celery()
    if args.only_faults:  # seat the players, then the faults scenario alone
        port = free_port()
        stack.start_web("web", args.servers[0], port)
        await bench.setup(port)
        stack.stop("web")
    else:
        for server in args.servers:
            await bench.per_server(server)
        if not args.no_split:
            await bench.split("daphne" if "daphne" in args.servers else args.servers[0])
    if not args.no_faults:
        from bench import faults

        try:
            await faults.run(bench)
        except Exception as error:  # reported, so the figures above still print
            bench.results["faults"] = {"ok": False, "error": repr(error)[:300]}
            log(f"faults scenario failed: {error!r}")
    for player in bench.players:
        await player.http.aclose()
    return bench.results


def _interrupt(*_):
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", default=os.environ.get("QUICK") == "1")
    # serve: `make run`'s several daphnes on one port (deploy.serve, WEB_PROCESSES of them);
    # daphne: one process; uvicorn: one process, for comparison.
    parser.add_argument("--servers", nargs="+", default=["serve", "daphne", "uvicorn"])
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument("--only-faults", action="store_true", help="scenario 6 alone")
    parser.add_argument("--keep-db", action="store_true")
    # a part of the bench alone, e.g. `--servers serve --rates 40 50 60 --levels --no-split
    # --no-faults`: the capacity search of make run's setup only
    parser.add_argument("--rates", type=int, nargs="*", help="the capacity search's rates")
    parser.add_argument("--levels", type=int, nargs="*", help="the latency levels (tables)")
    parser.add_argument("--no-split", action="store_true", help="no two-process scenario")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="barajamos-bench-"))
    stack = Stack(workdir)
    signal.signal(signal.SIGTERM, _interrupt)
    started = time.monotonic()
    try:
        results = asyncio.run(main_async(args, stack))
    finally:
        stack.stop_all()
        if not args.keep_db:
            stack.drop_database()
        log(f"stopped everything; logs in {workdir}; {time.monotonic() - started:.0f} s")
    (workdir / "results.json").write_text(json.dumps(results, indent=1))
    print_table(results)
    print(json.dumps(summary(results)))


if __name__ == "__main__":
    main()
