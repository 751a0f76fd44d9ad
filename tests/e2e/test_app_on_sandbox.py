"""The real app over the real adapters and the sandbox: every pane fills, a tick survives a restart."""

from __future__ import annotations

import tomllib

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running, settle

pytestmark = pytest.mark.anyio


def rows(app, pane: str) -> list[str]:
    table = app.query_one(f"#pane-{pane} .pane-table", RowsTable)
    return [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]


async def test_every_pane_shows_sandbox_data_and_a_tick_is_kept_in_the_state_file(sandbox):
    async with running(build_backend(sandbox.config)) as (app, pilot):
        for key, pane in zip("12345", ("milestone", "picks", "ci", "branch", "checklist"), strict=True):
            await pilot.press(key)
            await pilot.pause()
            assert app.current_name == pane
            assert rows(app, pane), f"pane {pane} is empty"
            assert app.pane(pane).error is None, app.pane(pane).error
        assert {"milestone_empty", "picks_clear", "ci_green", "branch_diff_clean"} <= app.gates.keys()
        assert all(g.status is not GateStatus.UNKNOWN for g in app.gates.values())
        assert any("acme/vision" in r for r in rows(app, "ci"))

        table = app.query_one("#pane-checklist .pane-table", RowsTable)
        manual = next(i for i, r in enumerate(rows(app, "checklist")) if "Performance run shows no regression" in r)
        table.move_cursor(row=manual)
        await pilot.press("space")
        await settle(app, pilot)

    saved = tomllib.loads(sandbox.config.resolved_state_path.read_text(encoding="utf-8"))
    signoff = saved["signoffs"]["perf_no_regression"]
    assert signoff["done"] is True and signoff["who"] and signoff["when"]
    assert saved["audit"][-1]["action"] == "checklist.toggle"

    again = build_backend(sandbox.config)
    try:
        assert again.state.signoffs()["perf_no_regression"].done
    finally:
        again.state.close()
