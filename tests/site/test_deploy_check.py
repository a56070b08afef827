"""`manage.py check --deploy` in the environments the README documents: production behind
HTTPS, and `make run` on this machine (plain HTTP on loopback)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": "x7!k2p" * 10,
    "ALLOWED_HOSTS": "barajamos.example",
    "SECURE": "1",
}


def deploy_check(tmp_path, **env) -> subprocess.CompletedProcess:
    """check --deploy with only `env` set among the site's variables; a missing SECRET_KEY
    reads the key file from `tmp_path`, never the checkout's."""
    base = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE", "SECRET_KEY_FILE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base, "SECRET_KEY_FILE": str(tmp_path / "secret_key"), **env},
        capture_output=True,
        text=True,
    )


def test_deploy_check_passes_with_the_documented_production_settings(tmp_path):
    result = deploy_check(tmp_path, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_passes_for_make_run_with_no_variable_set(tmp_path):
    result = deploy_check(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_public_host_without_https_keeps_the_https_warnings(tmp_path):
    result = deploy_check(tmp_path, **{**PRODUCTION, "SECURE": "0"})
    assert result.returncode != 0
    for check in ("W004", "W008", "W012", "W016"):
        assert f"security.{check}" in result.stderr


def test_deploy_check_fails_in_debug(tmp_path):
    result = deploy_check(tmp_path, **PRODUCTION, DEBUG="1")
    assert result.returncode != 0
    assert "security.W018" in result.stderr
