"""The real stack on loopback, on the bench's own ports, database and Redis: start, restart,
kill, measure (CPU and RSS from /proc), and stop everything (process groups) at the end."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
DB_NAME = os.environ.get("BENCH_DB", "barajamos_bench")
PG_URL = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answers on port {port} after {timeout:.0f} s")


def group_pids(pgid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == pgid:
                    pids.append(int(entry))
            except OSError:
                pass
    return pids


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_kb(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KB
    except OSError:
        return 0


class Stack:
    """Processes by name, each in its own process group, logs in `workdir`."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.procs: dict[str, subprocess.Popen] = {}
        self.commands: dict[str, tuple[list[str], int | None]] = {}
        self.redis_port = free_port()
        self.env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="bench.settings",
            DATABASE_URL=f"{PG_URL}/{DB_NAME}",
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            CHANNELS_PREFIX="bench",
            DEBUG="0",
            SECURE="0",
            SECRET_KEY="bench-only-secret-key-" + "x" * 40,
            LOG_LEVEL="WARNING",
            BENCH_STATIC_ROOT=str(workdir / "static"),
            PYTHONPATH=str(ROOT),
        )

    # ------------------------------------------------------------ processes
    def start(
        self, name: str, command: list[str], port: int | None = None, *, root: Path = ROOT
    ) -> None:
        """Start `command` as `name`; `root`: the source tree it runs (another checkout, for a
        before/after comparison in the same run)."""
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 (kept open by the child)
        self.procs[name] = subprocess.Popen(
            command,
            cwd=root,
            env=dict(self.env, PYTHONPATH=str(root)),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.commands[name] = (command, port)
        if port is not None:
            wait_port(port)

    def stop(self, name: str, sig=signal.SIGTERM, timeout: float = 10.0) -> None:
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        # the group may outlive its leader (prefork children)
        for pid in group_pids(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def restart(self, name: str, sig=signal.SIGTERM) -> None:
        command, port = self.commands[name]
        self.stop(name, sig)
        if port is not None:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:  # wait for the port to be free again
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        time.sleep(0.1)
                except OSError:
                    break
        self.start(name, command, port)

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.stop(name)

    def pid(self, name: str) -> int:
        return self.procs[name].pid

    def cpu(self, name: str) -> float:
        """CPU seconds of the whole process group (a prefork worker's children included)."""
        return sum(cpu_seconds(p) for p in group_pids(self.pid(name)))

    def rss(self, name: str) -> int:
        return sum(rss_kb(p) for p in group_pids(self.pid(name)))

    # ------------------------------------------------------------ the pieces
    def start_redis(self) -> None:
        redis_dir = self.workdir / "redis"
        redis_dir.mkdir(exist_ok=True)
        command = [
            shutil.which("redis-server") or "redis-server",
            *("--port", str(self.redis_port), "--bind", "127.0.0.1", "--dir", str(redis_dir)),
            *("--save", "", "--appendonly", "no", "--daemonize", "no"),
        ]
        self.start("redis", command, self.redis_port)

    def manage(self, *args: str) -> None:
        subprocess.run(
            [str(VENV_BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def prepare_database(self) -> None:
        psql = ["psql", f"{PG_URL}/postgres", "-q", "-v", "ON_ERROR_STOP=1", "-c"]
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"], check=True)
        subprocess.run([*psql, f"CREATE DATABASE {DB_NAME}"], check=True)
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput", "--verbosity", "0")

    def drop_database(self) -> None:
        psql = ["psql", f"{PG_URL}/postgres", "-q", "-c"]
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"], check=False)

    def start_web(self, name: str, server: str, port: int, *, root: Path = ROOT) -> None:
        app = "musweb.asgi:application"
        # Sockets are refused unless their page's origin is one of the site's (core.origins).
        origins = {o for o in self.env.get("SITE_ORIGINS", "").split(",") if o}
        self.env["SITE_ORIGINS"] = ",".join(sorted(origins | {f"http://127.0.0.1:{port}"}))
        if server in ("serve", "serve-shared"):
            # `make run`'s: WEB_PROCESSES daphnes behind HAProxy, a table's sockets on one of them
            # (deploy.serve); serve-shared: the same daphnes on one shared socket, no proxy
            command = [str(VENV_BIN / "python"), "-m", "deploy.serve", "--port", str(port)]
            if server == "serve-shared":
                command += ["--proxy", "none"]
        elif server == "daphne":
            command = [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), app]
        else:
            command = [
                *(str(VENV_BIN / "uvicorn"), app, "--host", "127.0.0.1", "--port", str(port)),
                *("--loop", "uvloop", "--http", "httptools", "--ws", "websockets"),
                *("--no-access-log", "--log-level", "warning"),
            ]
        self.start(name, command, port, root=root)

    def start_celery(self) -> None:
        celery = str(VENV_BIN / "celery")
        self.start(
            "worker",
            [celery, "-A", "musweb", "worker", "--loglevel=WARNING", "--concurrency=2"],
        )
        schedule = str(self.workdir / "celerybeat-schedule")
        self.start("beat", [celery, "-A", "musweb", "beat", "--loglevel=WARNING", "-s", schedule])
