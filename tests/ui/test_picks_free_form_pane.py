"""A free-form request in the cherry-pick pane: its status says so and the PRs it mentions are
shown (marked "?": their role is not known), so it is never a silent "unparsed"."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fake_backend import NOW, FakeBackend
from fake_world import picks_report
from pane_alone import PaneAlone, settle

from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio

TASK_LIST = "- [ ] #442\n- [ ] #464\n"


class FreeFormBackend(FakeBackend):
    def load_picks(self):
        request = PickRequest(
            20,
            "ines",
            TASK_LIST,
            free_form=True,
            mentioned_prs=(PRRef(442), PRRef(464)),
            created_at=NOW - timedelta(days=2),
        )
        loaded = PullRequest(
            442, "Fix the decoder leak", PullState.MERGED, "main", "leak", "https://x/pull/442", body="Trunk fix body"
        )
        row = PickRow(
            request,
            PickStatus.FREE_FORM,
            (PickFlag.FREE_FORM,),
            2.0,
            notes=("free-form: mentions #442 #464 without saying whether trunk or release PR",),
            pulls=(loaded,),
        )
        report = picks_report(NOW)
        return self._load("picks", lambda: replace(report, rows=(*report.rows, row)))


async def test_a_free_form_request_shows_its_status_and_the_prs_it_mentions():
    app = PaneAlone(FreeFormBackend(), PicksPane)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table = app.query_one("#pane-picks .pane-table", RowsTable)
        assert str(table.get_cell("20", "status")) == "free-form"
        assert str(table.get_cell("20", "flags")) == ""  # the status already says it
        assert str(table.get_cell("20", "trunk")) == "#442? #464?"
        table.move_cursor(row=table.get_row_index("20"))
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, DetailScreen)
        assert "Status: free form" in screen.lines[0]
        assert any("mentions #442 #464" in line for line in screen.lines)
        assert "### Mentioned PR #442: Fix the decoder leak" in screen.markdown
