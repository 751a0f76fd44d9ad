"""The checklist's steps after the final RC, judged through the real adapters over the emulators and a
copy of the sandbox clone: each verdict is the one the sandbox planted, and a step that is an action
turns green whether the cockpit did it or someone did it by hand."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.checklist import StepOverride, StepRun
from cockpit.domain.gates import GateStatus
from cockpit.loaders.promotion import promotion_gates
from cockpit.sandbox.model import SbPyPIRelease, SbWheel

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
STEPS = {
    "rc_health": "rc_health",
    "final_rc_tagged": "tag_final_rc",
    "pypi_staged": "stage_pypi",
    "stable_promoted": "promote_stable",
    "pypi_promoted": "promote_pypi",
}


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture()
def clone(world_clone_copy) -> Path:
    """The copied clone, its origin the copied bare remote (the shared one is never written)."""
    clone = next(p for p in world_clone_copy.iterdir() if p.is_dir() and (p / ".git").is_dir())
    remote = next(p for p in world_clone_copy.iterdir() if p.name.endswith("-remote.git"))
    git(clone, "remote", "set-url", "origin", str(remote))
    return clone


def backend_on(sandbox, clone: Path | None = None, *, read_only: bool = False):
    config = sandbox.config if clone is None else replace(sandbox.config, git=replace(sandbox.config.git, clone=clone))
    return build_backend(config, read_only=read_only, clock=lambda: NOW)


def checklist_views(backend):
    return {v.step.id: v for v in backend.load_checklist({}).steps}


def test_every_promotion_gate_is_the_verdict_the_sandbox_planted(sandbox, sandbox_world):
    truth = sandbox_world.truth["promotion"]
    backend = backend_on(sandbox, read_only=True)
    try:
        gates = promotion_gates(backend)
        views = checklist_views(backend)
    finally:
        backend.state.close()
    assert {name: gate.status.value for name, gate in gates.items()} == {n: t["status"] for n, t in truth.items()}
    for gate_name, step_id in STEPS.items():  # the steps follow them: automatic, with the evidence
        assert views[step_id].gate == gates[gate_name]
        assert views[step_id].done is (gates[gate_name].status is GateStatus.GREEN)


def test_rc_health_names_the_red_domain_library_and_why_the_other_is_unknown(sandbox, sandbox_world):
    planted = sandbox_world.truth["promotion"]["rc_health"]["repositories"]
    backend = backend_on(sandbox, read_only=True)
    try:
        gate = promotion_gates(backend)["rc_health"]
    finally:
        backend.state.close()
    assert planted["acme/vision"]["failed"] == ["binary-builds"] and planted["acme/audio"]["status"] == "unknown"
    assert "acme/vision v0.20.0-rc2" in gate.summary and "failed: binary-builds" in gate.summary
    assert "acme/audio: no RC tag found" in gate.summary
    assert any(
        line.startswith("acme/torchlet v2.5.0-rc2") and line.endswith("workflows green") for line in gate.details
    )
    assert any("binary-builds failure https://" in line for line in gate.details)


def test_the_final_rc_tag_on_an_older_commit_is_red_with_both_commits(sandbox, sandbox_world):
    planted = sandbox_world.truth["promotion"]["final_rc_tagged"]
    backend = backend_on(sandbox, read_only=True)
    try:
        gate = promotion_gates(backend)["final_rc_tagged"]
    finally:
        backend.state.close()
    assert gate.status is GateStatus.RED
    assert gate.details == (
        f"{planted['tag']} on origin: {planted['tag_sha']}",
        f"head of origin/release/2.5: {planted['head']}",
    )


def test_the_cockpits_rc_tag_action_turns_the_tag_step_green(sandbox, clone):
    backend = backend_on(sandbox, clone)
    try:
        assert checklist_views(backend)["tag_final_rc"].gate.status is GateStatus.RED
        step = next(s for s in backend.checklist_steps() if s.id == "tag_final_rc")
        result = backend.actions.run("checklist.rc_tag", StepRun(step), confirmed=True)
        assert result.ok, result.message
        view = checklist_views(backend)["tag_final_rc"]  # at once: the action is in the audit log
        assert view.done and view.gate.status is GateStatus.GREEN
        assert view.gate.summary.startswith("v2.5.0-rc3 on origin names the head of release/2.5")
    finally:
        backend.state.close()


def test_a_final_rc_tag_pushed_by_hand_is_seen_too(sandbox, clone):
    head = git(clone, "rev-parse", "origin/release/2.5").strip()
    git(clone, "tag", "-a", "v2.5.0-rc3", head, "-m", "v2.5.0-rc3")
    backend = backend_on(sandbox, clone, read_only=True)
    try:
        assert promotion_gates(backend)["final_rc_tagged"].status is GateStatus.AMBER  # not on the remote yet
        git(clone, "push", "origin", "v2.5.0-rc3")
        gate = promotion_gates(backend)["final_rc_tagged"]
    finally:
        backend.state.close()
    assert gate.status is GateStatus.GREEN and head[:10] in gate.summary


@pytest.fixture()
def promoted_by_hand(sandbox, sandbox_world):
    """Someone finished the promotion outside the cockpit: every RC file in stable, 2.5.0 on PyPI."""
    world = sandbox.world
    wheels, pypi = list(world.wheels), list(world.pypi)
    rc = [w for w in world.wheels if w.channel == "test" and w.yanked is None]
    promoted = {w.filename for w in world.wheels if w.channel == "stable"}
    world.wheels.extend(
        SbWheel("stable", w.package, w.filename, w.size, w.sha256, variant=w.variant)
        for w in rc
        if w.filename not in promoted
    )
    world.pypi.extend(SbPyPIRelease(p, sandbox_world.version, [], "2026-12-10T12:00:00Z") for p in world.packages)
    try:
        yield
    finally:
        world.wheels[:], world.pypi[:] = wheels, pypi


def test_a_promotion_done_outside_the_cockpit_is_seen_and_pypi_locks_its_step(sandbox, promoted_by_hand):
    backend = backend_on(sandbox, read_only=True)
    try:
        views = checklist_views(backend)
    finally:
        backend.state.close()
    assert views["promote_stable"].gate.status is GateStatus.GREEN
    pypi = views["promote_pypi"]
    assert pypi.gate.status is GateStatus.GREEN and pypi.done
    assert pypi.locked.startswith("done and locked: on PyPI")
    staged = views["stage_pypi"].gate  # staging is past once PyPI has the version
    assert staged.status is GateStatus.RED and "already on PyPI" in staged.summary


def test_signing_over_the_red_rc_health_with_a_note_shows_an_override_not_a_green_step(sandbox):
    backend = backend_on(sandbox)
    try:
        view = checklist_views(backend)["rc_health"]
        target = StepOverride(view.step, view.gate, "vision's wheel build was a runner outage; rebuilt and checked")
        assert backend.actions.run("checklist.override", target, confirmed=True).ok
        after = checklist_views(backend)["rc_health"]
        log = backend.state.audit_log()
    finally:
        backend.state.close()
    assert after.done and after.gate.status is GateStatus.RED and "over red: vision's wheel build" in after.override
    assert log[-1].action == "checklist.override" and "red gate" in log[-1].detail
