import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_deploy_check_passes_with_production_settings():
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "x7!k2p" * 10,
        "ALLOWED_HOSTS": "barajamos.example",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_fails_with_the_dev_secret():
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "barajamos.example"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
