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
def test_the_code_passes(check):
    # One cache per check, kept between runs (mypy from cold takes 10-25 s, warm a few): each check is
    # one test, so no two workers of a run share a cache. A clean clone starts cold, as CI does.
    cache = ["--cache-dir", str(ROOT / ".quality-cache" / "-".join(check[:2]))]
    done = subprocess.run([sys.executable, "-m", *check, *cache], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(check)} found problems:\n{done.stdout}{done.stderr}"
