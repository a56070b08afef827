"""With no variable set, the settings are production ones: DEBUG off and a secret key of this
machine's own, generated once, kept out of git."""

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def setting(name: str, **env) -> str:
    """A setting's value as a fresh process with only `env` among the site's variables sees it."""
    base = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECRET_KEY", "SECRET_KEY_FILE"}
    }
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from django.conf import settings; print(settings.{name})",
        ],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "musweb.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_debug_is_off_unless_asked_for(tmp_path):
    key_file = str(tmp_path / "key")
    assert setting("DEBUG", SECRET_KEY_FILE=key_file) == "False"
    assert setting("DEBUG", SECRET_KEY_FILE=key_file, DEBUG="0") == "False"
    assert setting("DEBUG", SECRET_KEY_FILE=key_file, DEBUG="1") == "True"


def test_without_secret_key_a_local_one_is_made_once_and_kept(tmp_path):
    key_file = tmp_path / "var" / "secret_key"
    first = setting("SECRET_KEY", SECRET_KEY_FILE=str(key_file))
    again = setting("SECRET_KEY", SECRET_KEY_FILE=str(key_file), DEBUG="1")
    assert first == again == key_file.read_text().strip()
    assert len(first) >= 50 and "insecure" not in first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert list(key_file.parent.iterdir()) == [key_file]  # no draft left behind


def test_secret_key_from_the_environment_wins(tmp_path):
    key_file = tmp_path / "key"
    assert setting("SECRET_KEY", SECRET_KEY_FILE=str(key_file), SECRET_KEY="k" * 60) == "k" * 60
    assert not key_file.exists()


def test_the_local_secret_key_is_kept_out_of_git():
    result = subprocess.run(
        ["git", "check-ignore", "--quiet", ".secret_key"], cwd=ROOT, capture_output=True
    )
    assert result.returncode == 0
