"""The code is formatted, lint-free and type-checks, as `pyproject.toml` configures ruff and mypy.

These run inside the test suite so that the README's test command, which is exactly what `.ci/run`
runs, fails on a formatting, lint or type finding as it fails on a broken test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize(
    "check",
    [["ruff", "format", "--check", "."], ["ruff", "check", "."], ["mypy"]],
    ids=["ruff format", "ruff check", "mypy"],
)
def test_the_code_passes(check, tmp_path):
    cache = ["--cache-dir", str(tmp_path / "cache")]  # a shared cache would race between xdist workers
    done = subprocess.run([sys.executable, "-m", *check, *cache], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(check)} found problems:\n{done.stdout}{done.stderr}"
