"""`python -m musweb.serve`: the site's web processes, several daphnes on ONE address.

This process binds the listening socket once and starts WEB_PROCESSES daphne processes (the
machine's core count by default) that all accept on it (`daphne --fd`): the kernel hands each
new connection to one of them, so no proxy and no balancer stands in between. Each daphne is a
whole web process of its own (its table sockets, their heartbeats and lost-push check); they
share the database and the channel layer. A daphne that dies is started again; SIGTERM or
SIGINT stops them all.

    WEB_PROCESSES=4 python -m musweb.serve --host 127.0.0.1 --port 8000
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

APPLICATION = "musweb.asgi:application"
RESTART_PAUSE_SECONDS = 1.0


def web_processes() -> int:
    """WEB_PROCESSES from the environment, else the number of cores."""
    value = os.environ.get("WEB_PROCESSES", "")
    return max(1, int(value)) if value.strip() else max(1, os.cpu_count() or 1)


def listening_socket(host: str, port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


def daphne_command(fd: int, extra: list[str]) -> list[str]:
    daphne = shutil.which("daphne", path=os.path.dirname(sys.executable)) or "daphne"
    return [daphne, "--fd", str(fd), *extra, APPLICATION]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m musweb.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--processes", type=int, default=None, help="default: WEB_PROCESSES")
    args, daphne_args = parser.parse_known_args()
    count = args.processes or web_processes()
    listener = listening_socket(args.host, args.port)
    command = daphne_command(listener.fileno(), daphne_args)
    children: dict[int, subprocess.Popen] = {}
    stopping = False

    def start(slot: int) -> None:
        children[slot] = subprocess.Popen(command, pass_fds=(listener.fileno(),))

    def stop(signum, _frame) -> None:
        nonlocal stopping
        stopping = True
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for slot in range(count):
        start(slot)
    print(
        f"musweb.serve: {count} daphne processes on http://{args.host}:{args.port}",
        file=sys.stderr,
        flush=True,
    )
    while not stopping:
        time.sleep(0.5)
        for slot, child in list(children.items()):
            if child.poll() is not None and not stopping:
                print(f"musweb.serve: daphne {child.pid} ended ({child.returncode}); again",
                      file=sys.stderr, flush=True)  # fmt: skip
                time.sleep(RESTART_PAUSE_SECONDS)
                start(slot)
    deadline = time.monotonic() + 15
    for child in children.values():
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()


if __name__ == "__main__":
    main()
