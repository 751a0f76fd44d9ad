"""The core stays free of the UI and of the libraries the adapters wrap."""

import subprocess
import sys

import pytest

FORBIDDEN = ("textual", "github", "git", "httpx", "requests")
CORE = [
    "cockpit.domain.gates",
    "cockpit.domain.release",
    "cockpit.domain.github",
    "cockpit.domain.picks",
    "cockpit.domain.commits",
    "cockpit.domain.ci",
    "cockpit.domain.artifacts",
    "cockpit.domain.checklist",
    "cockpit.domain.reports",
    "cockpit.services.milestone",
    "cockpit.services.pick_parser",
    "cockpit.services.picks",
    "cockpit.services.ci",
    "cockpit.services.branch_diff",
    "cockpit.services.storage",
    "cockpit.services.checklist",
    "cockpit.services.overview",
    "cockpit.config",
]


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_ui_or_library(module):
    code = (
        "import importlib, sys, json; importlib.import_module(%r); "
        "print(json.dumps(sorted(m for m in sys.modules)))" % module
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(__import__("json").loads(out))
    leaked = sorted(name for name in loaded if name.split(".")[0] in FORBIDDEN)
    assert not leaked, f"{module} pulls in {leaked}"
