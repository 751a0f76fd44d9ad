"""Data the cockpit could not read is never taken as clean: a PR that failed to load leaves its
request UNKNOWN with the reason, and whatever is derived from a milestone list that could not be
refreshed goes STALE with it, never presenting a fresh verdict."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.domain.picks import PickFlag
from cockpit.errors import GitHubError
from cockpit.loaders.picture import gather
from tests.e2e.driving import running, settle

MILESTONE = r"/milestones/\d+$|/issues\?"  # the milestone and its one list call


@pytest.fixture
def impatient(sandbox):
    """Short ceilings: half a second per request, one retry, 1 s of waiting on a rate limit."""
    github = replace(sandbox.config.github, timeout_s=0.5, retries=1, max_rate_limit_wait_s=1.0)
    return replace(sandbox.config, github=github)


@pytest.fixture
def wrong_base(impatient):
    """The release PR the world aimed at the wrong branch, as a good load flags it."""
    backend = build_backend(impatient, read_only=True)
    try:
        row = next(r for r in backend.load_picks().rows if PickFlag.WRONG_BASE in r.flags)
    finally:
        backend.state.close()
    return row.request.release_prs[0].number


@pytest.mark.parametrize(
    "fault, says",
    [
        (lambda f, path: f.status_burst(503, count=None, path=path), "503"),
        (lambda f, path: f.not_found(path), "404"),
        (lambda f, path: f.rate_limit(reset_in=3600, path=path, count=None), "rate limit"),
    ],
    ids=["503", "404", "rate-limit"],
)
def test_a_release_pr_that_fails_to_load_leaves_its_request_unknown_with_the_reason(
    sandbox, impatient, wrong_base, fault, says
):
    fault(sandbox.github.faults, rf"/pulls/{wrong_base}$")
    backend = build_backend(impatient, read_only=True)
    try:
        picture = gather(backend)
    finally:
        sandbox.github.faults.clear()
        backend.state.close()
    row = next(r for r in picture.picks.rows if r.request.release_prs and r.request.release_prs[0].number == wrong_base)
    assert PickFlag.COULD_NOT_READ in row.flags
    note = next(n for n in row.notes if n.startswith(f"release PR #{wrong_base} could not be read: "))
    assert says in note.lower() or says in note
    gate = picture.gates["picks_clear"]
    assert "could not read 1 request" in gate.summary
    assert any(d.startswith(f"#{wrong_base}: release PR #{wrong_base} could not be read") for d in gate.details)
    assert not picture.verdict.go


def test_a_branch_history_that_cannot_be_read_keeps_the_picks_gate_unknown_with_the_reason(sandbox):
    config = replace(sandbox.config, git=replace(sandbox.config.git, cut="no-such-cut"))
    backend = build_backend(config, read_only=True)
    try:
        picks = backend.load_picks()
    finally:
        backend.state.close()
    assert picks.unread and "no-such-cut" in picks.unread[0]
    assert "could not read" in picks.gate.summary and "the branch history" in picks.gate.summary
    assert any("which trunk PRs were reverted on main is not known" in d for d in picks.gate.details)


def test_under_a_persistent_503_the_branch_diff_fails_with_the_milestone_instead_of_reusing_its_old_list(
    sandbox, impatient
):
    backend = build_backend(impatient, read_only=True)
    try:
        good_picks = backend.load_picks()
        backend.load_milestone(), backend.load_branch_diff()
        sandbox.github.faults.status_burst(503, count=None, path=MILESTONE)
        with pytest.raises(GitHubError, match="503"):
            backend.load_milestone()
        with pytest.raises(GitHubError, match="503"):
            backend.load_branch_diff()
        # the picks read their trunk PRs one by one instead, and take the reverts from the history alone
        picks = backend.load_picks()
        assert picks.gate == good_picks.gate and not picks.unread
    finally:
        sandbox.github.faults.clear()
        backend.state.close()


@pytest.mark.anyio
async def test_refresh_all_under_a_persistent_503_shows_the_branch_diff_stale_like_the_milestone(sandbox, impatient):
    async with running(build_backend(impatient)) as (app, pilot):
        before = app.gates["branch_diff_clean"]
        assert before.status is GateStatus.RED
        for name in ("milestone", "branch"):
            app.pane(name).RETRY_BASE_S = 600  # no automatic retry while the failure is looked at
        sandbox.github.faults.status_burst(503, count=None, path=MILESTONE)
        await pilot.press("R")
        await settle(app, pilot)
        milestone, branch = app.pane("milestone"), app.pane("branch")
        assert milestone.stale and branch.stale
        assert "503" in (branch.error or "")
        gate = app.gates["branch_diff_clean"]
        assert gate.status is GateStatus.UNKNOWN and "STALE" in gate.summary and before.summary in gate.summary
        assert not app.pane("picks").stale, "the picks need no milestone list: they stay fresh"
        sandbox.github.faults.clear()
        await pilot.press("R")
        await settle(app, pilot)
        assert not branch.stale and app.gates["branch_diff_clean"] == before


@pytest.mark.anyio
async def test_when_only_the_milestone_fails_to_refresh_the_branch_diff_derived_from_it_goes_stale_too(
    sandbox, impatient
):
    async with running(build_backend(impatient)) as (app, pilot):
        before = app.gates["branch_diff_clean"]
        for name in ("milestone", "branch"):
            app.pane(name).RETRY_BASE_S = 600
        sandbox.github.faults.status_burst(503, count=None, path=MILESTONE)
        await pilot.press("1", "r")  # the milestone pane alone is loaded again
        await settle(app, pilot)
        branch = app.pane("branch")
        assert app.pane("milestone").stale and branch.stale and "503" in (branch.error or "")
        gate = app.gates["branch_diff_clean"]
        assert gate.status is GateStatus.UNKNOWN and "STALE" in gate.summary and before.summary in gate.summary
        sandbox.github.faults.clear()
        await pilot.press("R")
        await settle(app, pilot)
        assert not branch.stale and app.gates["branch_diff_clean"] == before
