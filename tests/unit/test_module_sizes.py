"""A newcomer reads a module in one sitting: none of ``cockpit/`` is over 400 lines, the app under 300."""

from __future__ import annotations

from pathlib import Path

import cockpit

PACKAGE = Path(cockpit.__file__).parent
MAX_LINES = 400
APP_MAX_LINES = 299  # the app is bindings as data and the pane table's wiring, nothing more


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_400_lines():
    over = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py") if (n := _lines(p)) > MAX_LINES}
    assert not over, f"split by what each part does (STYLE.md): {over}"


def test_the_app_stays_under_300_lines():
    assert _lines(PACKAGE / "ui" / "app.py") <= APP_MAX_LINES
