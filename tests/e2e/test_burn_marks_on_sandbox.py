"""The burn-down's marks over the sandbox: the cut commit's day and each RC tag's day as git itself
prints them in the world's clone, and the final-RC day the tracker issue announces."""

from __future__ import annotations

import subprocess
from datetime import UTC, date, datetime

from cockpit.bootstrap import build_backend
from cockpit.loaders.picture import gather
from cockpit.sandbox.world_names import T_END
from cockpit.services.burn_marks import burn_down_marks, cell_of, mark_line
from cockpit.services.report_render import render_markdown
from cockpit.services.trends import burn_down
from cockpit.services.trends_text import REPORT_WIDTH
from tests.e2e.test_trends_on_sandbox import TODAY


def git_day(clone: str, *args: str) -> date:
    out = subprocess.run(["git", "-C", clone, *args], check=True, capture_output=True, text=True).stdout
    return datetime.fromtimestamp(int(out.strip()), UTC).date()


def test_the_burn_down_marks_the_cut_each_rc_tag_and_the_final_rc_target(sandbox, sandbox_world):
    backend = build_backend(sandbox.config, read_only=True)
    try:
        picture = gather(backend)
    finally:
        backend.state.close()
    clone = sandbox_world.clone_path
    tags = ("v2.5.0-rc1", "v2.5.0-rc2")
    cut = picture.branch_diff.diff.cut

    days = picture.branch_diff.days
    assert days.cut == git_day(clone, "log", "-1", "--format=%at", cut)
    assert days.rc_tags == tuple(
        (t, git_day(clone, "for-each-ref", "--format=%(creatordate:unix)", f"refs/tags/{t}")) for t in tags
    )
    assert days.final_rc_target == datetime.fromtimestamp(T_END, UTC).date() == date(2026, 10, 1)
    assert days.cut < days.rc_tags[0][1] < days.rc_tags[1][1] <= days.final_rc_target

    series = burn_down(picture.milestone.milestone, picture.milestone.items, TODAY).open_items
    line = mark_line(series, burn_down_marks(days), REPORT_WIDTH)
    wanted = {
        cell_of((d - series.start).days, len(series.values), REPORT_WIDTH)
        for _l, d in [("cut", days.cut), *days.rc_tags]
    }
    wanted.add(cell_of((days.final_rc_target - series.start).days, len(series.values), REPORT_WIDTH))
    assert {i for i, c in enumerate(line) if c == "┬"} == wanted

    section = render_markdown(picture, TODAY).split("### Trends", 1)[1]
    cut_day, (rc1, rc2) = days.cut, (d for _t, d in days.rc_tags)
    assert f"  - marked `{line}` cut {cut_day:%m-%d}, rc1 {rc1:%m-%d}, rc2 {rc2:%m-%d}, target 10-01\n" in section
