"""The checklist's actions against a private copy of the sandbox clone and its bare remote: the next
RC tag lands in the remote, the template's tag step runs as real programs, read-only refuses both."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cockpit.actions.checklist import StepRun
from cockpit.bootstrap import build_backend
from cockpit.domain.gates import Gate, GateStatus

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture()
def clone(world_clone_copy) -> Path:
    """The copied clone, its origin pointing at the copied bare remote (never the shared one)."""
    clone = next(p for p in world_clone_copy.iterdir() if p.is_dir() and (p / ".git").is_dir())
    remote = next(p for p in world_clone_copy.iterdir() if p.name.endswith("-remote.git"))
    git(clone, "remote", "set-url", "origin", str(remote))
    return clone


def backend_on(sandbox, clone: Path, *, read_only: bool = False):
    config = replace(sandbox.config, git=replace(sandbox.config.git, clone=clone))
    return build_backend(config, read_only=read_only, clock=lambda: NOW)


def remote_tags(clone: Path) -> dict[str, str]:
    """Tag -> commit in the remote, annotated tags peeled."""
    out = git(clone, "ls-remote", "--tags", "origin")
    tags = {}
    for line in out.splitlines():
        sha, ref = line.split()
        name = ref.removeprefix("refs/tags/")
        if name.endswith("^{}"):
            tags[name[:-3]] = sha
        else:
            tags.setdefault(name, sha)
    return tags


def step(backend, step_id: str):
    return next(s for s in backend.checklist_steps() if s.id == step_id)


def test_the_release_manager_tags_the_next_rc_on_the_branch_head_and_it_reaches_the_remote(sandbox, clone):
    assert {"v2.5.0-rc1", "v2.5.0-rc2"} <= remote_tags(clone).keys()
    head = git(clone, "rev-parse", "origin/release/2.5").strip()
    backend = backend_on(sandbox, clone)
    try:
        lines: list[str] = []
        target = StepRun(step(backend, "tag_final_rc"), on_line=lines.append)
        dry_run = backend.actions.dry_run("checklist.rc_tag", target)
        assert "git tag -a v2.5.0-rc3 origin/release/2.5" in dry_run and head[:12] in dry_run
        assert "git push origin refs/tags/v2.5.0-rc3" in dry_run

        refused = backend.actions.run("checklist.rc_tag", target, confirmed=False)
        assert not refused.ok and "needs a confirmation" in refused.message
        assert "v2.5.0-rc3" not in remote_tags(clone)

        result = backend.actions.run("checklist.rc_tag", target, confirmed=True)
        assert result.ok, result.message
        assert remote_tags(clone)["v2.5.0-rc3"] == head
        assert any("pushed v2.5.0-rc3 to origin" in line for line in lines)
        signoff = backend.state.signoffs()["tag_final_rc"]
        assert signoff.done and signoff.who == backend.who and signoff.when.startswith("2026-11-30T12:00")
        audit = backend.state.audit_log()
        assert [(e.action, e.outcome) for e in audit] == [
            ("checklist.rc_tag", "refused"),
            ("checklist.rc_tag", "started"),  # the intent, on disk before the tag was made
            ("checklist.rc_tag", "ok"),
        ]
        again = backend.actions.dry_run("checklist.rc_tag", target)
        assert "v2.5.0-rc3 already points at" in again and "nothing is tagged" in again, "never two RCs on one commit"
    finally:
        backend.state.close()


def test_the_template_tag_step_runs_its_dry_run_then_its_command_as_programs_in_the_clone(sandbox, clone):
    head = git(clone, "rev-parse", "origin/release/2.5").strip()
    backend = backend_on(sandbox, clone)
    try:
        lines: list[str] = []
        target = StepRun(step(backend, "tag_final_rc"), on_line=lines.append)
        assert backend.actions.dry_run("checklist.dry_run", target) == (
            f"run in {clone}: git rev-parse --verify origin/release/2.5"
            " && git ls-remote --tags origin refs/tags/v2.5.0-rc3"
        )
        dry = backend.actions.run("checklist.dry_run", target, confirmed=True)
        assert dry.ok, dry.message
        assert head in lines and "v2.5.0-rc3" not in remote_tags(clone)

        lines.clear()
        done = backend.actions.run("checklist.run_command", target, confirmed=True)
        assert done.ok, done.message
        assert lines[0] == "$ git tag -a v2.5.0-rc3 origin/release/2.5 -m v2.5.0-rc3"
        assert remote_tags(clone)["v2.5.0-rc3"] == head
        entry = backend.state.audit_log()[-1]
        assert (entry.action, entry.target, entry.outcome) == ("checklist.run_command", "tag_final_rc", "ok")

        again = backend.actions.run(
            "checklist.run_command",
            replace(target, step=replace(target.step, command="git tag -a v2.5.0-rc3 HEAD -m again")),
            confirmed=True,
        )
        assert not again.ok and "exited with status" in again.message
        assert backend.state.audit_log()[-1].outcome == "failed"
    finally:
        backend.state.close()


def test_a_read_only_session_neither_tags_nor_runs_commands(sandbox, clone):
    before = remote_tags(clone)
    backend = backend_on(sandbox, clone, read_only=True)
    try:
        target = StepRun(step(backend, "tag_final_rc"))
        for action_id in ("checklist.rc_tag", "checklist.dry_run", "checklist.run_command"):
            result = backend.actions.run(action_id, target, confirmed=True)
            assert not result.ok and "read-only session" in result.message
        assert remote_tags(clone) == before
        assert git(clone, "tag", "--list", "v2.5.0-rc3") == ""
    finally:
        backend.state.close()


def test_the_pypi_upload_is_locked_once_the_version_is_published(sandbox, clone):
    backend = backend_on(sandbox, clone)
    try:
        backend.load_storage()
        upload = StepRun(replace(step(backend, "promote_pypi"), command="twine upload dist/*"))
        # not on PyPI yet, but the runbook's order holds it: promote only after the staged wheels' inspection
        before = backend.actions.refusal("checklist.run_irreversible", upload)
        assert before is not None and "'stage_pypi' green first" in before
        backend.load_checklist({})
        judged = backend.actions.refusal("checklist.run_irreversible", upload)
        assert (
            "is locked until 'Inspect the staged PyPI wheels (sizes, versions, platforms)' is green (now red" in judged
        )
        backend.shared.pypi_gate = Gate(
            "pypi_not_published", "Not yet on PyPI", GateStatus.AMBER, "2.5.0 is already on PyPI"
        )
        assert "done and locked: already on PyPI" in backend.actions.refusal("checklist.run_irreversible", upload)
        result = backend.actions.run(
            "checklist.run_irreversible", upload, confirmed=True, typed="2.5.0", expected_typed="2.5.0"
        )
        assert not result.ok and "done and locked" in result.message
        assert "promote_pypi" not in backend.state.signoffs()
    finally:
        backend.state.close()
