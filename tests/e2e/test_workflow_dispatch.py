"""Release day's workflows started, watched and approved from the command line, on the sandbox's test-infra:
one confirmation is one dispatch (journalled before it is sent, completed after), the real run waits for a
dry run with the same inputs that succeeded, the typed version guards the real run and the approval, and a
dispatch whose answer never came is found before anything is started again."""

from __future__ import annotations

import json
import time

import pytest

from cockpit.adapters.github_actions import GitHubActions
from cockpit.cli.main import main
from cockpit.errors import ActionRefused
from cockpit.sandbox.world_release_day import TEST_INFRA
from cockpit.state.store import StateStore

pytestmark = pytest.mark.slow

STAGE = "stage_pypi_run"
STAGE_FILE = "release-stage-pypi.yml"


def cli(sandbox, capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["workflows", *args, "--config", str(sandbox.config_path)])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}, captured.err


def dispatch_posts(sandbox) -> list[dict]:
    return [e for e in sandbox.github.log() if e["method"] == "POST" and e["path"].endswith("/dispatches")]


def journal(sandbox) -> list:
    store = StateStore(sandbox.config.resolved_state_path, read_only=True)
    try:
        return store.dispatches()
    finally:
        store.close()


def audit(sandbox) -> list:
    store = StateStore(sandbox.config.resolved_state_path, read_only=True)
    try:
        return store.audit_log()
    finally:
        store.close()


def test_the_dry_run_is_one_dispatch_journalled_with_its_run_and_audited(sandbox, capsys):
    code, out, _err = cli(sandbox, capsys, "start", STAGE)
    assert code == 0, out
    assert out["ok"] and isinstance(out["run_id"], int)
    assert "dry run" in out["message"] and "dryrun=enabled" in out["request"]
    assert len(dispatch_posts(sandbox)) == 1
    (entry,) = journal(sandbox)
    assert entry.dry_run and entry.run_id == out["run_id"] and dict(entry.inputs)["dryrun"] == "enabled"
    assert [(a.action, a.outcome) for a in audit(sandbox)] == [
        ("workflow.dry_run", "started"),
        ("workflow.dry_run", "ok"),
    ]


def test_the_real_run_waits_for_the_dry_run_then_for_the_typed_version_then_for_approval(
    sandbox, sandbox_world, capsys
):
    version = sandbox.config.release.version
    code, out, _ = cli(sandbox, capsys, "start", STAGE, "--real", "--confirm", version)
    assert code == 1 and "no dry run" in out["message"]
    assert dispatch_posts(sandbox) == []
    assert cli(sandbox, capsys, "start", STAGE)[0] == 0  # the dry run succeeds at once in the sandbox
    code, out, _ = cli(sandbox, capsys, "start", STAGE, "--real")
    assert code == 1 and f"type '{version}'" in out["message"]
    assert len(dispatch_posts(sandbox)) == 1
    code, out, err = cli(sandbox, capsys, "start", STAGE, "--real", "--confirm", version, "--wait", "--interval", "0")
    assert code == 1, "the real run waits for an approval nobody gave yet"
    run_id = out["run_id"]
    assert out["watch"]["run"]["status"] == "waiting"
    assert out["watch"]["waiting_for"][0]["environment"] == "pytorchbot-env"
    assert f"run {run_id}" in err  # the progress line
    code, again, _ = cli(sandbox, capsys, "start", STAGE, "--real", "--confirm", version)
    assert code == 1 and f"run {run_id} is waiting" in again["message"], "never a second real run"
    assert len(dispatch_posts(sandbox)) == 2
    code, out, _ = cli(sandbox, capsys, "approve", str(run_id), "--comment", "staged set inspected")
    assert code == 1 and f"type '{version}'" in out["message"]
    code, out, _ = cli(
        sandbox, capsys, "approve", str(run_id), "--comment", "staged set inspected", "--confirm", version
    )
    assert code == 0 and "approved run" in out["message"], out
    code, watched, _ = cli(sandbox, capsys, "watch", str(run_id))
    assert code == 0 and watched["run"]["conclusion"] == "success"
    from cockpit.bootstrap import build_backend

    backend = build_backend(sandbox.config, read_only=True)
    try:  # staging may be run again after a fix (it is not one-shot, unlike the upload: see the walk below)
        assert backend.workflow_start_form(STAGE).real_refused == ""
    finally:
        backend.state.close()
    real = [a.outcome for a in audit(sandbox) if a.action == "workflow.real_run"]
    assert real.count("refused") == 3 and real.count("started") == 1 and real.count("ok") == 1


def staged_gate(sandbox):
    from cockpit.bootstrap import build_backend
    from cockpit.loaders.promotion import pypi_staged

    backend = build_backend(sandbox.config, read_only=True)
    try:
        return pypi_staged(backend)
    finally:
        backend.state.close()


def test_promotion_walked_from_the_failed_dry_run_to_the_upload(sandbox, sandbox_world, capsys):
    """Issue 28's walk on the command line: the upload's dry run failed on the staged set (its log tail says
    so), a re-run fails again while the wheel is missing, the staging is run again for real (dry run first,
    approved), the inspection turns green, the re-run passes, and the upload runs for real once approved."""
    from cockpit.bootstrap import build_backend
    from cockpit.domain.gates import GateStatus
    from cockpit.sandbox.world_promotion import STAGING_GAP, staged_wheel

    truth, version = sandbox_world.truth["release_day"], sandbox.config.release.version
    failed_run, gap = str(truth["dry_run_failed"]), staged_wheel(*STAGING_GAP, version).filename
    code, out, _ = cli(sandbox, capsys, "watch", failed_run)
    assert code == 0
    failed = next(j for j in out["jobs"] if j["conclusion"] == "failure")
    tail = "\n".join(failed["log_tail"])
    assert truth["log_line"] in tail and gap in tail and failed["failed_steps"] == ["Check"]
    assert staged_gate(sandbox).status is GateStatus.RED

    code, out, _ = cli(sandbox, capsys, "rerun", failed_run)
    assert code == 0 and "re-running" in out["message"]
    code, out, _ = cli(sandbox, capsys, "watch", failed_run, "--wait", "--interval", "0")
    assert out["run"]["conclusion"] == "failure" and out["run"]["attempt"] == 2, "nothing was staged since"
    again = next(j for j in out["jobs"] if j["conclusion"] == "failure")
    assert f"{gap} is missing (stage it again)" in "\n".join(again["log_tail"])

    staged = ("--package", STAGING_GAP[0])  # the package whose wheel is missing
    assert cli(sandbox, capsys, "start", STAGE, *staged)[0] == 0  # the staging's dry run
    code, out, _ = cli(sandbox, capsys, "start", STAGE, *staged, "--real", "--confirm", version)
    assert code == 0 and out["run_id"], out
    code, out, _ = cli(sandbox, capsys, "approve", str(out["run_id"]), "--comment", "re-stage", "--confirm", version)
    assert code == 0, out
    assert staged_gate(sandbox).status is GateStatus.GREEN, "the real staging copied the missing wheel"

    assert cli(sandbox, capsys, "rerun", failed_run)[0] == 0
    code, out, _ = cli(sandbox, capsys, "watch", failed_run, "--wait", "--interval", "0")
    assert code == 0 and out["run"]["conclusion"] == "success" and out["run"]["attempt"] == 3

    upload = "promote_pypi_run"
    assert cli(sandbox, capsys, "start", upload)[0] == 0  # the cockpit's own dry run, journalled
    code, out, _ = cli(sandbox, capsys, "start", upload, "--real", "--confirm", version)
    assert code == 0 and out["run_id"], out
    code, out, _ = cli(sandbox, capsys, "approve", str(out["run_id"]), "--comment", "go", "--confirm", version)
    assert code == 0, out
    code, again, _ = cli(sandbox, capsys, "start", upload, "--real", "--confirm", version)
    assert code == 1 and "already succeeded" in again["message"], "PyPI takes a file once: never a second upload"
    backend = build_backend(sandbox.config, read_only=True)
    try:
        assert "already succeeded" in backend.workflow_start_form(upload).real_refused, "said before any button"
    finally:
        backend.state.close()
    assert main(["report", "--format", "json", "--config", str(sandbox.config_path)]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    (view,) = [v for v in report["checklist"]["steps"] if v["step"]["id"] == upload]
    assert view["gate"]["status"] == "green" and "succeeded" in view["gate"]["summary"], view["gate"]


def test_a_dispatch_whose_answer_never_came_is_found_and_not_made_twice(sandbox, capsys):
    """The cockpit was killed after the POST and before it wrote the run's id: the next start finds the run."""
    version = sandbox.config.release.version
    assert cli(sandbox, capsys, "start", STAGE)[0] == 0
    (dry,) = journal(sandbox)
    store = StateStore(sandbox.config.resolved_state_path)
    try:
        inputs = {**dict(dry.inputs), "dryrun": "disabled"}
        store.journal_dispatch(dry.workflow, inputs, dry_run=False, ref="main", by="alice")
    finally:
        store.close()
    client = GitHubActions(sandbox.github_url)
    client.dispatch(TEST_INFRA, STAGE_FILE, "main", inputs, since=time.time())  # sent, then the kill
    assert len(dispatch_posts(sandbox)) == 2
    code, out, err = cli(sandbox, capsys, "start", STAGE, "--real", "--confirm", version)
    assert code == 1 and "already started" in out["message"]
    assert "d0002" in err and "run " in err  # told what the look-up found
    assert len(dispatch_posts(sandbox)) == 2, "no second real run"
    assert all(d.run_id for d in journal(sandbox))


def test_a_read_only_session_starts_nothing_and_says_why(sandbox, capsys):
    code, out, _ = cli(sandbox, capsys, "start", STAGE, "--read-only")
    assert code == 1 and "read-only" in out["message"]
    assert dispatch_posts(sandbox) == []


def test_wrong_input_and_unknown_steps_are_named(sandbox, capsys):
    code, out, _ = cli(sandbox, capsys, "start", STAGE, "--input", "package=not-a-package")
    assert code == 1 and "package: 'not-a-package' is not one of its options" in out["message"]
    assert main(["workflows", "start", "nope", "--config", str(sandbox.config_path)]) == 2
    assert "no checklist step 'nope'" in capsys.readouterr().err
    assert main(["workflows", "watch", "12ab", "--config", str(sandbox.config_path)]) == 2
    assert "expected a run id" in capsys.readouterr().err
    assert dispatch_posts(sandbox) == []


def test_a_workflow_file_changed_after_the_form_was_read_is_not_started(sandbox):
    from cockpit.actions.dispatching import start
    from cockpit.actions.release_workflows import start_form
    from cockpit.bootstrap import build_backend
    from cockpit.services.dispatch_form import StartRequest

    backend = build_backend(sandbox.config, read_only=False)
    try:
        step = next(s for s in backend.checklist_steps() if s.id == STAGE)
        form = start_form(backend, step)
        state = sandbox.github.repos[TEST_INFRA.lower()]
        path = form.spec.path
        state.repo.files["main"][path] = state.repo.files["main"][path].replace(
            "inputs:", "inputs:\n      extra:\n        type: string"
        )
        with pytest.raises(ActionRefused, match="changed on main since the form was read"):
            start(backend.release_workflows, backend.state, StartRequest(form, form.values, dry_run=True), by="alice")
    finally:
        backend.state.close()
    assert dispatch_posts(sandbox) == []


def test_a_start_cut_short_last_time_is_looked_up_and_said_before_the_next_start(sandbox, capsys):
    """Issue 30: the intent of a dispatch killed before it was journalled (so before its POST) is looked up on
    the command line too, and said once on stderr before anything is started."""
    from cockpit.domain.checklist import AuditEntry

    store = StateStore(sandbox.config.resolved_state_path)
    intent = (("kind", "dispatch"), ("where", TEST_INFRA), ("what", f".github/workflows/{STAGE_FILE}"), ("key", "main"))
    store.audit(AuditEntry("2026-12-06T12:00:00Z", "alice", "workflow.dry_run", "x", "started", "", intent))
    store.close()
    code, out, err = cli(sandbox, capsys, "start", STAGE)
    assert code == 0, out
    assert "interrupted last time: Start the dry run on x" in err and "looked: not done: no dispatch" in err
    assert len(dispatch_posts(sandbox)) == 1
    assert [a.outcome for a in audit(sandbox)] == ["started", "not done", "started", "ok"]
    code, out, err = cli(sandbox, capsys, "start", STAGE)
    assert "interrupted last time" not in err, "told once"
