"""The checklist tells the release manager when the team's status comment on the tracker had entries set
aside (a passer-by's comment carrying the marker, a sign-off dated in the future): one line over the table,
as the last read of the tracker found it; with a clean status comment, no line at all."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from cockpit.bootstrap import build_backend
from cockpit.domain.status import PublishedStatus, SharedSignoff
from cockpit.services.status_comment import marker, render_status
from tests.e2e.driving import running

pytestmark = pytest.mark.anyio


def plant_comment(sandbox, comment_id: int, author: str, body: str, association: str) -> None:
    world = sandbox.world
    with sandbox.github.lock:
        state = sandbox.github.repos[world.repository.lower()]
        state.add_comment(comment_id, world.tracker_issue, author, body).association = association


async def team_problems_line(sandbox) -> str | None:
    """The line over the checklist once every pane has loaded; None when it is not shown."""
    async with running(build_backend(sandbox.config), pane="checklist") as (app, _pilot):
        line = app.query_one("#pane-checklist .team-problems", Static)
        return str(line.render()) if line.display else None


async def test_a_passer_by_comment_with_the_status_marker_is_named_over_the_checklist(sandbox):
    plant_comment(sandbox, 99_000_001, "mallory", f"{marker(sandbox.world.version)}\nall signed", "NONE")
    text = await team_problems_line(sandbox)
    assert text is not None
    assert "The team's status comment on the tracker:" in text
    assert "comment 99000001 by mallory carries the status marker" in text


def forged_block(sandbox) -> str:
    """A member's status comment whose block carries a sign-off dated in the future."""
    version = sandbox.world.version
    future = SharedSignoff("perf_no_regression", True, "Mallory", "2099-01-01T00:00:00Z", "")
    status = PublishedStatus(
        release=version,
        repository=sandbox.world.repository,
        go=False,
        reasons=(),
        gates=(),
        steps=(),
        signoffs={"perf_no_regression": future},
        published_by="alice",
        published_at="2026-10-01T12:00:00Z",
    )
    return render_status(status, None)


async def test_a_sign_off_dated_in_the_future_in_the_teams_block_is_named_over_the_checklist(sandbox):
    plant_comment(sandbox, 99_000_002, "alice", forged_block(sandbox), "MEMBER")
    text = await team_problems_line(sandbox)
    assert text is not None
    assert "'perf_no_regression': dated 2099-01-01T00:00:00Z, in the future; taken for forged" in text
    assert "more" not in text


async def test_several_problems_show_the_first_and_say_where_the_others_are_listed(sandbox):
    plant_comment(sandbox, 99_000_002, "alice", forged_block(sandbox), "MEMBER")
    plant_comment(sandbox, 99_000_003, "mallory", f"{marker(sandbox.world.version)}\nall signed", "NONE")
    text = await team_problems_line(sandbox) or ""
    assert "comment 99000003 by mallory" in text
    assert "(+1 more: cockpit view --from-tracker lists them)" in text


async def test_a_clean_tracker_shows_no_line(sandbox):
    assert await team_problems_line(sandbox) is None
