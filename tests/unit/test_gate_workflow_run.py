"""``workflow_run``: a step a release workflow performs, judged from its runs and the cockpit's dispatch journal.

Runs are shaped as GitHub lists the runs of ``release-pypi.yml`` on pytorch/test-infra: no run-name (so every
run is titled by the workflow's name), dispatched from main, and no inputs in the listing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.domain.checklist import ChecklistStep, Dispatch, StepKind, StepWorkflow
from cockpit.domain.ci import WorkflowRun
from cockpit.domain.gates import Gate, GateStatus
from cockpit.services.checklist import checklist_report
from cockpit.services.workflow_runs import judge_workflow_step
from cockpit.state.store import StateStore

WORKFLOW = "pytorch/test-infra:.github/workflows/release-pypi.yml"
SPEC = StepWorkflow(
    "pytorch/test-infra",
    ".github/workflows/release-pypi.yml",
    "main",
    inputs=(("package", ("torchvision",)),),
    real_run=("dryrun", "disabled"),
)
URL = "https://github.com/pytorch/test-infra/actions/runs/{}"


def run(run_id, *, status="completed", conclusion="success", ref="main", event="workflow_dispatch", hour=10):
    return WorkflowRun(
        id=run_id,
        name="Release binary to pypi",
        head_sha="61a77570f45416dc425c17d4a648376541a84732",
        head_branch=ref,
        status=status,
        conclusion=conclusion if status == "completed" else None,
        html_url=URL.format(run_id),
        event=event,
        created_at=datetime(2026, 8, 21, hour, 0, tzinfo=UTC),
        display_title="Release binary to pypi",
        actor="atalman",
    )


def sent(run_id, *, package="torchvision", dryrun="disabled", by="rita"):
    inputs = (("dryrun", dryrun), ("package", package))
    return Dispatch(f"d{run_id}", WORKFLOW, inputs, dryrun != "disabled", "main", "2026-08-21T09:59:00Z", by, run_id)


def judge(runs, journal=(), spec=SPEC):
    return judge_workflow_step("promote_pypi_run", "Promote", spec, runs, journal, workflow=WORKFLOW)


def test_a_real_run_with_this_release_inputs_that_succeeded_is_done_and_linked():
    gate = judge([run(501)], [sent(501)])
    assert gate.status is GateStatus.GREEN and gate.name == "workflow_run[promote_pypi_run]"
    # who started it is GitHub's word (the run's actor), not the name the journal wrote (the clone's git name)
    assert URL.format(501) in gate.summary and "started by atalman at 2026-08-21 10:00 UTC" in gate.summary


def test_a_success_the_journal_does_not_know_is_amber_and_may_be_signed_never_green():
    gate = judge([run(502)])
    assert gate.status is GateStatus.AMBER and gate.signable
    assert "succeeded, inputs unknown (started by atalman at 2026-08-21 10:00 UTC outside the cockpit)" in gate.summary
    assert "sign it off after checking" in gate.summary


def test_a_dry_run_that_succeeded_is_not_done_and_one_that_failed_is_red():
    passed = judge([run(503)], [sent(503, dryrun="enabled")])
    assert passed.status is GateStatus.UNKNOWN and "dry run 503 passed; the real run is next" in passed.summary
    failed = judge([run(504, conclusion="failure")], [sent(504, dryrun="enabled")])
    assert failed.status is GateStatus.RED and "dry run 504 failed (failure)" in failed.summary


def test_the_newest_real_run_failed_is_red_and_one_waiting_for_approval_is_amber():
    failed = judge([run(505, conclusion="failure")], [sent(505)])
    assert failed.status is GateStatus.RED and "run 505 failed" in failed.summary
    waiting = judge([run(506, status="waiting")], [sent(506)])
    assert waiting.status is GateStatus.AMBER and "waiting for a reviewer to approve" in waiting.summary
    assert not waiting.signable
    queued = judge([run(507, status="queued")], [sent(507)])
    assert queued.status is GateStatus.AMBER


def test_runs_on_another_ref_or_with_other_inputs_are_set_aside():
    other_ref = judge([run(508, ref="fix-upload")], [sent(508)])
    assert other_ref.status is GateStatus.UNKNOWN and "set aside" in " ".join(other_ref.details)
    other_package = judge([run(509)], [sent(509, package="torchao")])
    assert other_package.status is GateStatus.UNKNOWN and "no run of release-pypi.yml on main" in other_package.summary
    push = judge([run(510, event="push")], [sent(510)])
    assert push.status is GateStatus.UNKNOWN


def test_one_real_run_per_package_is_needed():
    packages = (("package", ("torchvision", "torchaudio")),)
    spec = StepWorkflow(SPEC.repository, SPEC.path, "main", inputs=packages, real_run=SPEC.real_run)
    half = judge([run(511)], [sent(511)], spec)
    assert half.status is GateStatus.UNKNOWN and half.summary.startswith("1 of 2 runs done; package=torchaudio")
    both = judge([run(511), run(512, hour=11)], [sent(511), sent(512, package="torchaudio")], spec)
    assert both.status is GateStatus.GREEN and both.summary == "2 of 2 runs done"


def test_a_success_after_a_failure_is_done():
    gate = judge([run(513, conclusion="failure", hour=9), run(514, hour=11)], [sent(513), sent(514)])
    assert gate.status is GateStatus.GREEN and "514" in gate.summary


# -- the order: promotion waits for the inspection of the staged wheels ---------------------------------------

INSPECT = ChecklistStep("stage_pypi", "PyPI", "Inspect the staged PyPI wheels", kind=StepKind.GATE, gate="pypi_staged")
PROMOTE = ChecklistStep(
    "promote_pypi_run",
    "PyPI",
    "Promote the wheels to PyPI",
    kind=StepKind.AUTOMATIC,
    gate="workflow_run[promote_pypi_run]",
    needs="stage_pypi",
    irreversible=True,
)


@pytest.mark.parametrize("status", [GateStatus.RED, GateStatus.AMBER, GateStatus.UNKNOWN])
def test_the_promotion_is_locked_with_the_reason_until_the_inspection_is_green(status):
    gates = {"pypi_staged": Gate("pypi_staged", "Staged", status, "2 wheels over the size limit")}
    report = checklist_report([INSPECT, PROMOTE], {}, gates)
    promote = report.steps[1]
    assert promote.blocked == (
        f"locked until 'Inspect the staged PyPI wheels' is green (now {status.value}: 2 wheels over the size limit)"
    )
    assert not promote.done
    assert "locked until 'Inspect the staged PyPI wheels' is green" in " ".join(report.gate.details)


def test_the_promotion_is_free_once_the_inspection_is_green():
    gates = {"pypi_staged": Gate("pypi_staged", "Staged", GateStatus.GREEN, "all 12 wheels staged")}
    assert checklist_report([INSPECT, PROMOTE], {}, gates).steps[1].blocked == ""


# -- the journal in the state file --------------------------------------------------------------------------


def test_the_journal_is_written_before_the_dispatch_and_completed_with_the_run(tmp_path):
    store = StateStore(tmp_path / "state.toml")
    key = store.journal_dispatch(
        WORKFLOW, {"dryrun": "disabled", "package": "torchvision"}, dry_run=False, ref="main", by="rita"
    )
    (entry,) = StateStore(tmp_path / "state.toml", read_only=True).dispatches()
    assert entry.run_id == 0 and entry.inputs == (("dryrun", "disabled"), ("package", "torchvision"))
    store.complete_dispatch(key, 501)
    (entry,) = store.dispatches()
    assert (entry.workflow, entry.run_id, entry.dry_run, entry.by, entry.problem) == (WORKFLOW, 501, False, "rita", "")
    assert judge([run(501)], store.dispatches()).status is GateStatus.GREEN


def test_a_damaged_journal_entry_is_named_and_not_counted(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(
        'schema = 1\n[dispatches.d0001]\nworkflow = "pytorch/test-infra:.github/workflows/release-pypi.yml"\n'
        'inputs = { package = ["torchvision"] }\ndry_run = "no"\nref = "main"\n'
        'dispatched_at = "x"\nby = "\\u001b[2Jeve"\n'
        "run_id = 501\n"
    )
    (entry,) = StateStore(path, read_only=True).dispatches()
    assert "[dispatches.d0001], key 'inputs': expected a table of input = text" in entry.problem
    assert "\x1b" not in entry.by
    assert judge([run(501)], [entry]).status is GateStatus.AMBER  # unknown inputs, never green on a guess
