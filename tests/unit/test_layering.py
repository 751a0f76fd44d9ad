"""The core stays free of the UI and of the libraries the adapters wrap; the outer layers meet
only at their seams.

Every module of ``cockpit.domain`` and ``cockpit.services`` (found, not listed, so a new one is
covered the day it lands) is imported in a fresh interpreter and its ``sys.modules`` inspected.
Loaders and actions never import ``cockpit.bootstrap``; the UI never imports ``cockpit.actions``;
only ``cockpit.bootstrap`` builds adapters (see ARCHITECTURE.md).
"""

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import cockpit
import cockpit.domain
import cockpit.gates
import cockpit.services

FORBIDDEN = ("textual", "github", "git", "httpx", "requests")


def _modules(package) -> list[str]:
    return [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]


CORE = (
    _modules(cockpit.domain)
    + _modules(cockpit.services)
    + ["cockpit.gates", *_modules(cockpit.gates)]
    + ["cockpit.config", "cockpit.errors"]
)


def test_the_core_list_is_not_empty():
    assert "cockpit.services.branch_diff" in CORE and "cockpit.domain.gates" in CORE


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_ui_or_library(module):
    code = (
        f"import importlib, sys, json; importlib.import_module({module!r}); "
        "print(json.dumps(sorted(m for m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    leaked = sorted(name for name in loaded if name.split(".")[0] in FORBIDDEN)
    assert not leaked, f"{module} pulls in {leaked}"


# The seams between the outer layers, read from the source (every import statement, also those
# inside functions and under TYPE_CHECKING: a type-only import is a dependency too).

PACKAGE_ROOT = Path(cockpit.__file__).parent
ADAPTER_CLASSES = {"GitRepo", "GitHubClient", "WheelIndex", "PyPIClient", "StepCommandRunner"}
BUILDS_ITS_OWN: dict[str, str] = {}  # module -> why it may build an adapter itself (none today)


def _source_modules(*packages: str) -> list[str]:
    found = []
    for package in packages:
        folder = PACKAGE_ROOT.joinpath(*package.split(".")[1:])
        found += [f"{package}.{path.stem}" for path in sorted(folder.glob("*.py"))]
    return found


def _imports(module: str) -> set[str]:
    """Every module ``module`` imports, and every name it takes from one (``pkg.mod.Name``)."""
    path = PACKAGE_ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _within(names: set[str], package: str) -> list[str]:
    return sorted(n for n in names if n == package or n.startswith(package + "."))


LOADERS_AND_ACTIONS = _source_modules("cockpit.loaders", "cockpit.actions")
UI = _source_modules("cockpit.ui", "cockpit.ui.panes")


def test_the_outer_layers_are_found():
    assert "cockpit.loaders.picks" in LOADERS_AND_ACTIONS and "cockpit.actions.checklist" in LOADERS_AND_ACTIONS
    assert "cockpit.ui.app" in UI and "cockpit.ui.panes.milestone" in UI


@pytest.mark.parametrize("module", LOADERS_AND_ACTIONS)
def test_loaders_and_actions_take_the_ports_not_the_composition_root(module):
    """They are given ``cockpit.ports.Ports``; only bootstrap knows which adapters stand behind it."""
    assert not _within(_imports(module), "cockpit.bootstrap"), f"{module} imports cockpit.bootstrap"


@pytest.mark.parametrize("module", UI)
def test_the_ui_runs_actions_through_the_registry_it_is_given(module):
    """Panes read an action's title and danger, its dry run and its result from ``backend.actions``
    (typed by ``cockpit.backend.ActionCatalog``); action targets are domain objects."""
    assert not _within(_imports(module), "cockpit.actions"), f"{module} imports an action module"


@pytest.mark.parametrize(
    "module",
    _source_modules("cockpit", "cockpit.cli", "cockpit.loaders", "cockpit.actions", "cockpit.ui", "cockpit.ui.panes"),
)
def test_only_the_composition_root_builds_adapters(module):
    """App and CLI alike get their GitHub client, clone, index and PyPI clients from cockpit.bootstrap."""
    if module in ("cockpit.bootstrap", *BUILDS_ITS_OWN):
        return
    adapters = _within(_imports(module), "cockpit.adapters")
    built = [name for name in adapters if name.rsplit(".", 1)[-1] in ADAPTER_CLASSES]
    assert not built, f"{module} builds {built} itself: use cockpit.bootstrap"


@pytest.mark.parametrize("module", _source_modules("cockpit.gates"))
def test_a_gate_module_reads_only_the_domain(module):
    """The gate registry is read before the first screen and by every layer above the domain: a gate
    judges its pane's report with plain code over the domain's dataclasses, never through a service."""
    outside = [n for n in _within(_imports(module), "cockpit") if not n.startswith(("cockpit.domain", "cockpit.gates"))]
    assert not outside, f"{module} imports {outside}"
