"""The layer contracts of ``pyproject.toml`` (``[tool.importlinter]``) hold: the pure core reaches no
layer above it, loaders and actions never the composition root, the UI no action or adapter, the
adapters and the state file nothing above them, only bootstrap builds adapters, and no pane imports
another. Run here so that the README's test command and CI fail on a broken contract.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_contracts_are_declared():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    assert {"pure-core", "loaders-and-actions", "ui", "adapters", "panes"} <= {c["id"] for c in contracts}


def test_every_layer_contract_is_kept():
    run = "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True, no_logo=True))"
    done = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"a layer contract is broken:\n{done.stdout}{done.stderr}"
