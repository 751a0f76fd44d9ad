"""The core stays free of the UI and of the libraries the adapters wrap.

Every module of ``cockpit.domain`` and ``cockpit.services`` (found, not listed, so a new one is
covered the day it lands) is imported in a fresh interpreter and its ``sys.modules`` inspected.
"""

import json
import pkgutil
import subprocess
import sys

import pytest

import cockpit.domain
import cockpit.services

FORBIDDEN = ("textual", "github", "git", "httpx", "requests")


def _modules(package) -> list[str]:
    return [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]


CORE = _modules(cockpit.domain) + _modules(cockpit.services) + ["cockpit.config", "cockpit.errors"]


def test_the_core_list_is_not_empty():
    assert "cockpit.services.branch_diff" in CORE and "cockpit.domain.gates" in CORE


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_ui_or_library(module):
    code = (
        "import importlib, sys, json; importlib.import_module(%r); "
        "print(json.dumps(sorted(m for m in sys.modules)))" % module
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    leaked = sorted(name for name in loaded if name.split(".")[0] in FORBIDDEN)
    assert not leaked, f"{module} pulls in {leaked}"
