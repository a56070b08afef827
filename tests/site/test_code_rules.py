"""Rules of the code that no import graph shows, read from the source with `ast`: one module
sends to the channel layer, one function knows the teams, and no listener decides a publish by
being imported."""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The site's packages (bench/ holds a stand-in site of its own, bench/floor_app.py).
SITE = ("games", "records", "moderation", "accounts", "musweb", "core", "deploy")
LAYER_CALLS = {"send", "group_send", "group_add", "group_discard", "group_send_blocking"}


def site_modules():
    for package in SITE:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text())


def calls(tree):
    return (node for node in ast.walk(tree) if isinstance(node, ast.Call))


def test_only_broadcast_sends_to_the_channel_layer():
    """A send, or a group joined or left, on anything named a layer: only games/broadcast.py
    (a consumer's own `self.send` is its websocket, not the layer)."""
    senders = {
        path
        for path, tree in site_modules()
        for call in calls(tree)
        if isinstance(call.func, ast.Attribute)
        and call.func.attr in LAYER_CALLS
        and "layer" in ast.unparse(call.func.value)
    }
    assert senders == {"games/broadcast.py"}


def test_importing_the_live_layer_registers_no_listener():
    """broadcast skips a publish only for a process whose fan-out listens (its first table
    socket): importing the sockets' modules must not change what a worker publishes."""
    code = (
        "import django; django.setup(); import games.live.consumers; "
        "from games import broadcast; print(broadcast._local_listeners)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "musweb.settings", "SECRET_KEY": "k" * 50, "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "None"


def test_the_team_of_a_seat_is_only_told_by_team_of():
    """Teams 0 (seats 0, 2) and 1 (seats 1, 3): `games.engine.team_of`, nowhere `% 2` again
    (a count's parity, `len(...) % 2`, is no team)."""
    parities = {
        path
        for path, tree in site_modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and isinstance(node.right, ast.Constant)
        and node.right.value == 2
        and not (isinstance(node.left, ast.Call) and ast.unparse(node.left.func) == "len")
    }
    assert parities == {"games/engine/types.py"}


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return [name for name in names if name not in ("self", "cls")]


def test_no_function_of_the_display_takes_more_than_six_parameters():
    """More is a view model passed in pieces: a dataclass (games.display.view_model) holds it."""
    crowded = [
        (path, node.name)
        for path, tree in site_modules()
        if path.startswith("games/display/")
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and len(parameters(node)) > 6
    ]
    assert crowded == []


def test_the_table_view_model_renders_nothing():
    """games.display.table_view builds plain data; games.display.regions is the one render."""
    tree = ast.parse((ROOT / "games/display/table_view.py").read_text())
    imported = {
        alias.name if isinstance(node, ast.Import) else f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    renderers = {"core.jinja", "games.display.regions", "django.template."}
    assert not {name for name in imported if name.startswith(tuple(renderers))}


def test_no_test_module_imports_another():
    """Shared helpers live in modules that are not tests (tests/helpers.py, tests/sockets.py,
    tests/processes.py, tests/*/helpers.py): importing a test module would collect its tests
    twice over and tie one file's tests to another's; a conftest is loaded by pytest, for its
    fixtures, and never imported."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(
                name.startswith("tests.") and name.split(".")[-1].startswith(("test_", "conftest"))
                for name in names
            ):
                found.append(path.relative_to(ROOT).as_posix())
    assert found == []


#: Every first-party package: the site's, the pairs' and the benchmarks'.
FIRST_PARTY = (*SITE, "pairs", "bench")
FIGURE = r"\d+(\.\d+)?\s*(ms|%|kB|MB|µs|decisions/s)\b"
#: A benchmark names what it measures, so "measured" alone is no figure there.
MEASUREMENT = re.compile(rf"{FIGURE}|\bmeasured\b")


def first_party_modules():
    for package in FIRST_PARTY:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text())


def test_module_docstrings_say_why_in_ten_lines_without_measurements():
    """Figures and their history belong in docs/ (docs/capacity.md, docs/engine.md,
    docs/services.md, docs/bench.md), where they can be kept current."""
    long_or_measured = []
    for path, tree in first_party_modules():
        text = ast.get_docstring(tree, clean=False) or ""
        figures = re.compile(FIGURE) if path.startswith("bench/") else MEASUREMENT
        if len(text.strip().splitlines()) > 10 or figures.search(text):
            long_or_measured.append(path)
    assert long_or_measured == []
