"""The checklist's own evidence after the final RC, judged: the builds on the RC tag, the tag at the
branch head, the staged wheels, the stable index and PyPI. Red names what failed, unknown says why."""

from __future__ import annotations

from datetime import UTC, datetime

from cockpit.domain.artifacts import ExpectedArtifact, IndexFile
from cockpit.domain.ci import WorkflowRun
from cockpit.domain.gates import GateStatus
from cockpit.domain.promotion import RCTagRuns
from cockpit.services.promotion_gates import (
    final_rc_tag_gate,
    pypi_promoted_gate,
    rc_health_gate,
    stable_gate,
    staged_gate,
)
from cockpit.services.storage import validate_rc

HEAD = "e" * 40
OLD = "2" * 40
T = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


def run(name: str, conclusion: str | None, *, status: str = "completed", run_id: int = 1, minute: int = 0):
    return WorkflowRun(
        run_id,
        name,
        HEAD,
        "v2.5.0-rc2",
        status,
        conclusion,
        html_url=f"https://github.com/acme/torchlet/actions/runs/{run_id}",
        created_at=T.replace(minute=minute),
    )


def test_a_failed_build_on_a_domain_librarys_rc_tag_is_red_naming_the_repository_and_workflow():
    gate = rc_health_gate(
        [
            RCTagRuns("acme/torchlet", "v2.5.0-rc2", HEAD, (run("binary-builds", "success"),)),
            RCTagRuns("acme/vision", "v0.20.0-rc2", OLD, (run("binary-builds", "failure", run_id=7),)),
        ]
    )
    assert gate.status is GateStatus.RED
    assert gate.summary == "acme/vision v0.20.0-rc2 (2222222222): failed: binary-builds"
    assert (
        "acme/vision v0.20.0-rc2 (2222222222): binary-builds failure https://github.com/acme/torchlet/actions/runs/7"
        in gate.details
    )


def test_a_rerun_that_passed_replaces_the_failed_run_it_repeats():
    runs = (run("binary-builds", "failure", run_id=1, minute=0), run("binary-builds", "success", run_id=2, minute=30))
    assert rc_health_gate([RCTagRuns("acme/torchlet", "v2.5.0-rc2", HEAD, runs)]).status is GateStatus.GREEN


def test_builds_still_running_on_the_tag_are_amber():
    gate = rc_health_gate(
        [RCTagRuns("acme/torchlet", "v2.5.0-rc2", HEAD, (run("binary-builds", None, status="in_progress"),))]
    )
    assert gate.status is GateStatus.AMBER and "still running: binary-builds" in gate.summary


def test_no_runs_no_tag_or_an_unreadable_repository_is_unknown_with_the_reason_never_green():
    assert "no workflow runs found" in rc_health_gate([RCTagRuns("acme/torchlet", "v2.5.0-rc2", HEAD)]).summary
    no_tag = rc_health_gate([RCTagRuns("acme/audio", "", where="no push run on an RC tag")])
    assert (
        no_tag.status is GateStatus.UNKNOWN
        and "acme/audio: no RC tag found (no push run on an RC tag)" in no_tag.summary
    )
    failed = rc_health_gate([RCTagRuns("acme/audio", "", error="GET /repos/acme/audio/actions/runs answered 403")])
    assert failed.status is GateStatus.UNKNOWN and "answered 403" in failed.summary


def test_the_final_rc_tag_on_an_older_commit_is_red_with_both_commits():
    gate = final_rc_tag_gate(
        tag="v2.5.0-rc2", remote="origin", remote_tags={"v2.5.0-rc2": OLD}, branch="release/2.5", head=HEAD
    )
    assert gate.status is GateStatus.RED
    assert gate.details == (f"v2.5.0-rc2 on origin: {OLD}", f"head of origin/release/2.5: {HEAD}")


def test_the_final_rc_tag_at_the_head_on_the_remote_is_green_and_a_tag_not_pushed_is_amber():
    at_head = final_rc_tag_gate(
        tag="v2.5.0-rc3", remote="origin", remote_tags={"v2.5.0-rc3": HEAD}, branch="b", head=HEAD
    )
    assert at_head.status is GateStatus.GREEN
    local = final_rc_tag_gate(tag="v2.5.0-rc3", remote="origin", remote_tags={}, branch="b", head=HEAD)
    assert local.status is GateStatus.AMBER and "not on origin: push it" in local.summary


EXPECTED = [ExpectedArtifact("torchlet", "2.5.0", tag, "win_amd64") for tag in ("cp312", "cp313")]


def staged(sizes: dict[str, int]):
    found = [
        IndexFile(e.filename, f"http://x/{e.filename}", sha256="a" * 64, size=sizes[e.filename])
        for e in EXPECTED
        if e.filename in sizes
    ]
    return validate_rc(EXPECTED, found, version="2.5.0")


def test_staging_missing_a_wheel_or_over_the_size_limit_is_red_and_complete_staging_is_green():
    ok = {e.filename: 300_000_000 for e in EXPECTED}
    assert staged_gate(staged(ok), channel="staging", published=False, version="2.5.0").status is GateStatus.GREEN
    missing = staged_gate(
        staged({EXPECTED[0].filename: 300_000_000}), channel="staging", published=False, version="2.5.0"
    )
    assert missing.status is GateStatus.RED and "1 missing" in missing.summary
    big = staged_gate(
        staged({**ok, EXPECTED[1].filename: 1_200_000_000}), channel="staging", published=False, version="2.5.0"
    )
    assert big.status is GateStatus.RED and "over 1000 MB" in big.summary


def test_staging_is_red_once_pypi_already_has_the_version():
    gate = staged_gate(staged({e.filename: 1 for e in EXPECTED}), channel="staging", published=True, version="2.5.0")
    assert gate.status is GateStatus.RED and "already on PyPI" in gate.summary


def test_stable_promotion_none_partial_and_complete():
    expected = {"a+cpu.whl": "cpu", "b+cu126.whl": "cu126", "c+cu126.whl": "cu126"}
    assert stable_gate(expected, set(), version="2.5.0").status is GateStatus.AMBER
    partial = stable_gate(expected, {"a+cpu.whl"}, version="2.5.0")
    assert partial.status is GateStatus.RED
    assert partial.summary == "partly promoted: 1 of 3 files in stable; 2 missing (cu126: 2)"
    assert stable_gate(expected, set(expected), version="2.5.0").status is GateStatus.GREEN
    assert stable_gate({}, set(), version="2.5.0").status is GateStatus.UNKNOWN


def test_pypi_has_the_version_for_every_package_none_or_some():
    assert pypi_promoted_gate({"torchlet": ["2.4.1"], "torchlet-audio": []}, version="2.5.0").status is GateStatus.AMBER
    half = pypi_promoted_gate({"torchlet": ["2.5.0"], "torchlet-audio": ["2.4.1"]}, version="2.5.0")
    assert half.status is GateStatus.RED and "not for torchlet-audio" in half.summary
    assert pypi_promoted_gate({"torchlet": ["2.5.0"]}, version="2.5.0").status is GateStatus.GREEN
