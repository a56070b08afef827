"""The project's modules import one way (scripts/import_graph.py reads every import, those
inside functions included): no cycle, and tasks are reached by name only."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "import_graph.py"


def load_script():
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_import_graph_has_no_cycle():
    script = load_script()
    assert script.cycles(script.import_graph()) == []


def test_nothing_imports_the_tasks():
    script = load_script()
    graph = script.import_graph()
    assert "games.tasks" in graph
    assert script.importers_of(graph, "games.tasks") == []


def test_the_services_import_nothing_of_the_sockets_or_views():
    script = load_script()
    graph = script.import_graph()
    upper = {"games.consumers", "games.views", "games.heartbeats", "games.display.fragments"}
    for module, targets in graph.items():
        if module.startswith("games.services"):
            assert not targets & upper, (module, targets & upper)
