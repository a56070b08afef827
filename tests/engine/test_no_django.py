"""Importing the engine must never load Django (games/__init__.py stays empty)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_games_engine_loads_no_django():
    code = (
        "import sys, games.engine, games.engine.replay, games.engine.bench;"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'));"
        "print(len(bad)); print(bad[:5])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "0", proc.stdout


def test_games_package_is_empty_and_engine_uses_no_random_module():
    assert (ROOT / "games" / "__init__.py").read_text().strip() == ""
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        text = path.read_text()
        assert ("import " + "random") not in text and ("from " + "random") not in text, path
