"""The go-live steps a release workflow performs, judged on the sandbox from the emulated runs of acme/test-infra
and the dispatch journal the demo writes: the real staging done, the upload's dry run failed and the upload
held back by the inspection of the staged wheels, the checksum run waiting for its approval."""

from __future__ import annotations

from datetime import UTC, datetime

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.sandbox.demo import seed_dispatches

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_the_demo_shows_staging_done_the_upload_dry_run_failed_and_the_checksums_waiting(sandbox, sandbox_world):
    assert seed_dispatches(sandbox.config, sandbox_world) == 5
    assert seed_dispatches(sandbox.config, sandbox_world) == 0  # a journal already there is kept
    planted = sandbox_world.truth["release_day"]
    backend = build_backend(sandbox.config, clock=lambda: NOW)
    try:
        views = {v.step.id: v for v in backend.load_checklist({}).steps}
    finally:
        backend.state.close()
    stage, upload, sums = views["stage_pypi_run"], views["promote_pypi_run"], views["prod_checksums"]
    assert stage.gate.status is GateStatus.GREEN and f"run {planted['staged']} succeeded" in stage.gate.summary
    assert f"/actions/runs/{planted['staged']}" in stage.gate.summary
    assert upload.gate.status is GateStatus.RED
    assert f"dry run {planted['dry_run_failed']} failed (failure)" in upload.gate.summary
    assert upload.blocked.startswith("locked until 'Inspect the staged PyPI wheels")  # the staged set is red
    assert sums.gate.status is GateStatus.AMBER and "waiting for a reviewer to approve" in sums.gate.summary
    # the smoke tests on the final RC were started from the cockpit and failed; the docker validation never ran
    assert views["rc_smoke_tests"].gate.status is GateStatus.RED
    assert views["validate_docker"].gate.status is GateStatus.UNKNOWN
    assert views["create_release_run"].gate.summary == "no run of create_release.yml on v2.5.0 yet"


def test_when_github_stops_answering_the_other_workflow_steps_are_not_asked(sandbox, sandbox_world):
    """Every workflow-runs request times out: the first step waits its timeout, the rest say they were not
    asked and why, and none is green (with the demo's eight workflow steps, one wait instead of eight)."""
    from dataclasses import replace

    from cockpit.loaders.workflow_steps import workflow_gates

    seed_dispatches(sandbox.config, sandbox_world)
    quick = replace(sandbox.config, github=replace(sandbox.config.github, timeout_s=0.5, retries=0))
    backend = build_backend(quick, read_only=True, clock=lambda: NOW)
    sandbox.github.faults.timeout(3, path=r"/actions/workflows/[^/]+/runs", count=None)
    try:
        gates = [g for name, g in workflow_gates(backend).items() if name != "release_versions"]
    finally:
        sandbox.github.faults.clear()
        backend.state.close()
    assert len(gates) >= 4 and all(g.status is GateStatus.UNKNOWN for g in gates)
    waited = [g for g in gates if "not asked" not in g.summary]
    assert len(waited) == 1 and "did not answer within 0.5 s" in waited[0].summary, [g.summary for g in gates]
    assert all("not asked: GitHub stopped answering" in g.summary for g in gates if g is not waited[0])
