"""No import circle in ``cockpit``: a module can be read, tested and moved without the ones above it.

Every module is parsed (not imported) and every ``import`` in it counts, wherever it stands: at the
top, inside a function, or under ``TYPE_CHECKING``. A deferred or type-only import is still a
dependency a reader has to follow, and a circle through one is still a circle. The strongly
connected components of that graph (Tarjan's algorithm) must all be single modules.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import cockpit

PACKAGE_ROOT = Path(cockpit.__file__).parent

# A circle someone is removing in a change of its own, named by its modules (or their prefix) and the
# change; empty while there is none. The last test below fails once a listed circle is gone.
BEING_REMOVED: dict[tuple[str, ...], str] = {}


def _listed(circle: tuple[str, ...], names: tuple[str, ...]) -> bool:
    return all(module.startswith(names) for module in circle)


def _owner(circle: tuple[str, ...]) -> str | None:
    return next((owner for names, owner in BEING_REMOVED.items() if _listed(circle, names)), None)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _all_modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE_ROOT.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names, relative levels resolved against ``module``."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    is_package = _all_modules()[module].name == "__init__.py"
    base = package if is_package else package[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the cockpit modules it imports anywhere in its source."""
    modules = _all_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(name, node)
                # ``from cockpit.x import y`` depends on cockpit.x.y when y is a module, else on cockpit.x
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]
            for target in targets:
                # ``import cockpit.a.b`` runs cockpit.a too, but the edge that matters is to the module named
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iterative (the graph is a few hundred modules deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def test_the_graph_sees_deferred_and_type_only_imports():
    graph = import_graph()
    assert "cockpit.ui.app" in graph and "cockpit.services.picks" in graph
    assert "cockpit.domain.picks" in graph["cockpit.services.picks"]


def test_tarjan_finds_a_circle_and_leaves_a_chain_alone():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert sorted(strongly_connected(graph)) == [["a", "b", "c"], ["d"], ["e"]]


def test_no_import_circle():
    circles = [tuple(c) for c in strongly_connected(import_graph()) if len(c) > 1]
    unexpected = [c for c in circles if _owner(c) is None]
    listed = "\n".join(" <-> ".join(c) for c in unexpected)
    assert not unexpected, f"import circles (move the shared piece down into its own module):\n{listed}"


def test_the_allow_list_names_only_circles_that_still_exist():
    circles = [tuple(c) for c in strongly_connected(import_graph()) if len(c) > 1]
    gone = [names for names in BEING_REMOVED if not any(_listed(c, names) for c in circles)]
    assert not gone, f"no circle is left of {gone}: remove them from BEING_REMOVED"
