"""`python -m bench.cpu`: web-process CPU time per decision, the figure capacity depends on.

It seats tables on the bench stack, plays each way of deciding (a POST, the open socket) at a
steady rate and reads the web processes' CPU from /proc, net of the same sockets' idle CPU.
Every compared way runs in the same run, so a shared, noisy machine still compares them
fairly: --spectators N (the socket way with N watching the first table, docs/spectators.md),
--languages (four players in four languages against French only, docs/languages.md)."""

import argparse
import asyncio
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.players import PASSWORD, Spectator, Stats
from bench.run import QUICK, Bench, log, per_action
from bench.stack import ROOT, VENV_BIN, Stack, free_port


async def measure(bench: Bench, names: list[str], via_socket: bool, seconds: float, rate: float):
    tables = bench.tables
    for table in tables:
        table.via_socket = via_socket
    period = len(tables) / rate
    stats = Stats()
    start = time.monotonic() + 0.5
    warm_until = start + 3.0
    end = warm_until + seconds
    plays = [
        t.play(stats, start + period * i / len(tables), period, end, warm_until)
        for i, t in enumerate(tables)
    ]
    runner = asyncio.gather(*plays)
    await asyncio.sleep(max(0, warm_until - time.monotonic()))
    cpu0, actions0, t0 = web_cpu(bench, names), stats.actions, time.monotonic()
    await asyncio.sleep(max(0, end - time.monotonic()))
    cpu1, actions1, t1 = web_cpu(bench, names), stats.actions, time.monotonic()
    await runner
    return {"cpu_s": cpu1 - cpu0, "decisions": actions1 - actions0, "wall_s": t1 - t0}, stats


def profiler(folder: str | None, bench: Bench, server: str, name: str, seconds: float):
    """py-spy (if --profile, a folder) sampling the web process over the measured window:
    collapsed stacks in FOLDER/NAME.txt (see bench/profile_summary.py)."""
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    command = [
        *(shutil.which("py-spy") or "py-spy", "record", "-p", str(bench.stack.pid(server))),
        # --gil: only the thread holding the GIL is sampled, i.e. where the Python CPU goes
        # (threads waiting on a queue or a socket are left out).
        *("-d", str(int(seconds) + 3), "-r", "200", "--format", "raw", "-s", "--gil"),
        *("-o", str(Path(folder) / f"{name}.txt")),
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


LANGUAGES = ["fr", "es", "eu", "en"]


async def speak(bench: Bench, way: str) -> None:
    """Before a window of `way` "socket-fr" or "socket-four": every player's language (the
    language cookie, as the picker leaves it), then every socket opened again to read it."""
    if "-" not in way or bench.speaking == way:
        return
    for number, player in enumerate(bench.players):
        language = LANGUAGES[number % 4] if way.endswith("four") else "fr"
        player.http.cookies.set("django_language", language)
    await bench.disconnect_all()
    await bench.gather_limited((t.reconnect() for t in bench.tables), 10)
    bench.speaking = way


async def fresh_parties(bench: Bench) -> None:
    """Before a window (--fresh): every table's partie cancelled and a new one dealt to the
    same four, so the window plays the first decisions of twenty parties and none ends in it
    (a partie's end, its records and the next table weigh more than what is compared)."""
    await bench.disconnect_all()
    table_ids = [str(t.table_id) for t in bench.tables]
    command = [str(VENV_BIN / "python"), "-m", "bench.dbtool", "cancel", *table_ids]
    subprocess.run(command, cwd=ROOT, env=bench.stack.env, check=True, stdout=subprocess.DEVNULL)
    for table in bench.tables:  # the next player hosts: a person opens ten tables in ten minutes
        table.players = table.players[1:] + table.players[:1]
    await bench.gather_limited((t.sit_down() for t in bench.tables), 8)
    await bench.gather_limited((t.reconnect() for t in bench.tables), 10)


def web_cpu(bench: Bench, names: list[str]) -> float:
    return sum(bench.stack.cpu(name) for name in names)


async def idle(bench: Bench, names: list[str], seconds: float) -> float:
    """Web CPU seconds per second with every socket connected and nothing played."""
    cpu0, t0 = web_cpu(bench, names), time.monotonic()
    await asyncio.sleep(seconds)
    return (web_cpu(bench, names) - cpu0) / (time.monotonic() - t0)


def per_decision(window: dict, idle_rate: float) -> dict:
    net = max(0.0, window["cpu_s"] - idle_rate * window["wall_s"])
    decisions = max(window["decisions"], 1)
    return {
        "decisions": window["decisions"],
        "decisions_per_s": round(window["decisions"] / window["wall_s"], 1),
        "web_cpu_ms_per_decision": round(1000 * net / decisions, 2),
        "web_cpu_ms_per_decision_gross": round(1000 * window["cpu_s"] / decisions, 2),
    }


async def use_server(bench: Bench, name: str) -> None:
    """Every player on web process `name` (its HTTP and its sockets)."""
    if bench.current == name:
        return
    await bench.disconnect_all()
    bench.rebase(bench.ports[name])
    # As the pages do: a socket refused while so many open at once is opened again.
    await bench.gather_limited((t.reconnect() for t in bench.tables), 10)
    bench.current = name


async def main_async(args, stack: Stack) -> dict:
    config = dict(QUICK, tables=args.tables)
    bench = Bench(stack, config)
    bench.watching = []
    stack.start_redis()
    stack.prepare_database()
    stack.start_celery()
    bench.ports = {"web": free_port()}
    stack.start_web("web", "daphne", bench.ports["web"])
    # (server, way) windows: this tree's POST and socket; a baseline checkout's POST (its own
    # code has no socket decisions) when --baseline names one.
    windows = [("web", "post"), ("web", "socket")]
    spectators: list[Spectator] = []
    if args.spectators:
        windows = [("web", "socket"), ("web", f"watched{args.spectators}")]
        spectators = await spectators_logged_in(stack, bench, args.spectators)
    if args.languages:
        windows = [("web", "socket-fr"), ("web", "socket-four")]
    bench.speaking = ""
    if args.baseline:
        bench.ports["base"] = free_port()
        stack.start_web("base", "daphne", bench.ports["base"], root=Path(args.baseline))
        windows[:0] = [("base", way) for way in args.baseline_ways]
    bench.rebase(bench.ports["web"])
    bench.current = "web"
    await bench.setup(bench.ports["web"])
    await bench.gather_limited((t.reconnect() for t in bench.tables), 10)
    out = {"tables": args.tables, "rate": args.rate}
    for server in bench.ports:
        await use_server(bench, server)
        for way in sorted({w for s, w in windows if s == server}):  # warm each code path
            await speak(bench, way)
            await measure(bench, [server], way != "post", 3.0, args.rate)
        idle_rate = await idle(bench, [server], args.seconds / 2)
        out[f"{server}_idle_cpu_pct"] = round(100 * idle_rate, 1)
    for round_ in range(args.rounds):
        # ABBA: the parties grow longer (more to render) as the run goes on, so each window
        # goes first in one round and last in the next
        for server, way in windows if round_ % 2 == 0 else windows[::-1]:
            if len(bench.ports) > 1:
                await use_server(bench, server)
            idle_rate = out[f"{server}_idle_cpu_pct"] / 100
            await speak(bench, way)
            if args.fresh:
                await fresh_parties(bench)
            spy = profiler(args.profile, bench, server, f"{server}_{way}_{round_}", args.seconds)
            await watched_by(spectators if way.startswith("watched") else [], bench)
            await bench.reset(bench.ports[server])
            sent = sum(s.received_bytes for s in spectators)
            window, stats = await measure(bench, [server], way != "post", args.seconds, args.rate)
            counters = await bench.counters(bench.ports[server])
            if spy is not None:
                spy.wait()
            result = per_decision(window, idle_rate)
            # the web process's own counts (renders, pushes, queries...) per decision, warm-up
            # included (bench.instrument)
            result["per_decision"] = {
                k: v
                for k, v in per_action(counters, stats.actions).items()
                if not k.endswith("_s") or k.startswith("gc")  # GC pauses: ms per decision
            }
            result["statuses"] = {str(k): v for k, v in stats.statuses.items()}
            if spectators:
                received = sum(s.received_bytes for s in spectators) - sent
                result["spectator_bytes_per_decision"] = round(received / max(stats.actions, 1))
            result["missed"] = stats.missed
            # a partie's end (finisher, records, the next table) weighs on its window: told apart
            result["parties_ended"] = stats.finished
            out[f"{server}_{way}_{round_}"] = result
            log(f"{server} {way}: {result}")
    await watched_by([], bench)
    await bench.disconnect_all()
    for player in (*bench.players, *spectators):
        await player.http.aclose()
    return out


async def spectators_logged_in(stack: Stack, bench: Bench, count: int) -> list[Spectator]:
    subprocess.run(
        [str(VENV_BIN / "python"), "-m", "bench.dbtool", "spectators", str(count), PASSWORD],
        cwd=ROOT,
        env=stack.env,
        check=True,
    )
    spectators = [Spectator(f"watch{i:04d}", bench.base(bench.ports["web"])) for i in range(count)]
    await bench.gather_limited((s.login() for s in spectators), 16)
    return spectators


async def watched_by(spectators: list[Spectator], bench: Bench) -> None:
    """These spectators (and no other) watch the first table."""
    table_id = bench.tables[0].table_id
    for spectator in bench.watching:
        if spectator not in spectators:
            await spectator.disconnect()
    for spectator in spectators:
        if spectator not in bench.watching:
            await spectator.connect(table_id)
    bench.watching = list(spectators)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cpu")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rate", type=float, default=20.0, help="decisions per second")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", help="another checkout: its web process, compared")
    parser.add_argument(
        "--baseline-ways",
        nargs="+",
        default=["post"],
        choices=["post", "socket", "socket-fr", "socket-four"],
        help="how the baseline's players decide (socket: a checkout with socket decisions; "
        "socket-fr / socket-four with --languages: before and after in the same run)",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="the socket way again with this many spectators on the first table (try --tables 1)",
    )
    parser.add_argument("--profile", help="a folder: py-spy's samples of each window there")
    parser.add_argument(
        "--languages",
        action="store_true",
        help="socket decisions at French tables vs four-language tables (issue 34)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="every window from newly dealt parties: none ends in a window (fresh_parties)",
    )
    args = parser.parse_args()
    stack = Stack(Path(tempfile.mkdtemp(prefix="barajamos-cpu-")))
    try:
        results = asyncio.run(main_async(args, stack))
    finally:
        stack.stop_all()
        stack.drop_database()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
