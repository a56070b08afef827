"""The project's modules import one way (scripts/import_graph.py reads every import, those
inside functions included): no cycle, the apps in one order, core under them all, and tasks are
reached by name only."""

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
    upper = ("games.live", "games.views")
    for module, targets in graph.items():
        if module.startswith("games.services"):
            sockets_or_views = {t for t in targets if t.startswith(upper)}
            assert not sockets_or_views, (module, sockets_or_views)
            display = {t for t in targets if t.startswith("games.display")}
            assert not display, (module, display)


def test_the_words_are_a_leaf_every_layer_may_use():
    """games.vocabulary (the French words) imports nothing of the site but the engine and
    core.translations (Django's gettext with the catalog found once per render), itself a
    leaf: services and display both take their messages from it without importing each
    other."""
    script = load_script()
    graph = script.import_graph()
    allowed = {"core.translations"}
    words = {t for t in graph["games.vocabulary"] if not t.startswith("games.engine")}
    assert words - allowed == set()
    assert graph["core.translations"] == set()


def test_every_package_of_the_checkout_is_read():
    script = load_script()
    packages = {p.name for p in script.ROOT.iterdir() if (p / "__init__.py").exists()}
    assert packages - {"tests"} == set(script.PACKAGES)


#: Each app may import the ones before it, never one after: records is built on games (it
#: listens to games.signals), pairs between them, moderation on all.
APP_ORDER = ("games", "pairs", "records", "tournaments", "moderation")


def test_the_apps_import_in_one_order():
    graph = load_script().import_graph()
    for module, targets in graph.items():
        app = module.split(".")[0]
        if app in APP_ORDER:
            later = APP_ORDER[APP_ORDER.index(app) + 1 :]
            assert not {t for t in targets if t.split(".")[0] in later}, module


def test_core_imports_no_app():
    """core/ is what any app may use (Takahē's core/): it imports nothing of the project but
    itself."""
    graph = load_script().import_graph()
    core = {module: targets for module, targets in graph.items() if module.startswith("core")}
    assert core
    for module, targets in core.items():
        assert {t for t in targets if not t.startswith("core.")} == set(), module


def test_no_import_inside_a_function_reaches_another_package():
    """An import hidden in a function is how an edge the layout forbids gets in unseen. Allowed:
    an AppConfig.ready (Django's place to connect receivers), and bench/, whose scripts set
    Django up before they import the site."""
    hidden = [
        (module, target)
        for module, target in load_script().function_imports()
        if module.split(".")[0] != target.split(".")[0]
        and not module.endswith(".apps")
        and not module.startswith("bench.")
    ]
    assert hidden == []


def test_the_parejas_sit_between_games_and_records():
    """pairs builds on games (the salle reads it through games.display.fragments.register_pairs)
    and records on pairs (the pairs' ratings): games never imports pairs, pairs never imports
    records or moderation."""
    script = load_script()
    graph = script.import_graph()
    assert "pairs.services" in graph and "records.services" in graph
    for module, targets in graph.items():
        if module.split(".")[0] == "games":
            assert not {t for t in targets if t.startswith("pairs")}, module
        if module.split(".")[0] == "pairs":
            above = {t for t in targets if t.split(".")[0] in ("records", "moderation")}
            assert not above, (module, above)
