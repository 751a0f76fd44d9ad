"""The code is formatted, lint-free and type-checks, as `pyproject.toml` configures ruff and mypy.

These run inside the test suite so that the README's test command, which is exactly what `.ci/run`
runs, fails on a formatting, lint or type finding as it fails on a broken test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


# mypy checks the package and, in the same run, the seams the UI tests' fakes and the real adapters must
# hold (the ``_typed_`` functions of tests/ui/test_seams.py, which import the fakes by their bare module
# names from tests/ui): one cold analysis of the package instead of two. What those test modules import is
# followed silently: their own findings are not this check's business, the seams are.
MYPY = ["mypy", "cockpit", "tests/ui/test_seams.py", "--follow-imports=silent"]


@pytest.mark.parametrize(
    "check",
    [["ruff", "format", "--check", "."], ["ruff", "check", "."], MYPY],
    ids=["ruff format", "ruff check", "mypy"],
)
def test_the_code_passes(check):
    # One cache per check, kept between runs (mypy from cold takes 10-25 s, warm a few): each check is
    # one test, so no two workers of a run share a cache. A clean clone starts cold, as CI does.
    cache = ["--cache-dir", str(ROOT / ".quality-cache" / "-".join(check[:2]))]
    env = {**os.environ, "MYPYPATH": str(ROOT / "tests" / "ui")}
    done = subprocess.run(
        [sys.executable, "-m", *check, *cache], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env
    )
    assert done.returncode == 0, f"{' '.join(check)} found problems:\n{done.stdout}{done.stderr}"
