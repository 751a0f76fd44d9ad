"""The whole cockpit, through the real adapters and the emulators, tells the truth the sandbox planted."""

from __future__ import annotations

import json
import urllib.request

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.services.picture import gather


@pytest.fixture()
def picture(sandbox):
    backend = build_backend(sandbox.config, read_only=True)
    try:
        yield gather(backend)
    finally:
        backend.state.close()


def test_every_pane_loads_without_error(picture):
    assert picture.errors == {}
    assert {"milestone_empty", "branch_diff_clean", "picks_clear", "ci_green", "rc_artifacts",
            "pypi_not_published", "checklist"} <= picture.gates.keys()
    assert not picture.verdict.go


def test_branch_diff_verdicts_match_what_was_planted(picture, sandbox_world):
    truth = sandbox_world.truth
    got = {str(i.number): i.verdict.value for i in picture.branch_diff.diff.items}
    wrong = {n: (got.get(n), want) for n, want in truth["verdicts"].items() if got.get(n) != want}
    assert not wrong, f"(got, planted) per item: {wrong}"


def test_reverts_owed_and_fixes_missing_in_main_match(picture, sandbox_world):
    truth = sandbox_world.truth
    diff = picture.branch_diff.diff
    assert {r.revert_sha for r in diff.reverts_to_propagate} == {r["revert_sha"] for r in truth["reverts_owed"]}
    assert {c.sha for c in diff.missing_in_main} == set(truth["missing_in_main"])
    assert picture.gates["branch_diff_clean"].status is GateStatus.RED


def test_ci_verdicts_match_the_three_repositories(picture, sandbox_world):
    got = {v.repository: v.status.value for v in picture.ci.branches}
    assert got == sandbox_world.ci_repositories


def test_storage_finds_the_missing_and_the_oversize_wheel(picture, sandbox_world):
    problems = picture.storage.report.problems
    assert {p.filename for p in problems if p.kind == "missing"} == set(sandbox_world.truth["storage"]["missing"])
    assert {p.filename for p in problems if p.kind == "oversize"} == set(sandbox_world.truth["storage"]["oversize"])
    assert picture.gates["rc_artifacts"].status is GateStatus.RED
    assert not picture.storage.report.published_on_pypi


def test_unrequested_merges_are_the_planted_ones(picture, sandbox_world):
    assert {pr.number for pr in picture.picks.unrequested} == set(sandbox_world.truth["unrequested_merges"])


def test_a_read_only_load_sends_only_gets(sandbox, picture):
    with urllib.request.urlopen(f"{sandbox.github_url}/_sandbox/log") as response:
        log = json.load(response)
    assert log, "the emulator saw no requests"
    assert {entry["method"] for entry in log} <= {"GET", "HEAD"}


def test_the_last_green_commit_and_unstable_jobs_match(picture, sandbox_world):
    detail = sandbox_world.truth["ci_detail"]["acme/torchlet"]
    torchlet = next(v for v in picture.ci.branches if v.repository == "acme/torchlet")
    assert torchlet.last_green_sha == detail["last_green"]
    assert torchlet.commits_behind_green == detail["commits_behind_green"]
    assert len(torchlet.unstable) == len(detail["unstable_failed"])
    assert all("unstable" in job.name for job in torchlet.unstable)


def test_every_kind_of_evidence_is_reported_by_name_as_planted(picture, sandbox_world):
    """Patch ids are evidence only where no reference exists (a reference says it already)."""
    references = {"pr_number", "pr_url", "cherry_pick_trailer", "bulk_pick"}
    wrong = {}
    for item in picture.branch_diff.diff.items:
        planted = set(sandbox_world.truth["evidence"].get(str(item.number), ()))
        if not planted:
            continue
        expected = planted - {"patch_id"} if planted & references else planted
        got = {e.kind.value for e in item.evidence}
        if got != expected:
            wrong[item.number] = (sorted(got), sorted(expected))
    assert not wrong, f"(got, planted) per item: {wrong}"
    kinds = {e.kind.value for i in picture.branch_diff.diff.items for e in i.evidence}
    assert {"pr_number", "pr_url", "cherry_pick_trailer", "bulk_pick", "patch_id", "before_cut"} <= kinds
