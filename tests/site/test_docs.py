"""The docs that trace the code name what is there: every module, function, class or constant
written `games.x.y` in README.md or docs/architecture.md exists, every file they name exists,
and every test they name (`tests/….py::test_x`) is one."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/architecture.md")
PACKAGES = ("games", "core", "records", "tournaments", "moderation", "accounts", "musweb", "deploy")
QUOTED = re.compile(r"`([^`\s]+)`")
DOTTED = re.compile(rf"^(?:{'|'.join(PACKAGES)})(?:\.\w+)+$")
PATH = re.compile(r"^[\w.-]+/[\w./-]*$")
FILE_TYPES = ("md", "py", "html", "txt", "toml", "template")


def quoted(doc: str) -> list[str]:
    return QUOTED.findall((ROOT / doc).read_text())


def traced(doc: str) -> list[str]:
    """The words of the doc's code blocks (README's traces)."""
    blocks = re.findall(r"```\n(.*?)```", (ROOT / doc).read_text(), re.S)
    return [word for block in blocks for word in block.split()]


def resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS)
def test_every_name_of_the_code_a_doc_writes_exists(doc):
    names = [
        name
        for name in quoted(doc) + traced(doc)
        if DOTTED.match(name) and name.rpartition(".")[2] not in FILE_TYPES
    ]
    assert names
    assert [name for name in names if not resolves(name)] == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_file_and_test_a_doc_names_exists(doc):
    missing = []
    for text in quoted(doc):
        path, _, test = text.partition("::")
        if not PATH.match(path) or not (ROOT / path.split("/")[0]).is_dir():
            continue
        found = (ROOT / path).exists()
        if not found or (test and f"def {test}(" not in (ROOT / path).read_text()):
            missing.append(text)
    assert missing == []


def test_the_architecture_names_every_module_of_the_live_layer_and_the_display():
    text = (ROOT / "docs/architecture.md").read_text()
    modules = [
        path.stem
        for folder in ("games/live", "games/display")
        for path in sorted((ROOT / folder).glob("*.py"))
        if path.stem != "__init__"
    ]
    assert [name for name in modules if not re.search(rf"\b{name}\b", text)] == []


def test_the_capacity_doc_is_the_current_state_and_its_history_a_log():
    assert len((ROOT / "docs/capacity.md").read_text().splitlines()) <= 200
    assert (ROOT / "docs/capacity-log.md").exists()
