"""`python -m bench.topology` (`make bench-topology`): past one machine, on loopback.

Two "machines" (daphnes and a worker each) behind one HAProxy share the bench's database and a
channel layer sharded over two Redis servers; machine A is killed mid-play and its players
reconnect to B. It checks from PostgreSQL that no acknowledged decision was lost or
duplicated, and prints one JSON line. The set-up and the checks: docs/bench.md.
"""

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

from bench.faults import db_games, dbtool
from bench.players import Player, Stats, percentiles
from bench.run import Bench, log
from bench.stack import VENV_BIN, Stack, free_port, wait_port
from deploy.serve import TABLE_ID_RULES, haproxy_binary

HAPROXY_CONFIG = """global
    maxconn 8000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    # an open WebSocket is a tunnel: idle for the heartbeat's period between messages
    timeout tunnel 1h
    timeout client-fin 5s
    # a connection refused by a dead machine is tried again on the other one
    retries 3
    option redispatch 1
frontend site
    bind 127.0.0.1:{proxy}
    option forwardfor
{table_id}    default_backend machines
backend machines
    # a table's page, POSTs and sockets on one machine, as deploy.serve keeps them on one
    # daphne; consistent: a machine down moves its own tables only, to the machines left
    balance hash var(txn.table)
    hash-type consistent
    option httpchk
    http-check send meth GET uri /sante/ ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    # which machine answered (the bench counts the sockets each one holds)
    http-response set-header X-Machine %s
    server a 127.0.0.1:{a} check inter 1s fall 2 rise 2
    server b 127.0.0.1:{b} check inter 1s fall 2 rise 2
"""


def haproxy() -> str:
    """The haproxy binary; installed from Debian if missing (as .ci/run installs chromium)."""
    found = haproxy_binary()
    if found:
        return found
    log("installing haproxy (apt-get)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "install", "-y", "-q", "haproxy"], check=True, env=env)
    return haproxy_binary() or "haproxy"


def start_topology(stack: Stack, processes: int) -> dict:
    """Redis ×2, the database, machines A and B, beat, the proxy; returns their ports."""
    ports = {"a": free_port(), "b": free_port(), "proxy": free_port(), "redis2": free_port()}
    stack.start_redis()
    stack.start(
        "redis2",
        [
            shutil.which("redis-server") or "redis-server",
            *("--port", str(ports["redis2"]), "--bind", "127.0.0.1"),
            *("--dir", str(stack.workdir / "redis"), "--dbfilename", "redis2.rdb"),
            *("--save", "", "--appendonly", "no", "--daemonize", "no"),
        ],
        ports["redis2"],
    )
    stack.env["CHANNELS_REDIS_URLS"] = ",".join(
        (stack.env["REDIS_URL"], f"redis://127.0.0.1:{ports['redis2']}/0")
    )
    # The pages are served through the proxy: its origin is the site's.
    stack.env["SITE_ORIGINS"] = f"http://127.0.0.1:{ports['proxy']}"
    stack.prepare_database()
    celery = str(VENV_BIN / "celery")
    for machine in ("a", "b"):
        serve = [str(VENV_BIN / "python"), "-m", "deploy.serve", "--port", str(ports[machine])]
        stack.start(f"web-{machine}", [*serve, "--processes", str(processes)], ports[machine])
        worker = [celery, "-A", "musweb", "worker", "--loglevel=WARNING", "--concurrency=1"]
        stack.start(f"worker-{machine}", [*worker, "-n", f"{machine}@%h"])
    schedule = str(stack.workdir / "celerybeat-schedule")
    stack.start("beat", [celery, "-A", "musweb", "beat", "--loglevel=WARNING", "-s", schedule])
    config = stack.workdir / "haproxy.cfg"
    config.write_text(HAPROXY_CONFIG.format(**ports, table_id=TABLE_ID_RULES))
    stack.start("proxy", [haproxy(), "-db", "-f", str(config)], ports["proxy"])
    return ports


def machine_of(player: Player) -> str | None:
    response = getattr(player.ws, "response", None)
    return response.headers.get("X-Machine") if response is not None else None


async def reconnect_after_kill(player: Player, table, killed: float, window: float) -> dict:
    """If this player's socket closes within `window` s of the kill, open it again through the
    proxy at once (then every 0.5 s while refused): the close and the first full render after
    it, in seconds since the kill."""
    reader = player.reader
    if reader is None:
        return {}
    done, _ = await asyncio.wait({reader}, timeout=window)
    if not done:
        return {}
    closed = time.monotonic() - killed
    while True:
        try:
            await player.disconnect()
            await player.connect(table.table_id)
            return {"closed_s": closed, "rendered_s": time.monotonic() - killed}
        except (OSError, websockets.WebSocketException, TimeoutError):
            await asyncio.sleep(0.5)


async def settle(tables, games_version, timeout: float = 15.0) -> list:
    """Wait (up to `timeout`) for every player to show the database's version; those still
    behind after it, as (table, database version, each seat's version)."""
    deadline = time.monotonic() + timeout
    while True:
        behind = [
            (t.table_id, games_version[t.table_id], [p.version for p in t.players])
            for t in tables
            if any(p.version != games_version[t.table_id] for p in t.players)
        ]
        if not behind or time.monotonic() > deadline:
            return behind
        await asyncio.sleep(0.5)


def check_log(bench: Bench, games: dict, logs: dict) -> dict:
    """From PostgreSQL: gaps and duplicates in each game's log, acknowledged decisions missing
    from it, and tables holding more decisions than they were answered (+ cut by the kill)."""
    gaps, twice, lost = [], [], []
    for table_id, game in games.items():
        seqs = [row[0] for row in logs.get(str(table_id), [])]
        if seqs != list(range(1, game["version"] + 1)):
            gaps.append((table_id, game["version"], len(seqs), len(set(seqs))))
    acknowledged: dict[int, int] = {}
    unanswered: dict[int, int] = {}
    rows = {(int(table_id), row[0]): row for table_id, game_log in logs.items() for row in game_log}
    for table in bench.tables:
        for table_id, version, seat, kind in table.acknowledged:
            acknowledged[table_id] = acknowledged.get(table_id, 0) + 1
            row = rows.get((table_id, version))
            if row is not None and row[2] == "end":  # the partie's last decision: then its end
                row = rows.get((table_id, version - 1))
            if row is None or row[1] != seat or row[2] != "play" or row[3] != kind:
                lost.append((table_id, version, seat, kind, row))
        for table_id, count in table.unanswered.items():
            unanswered[table_id] = unanswered.get(table_id, 0) + count
    for table_id, game in games.items():
        most = acknowledged.get(table_id, 0) + unanswered.get(table_id, 0)
        if game["plays"] > most:
            twice.append((table_id, game["plays"], most))
    return {"gaps": gaps, "duplicated": twice, "lost": lost}


async def scenario(bench: Bench, ports: dict, before_s: float, after_s: float) -> dict:
    stack, config = bench.stack, bench.config
    proxy = ports["proxy"]
    await bench.setup(proxy)  # log-ins and tables through the salle, through the proxy
    tables = bench.tables
    await bench.connect(tables)
    stats = Stats()
    period = config["period"]
    start = time.monotonic() + 0.5
    killed_at = start + before_s
    end = killed_at + after_s
    runner = asyncio.gather(
        *(t.play(stats, start + period * i / len(tables), period, end, start)
          for i, t in enumerate(tables))
    )  # fmt: skip
    await asyncio.sleep(max(0, killed_at - time.monotonic()))
    on_machine: dict[str, int] = {}
    for player in bench.players:
        machine = machine_of(player) or "?"
        on_machine[machine] = on_machine.get(machine, 0) + 1
    decisions_before = stats.actions
    killed = time.monotonic()
    stack.stop("web-a", signal.SIGKILL)
    stack.stop("worker-a", signal.SIGKILL)
    log(f"machine A killed after {decisions_before} decisions; sockets by machine {on_machine}")
    reconnects = await asyncio.gather(
        *(reconnect_after_kill(p, t, killed, 10.0) for t in tables for p in t.players)
    )
    await runner
    decisions_after = stats.actions - decisions_before
    log(f"play over: {decisions_after} decisions after the kill")
    # Any socket closed later than the window (none expected) opens again for the final check.
    await asyncio.gather(*(t.reconnect() for t in tables))
    games = db_games(stack)
    behind = await settle(tables, {tid: g["version"] for tid, g in games.items()})
    checked = check_log(bench, games, dbtool(stack, "log"))
    reconnected = [r for r in reconnects if r]
    after_machine: dict[str, int] = {}
    for player in bench.players:
        machine = machine_of(player) or "?"
        after_machine[machine] = after_machine.get(machine, 0) + 1
    closed = percentiles([r["closed_s"] for r in reconnected])
    rendered = percentiles([r["rendered_s"] for r in reconnected])
    return {
        "tables": len(tables),
        "players": len(bench.players),
        "offered_per_s": round(len(tables) / period, 1),
        "sockets_by_machine_at_kill": on_machine,
        "sockets_by_machine_at_end": after_machine,
        "decisions_before_kill": decisions_before,
        "decisions_after_kill": decisions_after,
        "decisions_per_s_before": round(decisions_before / before_s, 1),
        "decisions_per_s_after": round(decisions_after / after_s, 1),
        "reconnected": len(reconnected),
        "socket_closed_after_kill_ms": {k: closed[k] for k in ("p50", "p95", "max")},
        "reconnect_ms": {k: rendered[k] for k in ("p50", "p95", "max")},
        "statuses": {str(k): v for k, v in stats.statuses.items()},
        "cut_by_the_kill": sum(sum(t.unanswered.values()) for t in tables),
        "missed_pushes": stats.missed,
        "latency_ms": percentiles(stats.latency),
        "log_gaps": len(checked["gaps"]),
        "lost": len(checked["lost"]),
        "duplicated": len(checked["duplicated"]),
        "players_behind_at_end": len(behind),
        "detail": {k: v[:5] for k, v in checked.items() if v} | ({"behind": behind[:5]}
                                                                   if behind else {}),
        "ok": not (checked["gaps"] or checked["lost"] or checked["duplicated"] or behind),
    }  # fmt: skip


def _interrupt(*_):
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.topology", description=__doc__)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--period", type=float, default=2.0, help="s between a table's decisions")
    parser.add_argument("--processes", type=int, default=1, help="daphnes per machine")
    parser.add_argument("--before", type=float, default=20.0, help="s of play before the kill")
    parser.add_argument("--after", type=float, default=25.0, help="s of play after the kill")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="barajamos-topology-"))
    stack = Stack(workdir)
    signal.signal(signal.SIGTERM, _interrupt)
    bench = Bench(stack, {"tables": args.tables, "period": args.period})
    bench.rng = random.Random(11)
    result: dict = {}
    try:
        ports = start_topology(stack, args.processes)
        wait_port(ports["proxy"])
        result = asyncio.run(run(bench, ports, args))
    finally:
        stack.stop_all()
        stack.drop_database()
        log(f"stopped everything; logs in {workdir}")
    (workdir / "results.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result))
    sys.exit(0 if result.get("ok") else 1)


async def run(bench: Bench, ports: dict, args) -> dict:
    try:
        return await scenario(bench, ports, args.before, args.after)
    finally:
        for player in bench.players:
            await player.aclose()


if __name__ == "__main__":
    main()
