"""The overview's Trends section over the sandbox release, in the dark and the light theme, at 120x40
and 80x24; and the series it draws are the sandbox's (not only a widget that exists).

The reports are loaded once through the real adapters with the world's fixed clock, as for the other
sandbox snapshots (``test_snapshots_sandbox``).
"""

from __future__ import annotations

import pytest
from textual.widgets import Sparkline, Static

from cockpit.services.burn_marks import burn_down_marks, cell_of, legend
from cockpit.services.rc_sizes import rc_size_series
from cockpit.services.trends import burn_down, ci_strip, pick_flow
from cockpit.ui.trends import SIZE_LABEL_WIDTH, MarkAxis
from tests.e2e.test_snapshots_sandbox import NOW, loaded, showing, snapshot_app  # noqa: F401 (a fixture)
from tests.pilot import settle


def with_trends(*, scrolled: bool = False):
    """``run_before``: every load finished, then ``t`` on the overview (and, ``scrolled``, down to the RC
    sizes, below the fold at 80x24)."""
    loaded_then = showing(None)

    async def run_before(pilot) -> None:
        await loaded_then(pilot)
        await pilot.press("t")
        await pilot.pause()
        await pilot.pause()
        if scrolled:
            pilot.app.query_one("#trend-sizes-heading").scroll_visible(top=True, animate=False)
            await pilot.pause()
            await pilot.pause()

    return run_before


class TestTrends:
    @pytest.mark.parametrize("theme", ["cockpit-dark", "cockpit-light"])
    @pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
    def test_snapshot(self, loaded, snap_compare, theme, size):  # noqa: F811
        assert snap_compare(snapshot_app(loaded, theme), terminal_size=size, run_before=with_trends())

    @pytest.mark.parametrize("theme", ["cockpit-dark", "cockpit-light"])
    def test_snapshot_rc_sizes_scrolled_to_at_80x24(self, loaded, snap_compare, theme):  # noqa: F811
        run_before = with_trends(scrolled=True)
        assert snap_compare(snapshot_app(loaded, theme), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.anyio
async def test_the_trends_draw_the_sandbox_series(loaded):  # noqa: F811
    app = snapshot_app(loaded, "cockpit-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await showing(None)(pilot)
        await pilot.press("t")
        await settle(app, pilot)
        today = NOW.date()
        milestone, picks, ci = loaded.load_milestone(), loaded.load_picks(), loaded.load_ci()
        burn = burn_down(milestone.milestone, milestone.items, today).open_items.values
        flow = pick_flow(picks.rows, today)

        def drawn(line_id: str) -> list[float]:
            return list(app.query_one(f"#{line_id} Sparkline", Sparkline).data)

        assert drawn("trend-burn") == [float(v) for v in burn]
        assert drawn("trend-arrived") == [float(v) for v in flow.arrived.values]
        assert drawn("trend-resolved") == [float(v) for v in flow.resolved.values]
        assert drawn("trend-pending") == [float(v) for v in flow.pending.values]
        ci_text = str(app.query_one("#trend-ci", Static).render())
        for history in ci.history:
            strip = ci_strip(history)
            assert strip.repository.split("/")[-1] in ci_text
            if strip.first_red is not None:
                assert f"first red: {strip.first_red.name} at {strip.first_red.head_sha[:8]}" in ci_text
        days = loaded.load_branch_diff().days
        axis = app.query_one(MarkAxis)
        series = burn_down(milestone.milestone, milestone.items, today).open_items
        marked = {i for i, c in enumerate(str(axis.render())) if c == "┬"}
        wanted = (days.cut, *(day for _t, day in days.rc_tags), days.final_rc_target)
        assert marked == {cell_of((d - series.start).days, len(burn), axis.size.width) for d in wanted}
        assert len(marked) == 4  # the cut, rc1, rc2 and the final-RC target, each in its own cell
        legend_text = str(app.query_one("#trend-burn-marks .burn-legend", Static).render())
        assert legend_text == legend(series, burn_down_marks(days))
        sizes = rc_size_series(loaded.load_storage().rc_sizes, 1000)
        assert sizes.tags == ("v2.5.0-rc1", "v2.5.0-rc2")
        sizes_text = str(app.query_one("#trend-sizes", Static).render())
        for wheel in sizes.wheels:
            assert f"{wheel.family}".ljust(SIZE_LABEL_WIDTH) in sizes_text
            rc1, rc2 = wheel.sizes
            assert f"{rc1 / 1e6:.1f} → {rc2 / 1e6:.1f} MB at rc2, " in sizes_text
            if "+cu126-" in wheel.filename and "x86_64" in wheel.filename:  # PyPI-bound in the sandbox
                assert f"MB at rc2, {rc2 / 1e9:.0%} of PyPI's limit" in sizes_text
            if "+rocm6.3-" in wheel.filename:  # download site: against its own history
                assert f"{rc2 / 1e6:.1f} MB at rc2, {rc2 / rc1 - 1:+.0%} on rc1" in sizes_text
        assert (
            "RC sizes: each variant's largest wheel at rc1, rc2; PyPI-bound ones against the 1000 MB limit, "
            "the rest against their own history" in str(app.query_one("#trend-sizes-heading", Static).render())
        )
        assert not app.query_one("#storage-scroll").display  # the trends take the artifacts' place

        await pilot.press("t")
        await settle(app, pilot)
        assert app.query_one("#storage-scroll").display and not app.query_one("#trends").display
