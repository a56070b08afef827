"""Servers the tests start as subprocesses against this run's test database, channel-layer
prefix and Celery queue: daphne (tests/browser) and a Celery worker and beat (tests/presence).
Each runs in its own process group, stopped as a whole."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from tests.helpers import CELERY_QUEUE, CHANNELS_PREFIX, RATELIMIT_PREFIX

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url(db: dict) -> str:
    auth = quote(db.get("USER") or "postgres")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    host = db.get("HOST") or "127.0.0.1"
    return f"postgres://{auth}@{host}:{db.get('PORT') or 5432}/{db['NAME']}"


def server_env(**extra) -> dict:
    """The environment of a server on this run's database, channel layer and queue."""
    from django.db import connection

    return {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "CHANNELS_PREFIX": CHANNELS_PREFIX,
        "CELERY_QUEUE": CELERY_QUEUE,
        "RATELIMIT_PREFIX": RATELIMIT_PREFIX,
        "DEBUG": "1",  # static files straight from the finders, no collectstatic needed
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "ROBOT_PAUSE_SECONDS": "0",
        **{name: str(value) for name, value in extra.items()},
    }


def start(args: list[str], env: dict, name: str) -> tuple[subprocess.Popen, Path]:
    """Start `python -m <args>` with its output in a temporary log file."""
    log_path = Path(tempfile.mkstemp(prefix=f"barajamos-{name}-", suffix=".log")[1])
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped as a whole by stop()
        )
    return process, log_path


def stop(process: subprocess.Popen, sig=signal.SIGTERM, timeout=10.0) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, sig)
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass


def start_daphne(port: int, env: dict) -> tuple[subprocess.Popen, Path]:
    """daphne on 127.0.0.1:`port`, whose pages (and sockets) have that origin."""
    args = ["daphne", "-b", "127.0.0.1", "-p", str(port), "musweb.asgi:application"]
    env = {**env, "SITE_ORIGINS": f"http://127.0.0.1:{port}"}
    process, log_path = start(args, env, "daphne")
    wait_until_up(f"http://127.0.0.1:{port}", process, log_path)
    return process, log_path


def wait_until_up(url: str, process: subprocess.Popen, log_path: Path, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(url + "/regles/", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"daphne did not answer within {timeout}s:\n{log_path.read_text()}")


def wait_for_line(log_path: Path, text: str, process: subprocess.Popen, timeout=30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in log_path.read_text(errors="replace"):
            return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f"no {text!r} within {timeout}s:\n{log_path.read_text(errors='replace')}")


class CeleryStack:
    """A real Celery worker (solo pool, this run's queue) and beat, started and stopped by
    the tests that need Celery's real timing."""

    def __init__(self, env: dict):
        self.env = env
        self.worker = self.beat = None
        self.worker_log = self.beat_log = None
        self.schedule = Path(tempfile.mkdtemp(prefix="barajamos-beat-")) / "schedule"

    def start_worker(self) -> None:
        args = ["celery", "-A", "musweb", "worker", "--pool=solo", "--loglevel=INFO"]
        args += [
            "--hostname",
            f"{self.env['CELERY_QUEUE']}@%h",
            "--queues",
            self.env["CELERY_QUEUE"],
        ]
        args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        self.worker, self.worker_log = start(args, self.env, "worker")
        wait_for_line(self.worker_log, " ready.", self.worker)

    def stop_worker(self, sig=signal.SIGKILL) -> None:
        if self.worker is not None:
            stop(self.worker, sig)
            self.worker = None

    def start_beat(self) -> None:
        args = ["celery", "-A", "musweb", "beat", "--loglevel=INFO", "--max-interval=1"]
        args += ["--schedule", str(self.schedule)]
        self.beat, self.beat_log = start(args, self.env, "beat")

    def worker_output(self) -> str:
        return self.worker_log.read_text(errors="replace") if self.worker_log else ""

    def close(self) -> None:
        self.stop_worker(signal.SIGTERM)
        if self.beat is not None:
            stop(self.beat)


@contextlib.contextmanager
def celery_running(env: dict, *, worker: bool = True):
    """A CeleryStack with its beat (and unless told otherwise its worker) started, closed on
    exit."""
    stack = CeleryStack(env)
    try:
        stack.start_beat()
        if worker:
            stack.start_worker()
        yield stack
    finally:
        stack.close()


class RedisServer:
    """A Redis server of its own on a free port, as the site runs it (nothing on disk): for the
    tests that need a second server (the channel layer's shards) or restart the broker, which
    the shared Redis of the run cannot be."""

    def __init__(self):
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
        )
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None

    def restart(self) -> None:
        """Stopped and started again on its port: what it held is gone, as on the site."""
        self.stop()
        self.start()


@contextlib.contextmanager
def redis_running():
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
