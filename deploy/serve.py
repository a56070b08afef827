"""`python -m deploy.serve`: the site's web processes, several daphnes behind ONE address.

WEB_PROCESSES daphnes (the core count by default), each a whole web process, behind HAProxy
(haproxy.cfg.template beside this file), which sends every request and socket of one table to
the same daphne, the rest round robin: a decision's players are then rendered by the process
that applied it. Each daphne accepts on a loopback socket bound here and handed over (`daphne
--fd`), so one that dies is started again on the same socket. With one process, `--proxy none`
or no haproxy, the daphnes share the listening socket (no table affinity).

    WEB_PROCESSES=4 python -m deploy.serve --host 127.0.0.1 --port 8000"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

APPLICATION = "musweb.asgi:application"
RESTART_PAUSE_SECONDS = 1.0
HEALTH_PATH = "/sante/"
READY_TIMEOUT_SECONDS = 60.0

#: HAProxy lines that put the table id of /tables/<id>/... and /ws/tables/<id>/ in txn.table,
#: for a backend's `balance hash var(txn.table)` (here, and bench.topology's front proxy).
TABLE_ID_RULES = """\
    acl table_socket path_beg /ws/tables/
    acl table_page path_beg /tables/
    http-request set-var(txn.table) path,field(4,/) if table_socket
    http-request set-var(txn.table) path,field(3,/) if table_page
"""

#: The proxy's configuration, a str.format template (host, port, table_id, health,
#: health_host, servers).
HAPROXY_TEMPLATE = Path(__file__).with_name("haproxy.cfg.template")

#: HAProxy lines that put the path the access log shows in txn.logged_path: an invitation link's
#: token (a key to a private table), or a private tournament's, is never written whole
#: (core.log_filters for Django's).
LOGGED_PATH_RULES = """\
    acl invitation_link path_reg ^/tables/[0-9]+/invitation/
    acl tournament_link path_reg ^/tournois/[0-9]+/lien/
    http-request set-var(txn.logged_path) path
    http-request set-var(txn.logged_path) path,field(1,/,4),concat(/...) if invitation_link
    http-request set-var(txn.logged_path) path,field(1,/,4),concat(/...) if tournament_link
"""


def web_processes() -> int:
    """WEB_PROCESSES from the environment, else the number of cores."""
    value = os.environ.get("WEB_PROCESSES", "")
    return max(1, int(value)) if value.strip() else max(1, os.cpu_count() or 1)


def haproxy_binary() -> str | None:
    """Debian's haproxy (in /usr/sbin, which a user's PATH may lack), or None."""
    found = shutil.which("haproxy")
    if found:
        return found
    return "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None


def listening_socket(host: str, port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


def haproxy_config(*, host: str, port: int, backend_ports: list[int], health_host: str) -> str:
    servers = "\n".join(
        f"    server web{slot} 127.0.0.1:{backend} check inter 1s fall 2 rise 1"
        for slot, backend in enumerate(backend_ports)
    )
    return HAPROXY_TEMPLATE.read_text().format(
        host=host,
        port=port,
        servers=servers,
        health=HEALTH_PATH,
        health_host=health_host,
        table_id=TABLE_ID_RULES,
        logged_path=LOGGED_PATH_RULES,
    )


def daphne_command(fd: int, extra: list[str]) -> list[str]:
    daphne = shutil.which("daphne", path=os.path.dirname(sys.executable)) or "daphne"
    return [daphne, "--fd", str(fd), *extra, APPLICATION]


def health_host() -> str:
    """A host the site answers to (ALLOWED_HOSTS' first), for the proxy's health check."""
    hosts = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    return next((h for h in hosts if not h.startswith(".") and h != "*"), "127.0.0.1")


def wait_until_answering(ports: list[int], children: list[subprocess.Popen]) -> None:
    """Until each daphne answers its health check: the proxy starts with every daphne up,
    rather than marking the ones still importing Django down."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    waiting = list(ports)
    while waiting and time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            return  # the supervisor's loop starts it again
        port = waiting[0]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{HEALTH_PATH}", headers={"Host": health_host()}
        )
        try:
            with urllib.request.urlopen(request, timeout=2):
                waiting.pop(0)
        except OSError:
            time.sleep(0.1)


class Supervisor:
    """Child processes by slot: started, started again when they die, stopped together."""

    def __init__(self):
        self.commands: dict[str, tuple[list[str], tuple[int, ...]]] = {}
        self.children: dict[str, subprocess.Popen] = {}
        self.stopping = False

    def start(self, slot: str, command: list[str], pass_fds: tuple[int, ...] = ()) -> None:
        self.commands[slot] = (command, pass_fds)
        self.children[slot] = subprocess.Popen(command, pass_fds=pass_fds)

    def stop(self, signum, _frame=None) -> None:
        self.stopping = True
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signum)

    def watch(self) -> None:
        while not self.stopping:
            time.sleep(0.5)
            for slot, child in list(self.children.items()):
                if child.poll() is not None and not self.stopping:
                    print(f"deploy.serve: {slot} {child.pid} ended ({child.returncode}); again",
                          file=sys.stderr, flush=True)  # fmt: skip
                    time.sleep(RESTART_PAUSE_SECONDS)
                    self.start(slot, *self.commands[slot])
        deadline = time.monotonic() + 15
        for child in self.children.values():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m deploy.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--processes", type=int, default=None, help="default: WEB_PROCESSES")
    parser.add_argument(
        "--proxy",
        choices=["haproxy", "none"],
        default=os.environ.get("WEB_PROXY", "haproxy"),
        help="haproxy (default, WEB_PROXY): table affinity; none: one shared socket",
    )
    args, daphne_args = parser.parse_known_args()
    count = args.processes or web_processes()
    haproxy = haproxy_binary() if args.proxy == "haproxy" and count > 1 else None
    if args.proxy == "haproxy" and count > 1 and haproxy is None:
        print("deploy.serve: haproxy is not installed (apt-get install haproxy): the daphnes "
              "share one socket, without table affinity", file=sys.stderr, flush=True)  # fmt: skip
    supervisor = Supervisor()
    signal.signal(signal.SIGTERM, supervisor.stop)
    signal.signal(signal.SIGINT, supervisor.stop)
    if haproxy is None:
        listener = listening_socket(args.host, args.port)
        for slot in range(count):
            command = daphne_command(listener.fileno(), daphne_args)
            supervisor.start(f"daphne {slot}", command, (listener.fileno(),))
        shown = f"{count} daphne processes on one socket"
    else:
        backends = [listening_socket("127.0.0.1", 0) for _ in range(count)]
        ports = [backend.getsockname()[1] for backend in backends]
        quiet = ["--access-log", os.devnull]  # HAProxy writes the access log
        for slot, backend in enumerate(backends):
            command = daphne_command(backend.fileno(), [*quiet, *daphne_args])
            supervisor.start(f"daphne {slot}", command, (backend.fileno(),))
        wait_until_answering(ports, list(supervisor.children.values()))
        folder = Path(tempfile.mkdtemp(prefix="barajamos-serve-"))
        config = folder / "haproxy.cfg"
        config.write_text(
            haproxy_config(
                host=args.host, port=args.port, backend_ports=ports, health_host=health_host()
            )
        )
        supervisor.start("haproxy", [haproxy, "-db", "-f", str(config)])
        shown = f"{count} daphne processes behind HAProxy, one per table"
    print(f"deploy.serve: {shown}, on http://{args.host}:{args.port}", file=sys.stderr, flush=True)
    supervisor.watch()


if __name__ == "__main__":
    main()
