"""The whole cockpit, through the real adapters and the emulators, tells the truth the sandbox planted."""

from __future__ import annotations

import json
import urllib.request

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.loaders.picture import gather


@pytest.fixture()
def picture(sandbox):
    backend = build_backend(sandbox.config, read_only=True)
    try:
        yield gather(backend)
    finally:
        backend.state.close()


def test_every_pane_loads_without_error(picture):
    assert picture.errors == {}
    assert {
        "milestone_empty",
        "branch_diff_clean",
        "picks_clear",
        "ci_green",
        "rc_artifacts",
        "pypi_not_published",
        "checklist",
    } <= picture.gates.keys()
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


def test_storage_finds_exactly_the_planted_gaps_variant_by_variant(picture, sandbox_world):
    """Every problem the RC check reports is a planted one, in the variant it was planted in, and
    every planted gap is reported: nothing more (the healthy files of 5 variants x 3 packages pass)."""
    truth = sandbox_world.truth["storage"]
    report = picture.storage.report
    assert len(report.expected) == truth["expected_count"]
    got = {(p.variant, p.kind, p.filename) for p in report.problems}
    planted = {
        (variant, kind, name)
        for variant, kinds in truth["by_variant"].items()
        for kind, names in kinds.items()
        for name in names
    }
    assert got == planted
    assert {v: [p.kind for p in problems] for v, _, problems in report.by_variant()} == {
        "cpu": ["missing"],
        "cu126": ["yanked", "oversize"],
        "cu128": ["missing"],
        "rocm6.3": ["wrong_version"],
        "xpu": [],
    }
    yanked = next(p for p in report.problems if p.kind == "yanked")
    assert "wrong CUDA runtime" in yanked.detail and "counts as not staged" in yanked.detail
    wrong = next(p for p in report.problems if p.kind == "wrong_version")
    assert "METADATA says Version: 2.5.0rc2+rocm6.3" in wrong.detail
    gate = picture.gates["rc_artifacts"]
    assert gate.status is GateStatus.RED
    assert gate.summary == (
        "5 problems: 2 missing, 1 yanked, 1 wrong version, 1 over 1000 MB (in cpu, cu126, cu128, rocm6.3)"
    )
    assert not report.published_on_pypi


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
