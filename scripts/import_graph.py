"""Print the import graph of the project's own packages and its cycles.

Reads the source with `ast` instead of importing it, so imports inside functions (the usual way
to hide a cycle) count as much as those at the top of a module. Run from the checkout:

    .venv/bin/python scripts/import_graph.py          # every edge, then the cycles
    .venv/bin/python scripts/import_graph.py --cycles # the cycles only (exit status 1 if any)
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "games",
    "pairs",
    "records",
    "tournaments",
    "reviews",
    "moderation",
    "accounts",
    "musweb",
    "core",
    "deploy",
    "bench",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                modules[module_name(path)] = path
    return modules


def imported_names(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name an import statement of `tree` may refer to, anywhere in the file."""
    names = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from games import presence` imports the module games.presence; `from
            # games.models import Game` the module games.models (resolve walks up to it).
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module `name` stands for: itself, or the closest package holding it."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    """{module: the project modules it imports}."""
    modules = project_modules()
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        targets = {
            resolve(name, modules) for name in imported_names(tree, module, path.stem == "__init__")
        }
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def function_imports() -> list[tuple[str, str]]:
    """(module, project module) of each import made inside a function rather than at the top."""
    modules = project_modules()
    found = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for statement in function.body:
                names = imported_names(statement, module, path.stem == "__init__")
                targets = {resolve(name, modules) for name in names} - {None, module}
                found.extend((module, target) for target in sorted(targets))
    return sorted(set(found))


def importers_of(graph: dict[str, set[str]], module: str) -> list[str]:
    return sorted(source for source, targets in graph.items() if module in targets)


def main(argv: list[str]) -> int:
    graph = import_graph()
    if "--cycles" not in argv:
        for module in sorted(graph):
            print(f"{module} -> {', '.join(sorted(graph[module])) or '(nothing)'}")
        print()
    found = cycles(graph)
    print(f"cycles: {len(found)}")
    for component in found:
        print("  " + " <-> ".join(component))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
