"""`python -m deploy.serve`, as `make run` starts it: two daphnes behind HAProxy on one address,
every request and socket of a table on the same daphne, the rest spread; a daphne that dies is
started again while the other answers."""

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest
import websockets.sync.client

from deploy.serve import haproxy_binary, haproxy_config
from tests import processes


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker):
    if haproxy_binary() is None:
        pytest.fail("haproxy is missing: apt-get install haproxy (see .ci/run)")
    port = processes.free_port()
    env = {**processes.server_env(), "SITE_ORIGINS": f"http://127.0.0.1:{port}"}
    process, log_path = processes.start(
        ["deploy.serve", "--port", str(port), "--processes", "2"], env, "serve"
    )
    try:
        processes.wait_until_up(f"http://127.0.0.1:{port}", process, log_path)
        yield port, process, log_path
    finally:
        processes.stop(process)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def status_of(port: int, path: str) -> int:
    """The status of a GET through the proxy, redirects not followed."""
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def open_socket(port: int, path: str) -> None:
    """A table socket's handshake (refused: nobody is logged in), through the proxy."""
    try:
        with websockets.sync.client.connect(
            f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}", open_timeout=5
        ) as socket:
            socket.recv(timeout=5)
    except (websockets.exceptions.WebSocketException, TimeoutError, OSError):
        pass


def daphnes_by_path(log_path, paths: set[str], timeout=5.0) -> dict[str, set[str]]:
    """The daphnes (web0, web1) the proxy's access log shows for each of `paths`."""
    deadline = time.monotonic() + timeout
    while True:
        found: dict[str, set[str]] = {}
        for line in log_path.read_text(errors="replace").splitlines():
            match = re.search(r'"[A-Z]+ (\S+)" \d+ .* (web\d)$', line)
            if match and match.group(1) in paths:
                found.setdefault(match.group(1), set()).add(match.group(2))
        if set(found) == paths or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_a_table_is_served_by_one_daphne_and_the_rest_spread(served):
    port, _, log_path = served
    for table_id in (11, 12, 13, 14):
        for path in (f"/tables/{table_id}/", f"/tables/{table_id}/jouer/"):
            assert status_of(port, path) == 302  # to the log-in page
        open_socket(port, f"/ws/tables/{table_id}/")
    for _ in range(4):
        assert status_of(port, "/regles/") == 200
    paths = {f"/{prefix}tables/{t}/{end}" for t in (11, 12, 13, 14) for prefix, end in
             (("", ""), ("", "jouer/"), ("ws/", ""))}  # fmt: skip
    found = daphnes_by_path(log_path, paths | {"/regles/"})
    for table_id in (11, 12, 13, 14):
        of_table = [found.get(p, set()) for p in paths if f"/{table_id}/" in p]
        assert all(len(daphnes) == 1 for daphnes in of_table), found
        assert len(set.union(*of_table)) == 1, (table_id, found)
    tables = {next(iter(found[f"/tables/{t}/"])) for t in (11, 12, 13, 14)}
    assert tables == {"web0", "web1"}  # the tables themselves are spread over both
    assert found["/regles/"] == {"web0", "web1"}  # round robin without a table


def test_a_daphne_killed_is_started_again_and_the_site_answers_meanwhile(served):
    port, process, log_path = served
    daphnes = subprocess.run(
        ["pgrep", "-P", str(process.pid), "-f", "daphne"], capture_output=True, text=True
    ).stdout.split()
    assert len(daphnes) == 2
    os.kill(int(daphnes[0]), signal.SIGKILL)
    answers = [status_of(port, "/regles/") for _ in range(20)]
    assert answers == [200] * 20
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        now = subprocess.run(
            ["pgrep", "-P", str(process.pid), "-f", "daphne"], capture_output=True, text=True
        ).stdout.split()
        if len(now) == 2 and daphnes[0] not in now:
            break
        time.sleep(0.2)
    assert len(now) == 2 and daphnes[0] not in now
    assert "ended (-9); again" in log_path.read_text(errors="replace")


def test_the_proxy_configuration_is_valid_for_haproxy(tmp_path):
    config = tmp_path / "haproxy.cfg"
    config.write_text(
        haproxy_config(host="127.0.0.1", port=8000, backend_ports=[9001, 9002], health_host="x")
    )
    checked = subprocess.run(
        [haproxy_binary() or shutil.which("haproxy") or "haproxy", "-c", "-f", str(config)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
