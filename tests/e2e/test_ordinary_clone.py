"""A release manager who just ran ``git clone``: only ``main`` is a local branch; the release branch,
its cut and the RC tags come from ``origin``. Every pane, action and ``cockpit check`` read the
same commits as in a clone with local release branches."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cockpit.bootstrap import build_backend
from cockpit.cli.main import main
from cockpit.domain.gates import GateStatus


def git(path: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def ordinary_clone(sandbox, tmp_path) -> Path:
    """``git clone`` of the sandbox's remote, and the sandbox config pointed at it."""
    clone = tmp_path / "ordinary"
    subprocess.run(["git", "clone", "--quiet", sandbox.world.remote_path, str(clone)], check=True, capture_output=True)
    git(clone, "config", "user.name", "Release Manager")
    git(clone, "config", "user.email", "rm@example.invalid")
    assert git(clone, "branch", "--list", "release/*") == "", "an ordinary clone has no local release branch"
    assert git(clone, "rev-parse", "--verify", "origin/release/2.5")
    text = sandbox.config_path.read_text(encoding="utf-8").replace(sandbox.world.clone_path, str(clone))
    config = tmp_path / "ordinary.toml"
    config.write_text(text.replace("cockpit-state.toml", "ordinary-state.toml"), encoding="utf-8")
    return config


def gate_lines(capsys) -> list[str]:
    return [line for line in capsys.readouterr().out.splitlines() if not line.startswith("unsigned: ")]


def test_cockpit_check_on_an_ordinary_clone_says_what_it_says_on_the_sandbox_clone(sandbox, ordinary_clone, capsys):
    assert main(["--config", str(sandbox.config_path), "check"]) == 1
    expected = gate_lines(capsys)
    assert main(["--config", str(ordinary_clone), "check"]) == 1
    got = gate_lines(capsys)
    assert got == expected
    assert not any(line.startswith("unknown:") for line in got), got


def test_picks_branch_diff_and_rc_builds_load_from_the_remotes_refs(sandbox, ordinary_clone):
    from cockpit.config import load_config

    backend = build_backend(load_config(ordinary_clone), read_only=True)
    reference = build_backend(sandbox.config, read_only=True)
    try:
        picks, branch, ci = backend.load_picks(), backend.load_branch_diff(), backend.load_ci()
        assert picks.gate.status is not GateStatus.UNKNOWN and not picks.unread, picks.gate.summary
        assert picks.gate == reference.load_picks().gate
        assert branch.diff.items == reference.load_branch_diff().diff.items
        assert branch.diff.cut == git(Path(sandbox.world.remote_path), "rev-parse", "orig/release/2.5")
        assert [v.ref for v in ci.rc_builds] == ["v2.5.0-rc2"], "the newest RC tag came with the clone"
    finally:
        backend.state.close()
        reference.state.close()


def test_a_local_pick_branch_starts_from_the_remotes_release_branch(sandbox, ordinary_clone):
    from cockpit.config import load_config

    config = load_config(ordinary_clone)
    backend = build_backend(config)
    try:
        report = backend.load_branch_diff()
        missing = next(i for i in report.diff.items if i.verdict == "missing" and i.commits)
        result = backend.actions.run("branch.pick_branch", missing, confirmed=True)
        name = f"cherry-pick-{missing.number}-release-2.5"
        assert result.ok and name in result.message, result.message
        clone = config.git.clone
        start = git(clone, "rev-parse", f"{name}~{len(missing.commits)}")
        assert start == git(clone, "rev-parse", "origin/release/2.5")
        why = backend.actions.refusal("branch.pick_branch", missing)  # b twice: said before any confirmation
        assert why is not None and f"the local branch {name} already exists" in why and "git branch -D" in why
        again = backend.actions.run("branch.pick_branch", missing, confirmed=True)
        assert not again.ok and "fatal" not in again.message
    finally:
        backend.state.close()


def test_the_rc_tag_goes_on_the_commit_the_panes_judged(sandbox, ordinary_clone):
    from cockpit.actions.checklist import StepRun
    from cockpit.config import load_config

    config = load_config(ordinary_clone)
    backend = build_backend(config)
    try:
        step = next(s for s in backend.checklist_steps() if s.action == "rc_tag")
        plan = backend.actions.dry_run("checklist.rc_tag", StepRun(step))
        head = git(config.git.clone, "rev-parse", "origin/release/2.5")
        assert "git tag -a v2.5.0-rc3 origin/release/2.5" in plan and head[:12] in plan
        # a local release branch that went its own way is not what CI tested: refused, with the reason
        git(config.git.clone, "branch", "release/2.5", "origin/release/2.5~1")
        refused = backend.actions.dry_run("checklist.rc_tag", StepRun(step))
        assert re.search(r"local release/2.5 \([0-9a-f]{12}\) is not origin/release/2.5", refused), refused
        outcome = backend.actions.run("checklist.rc_tag", StepRun(step), confirmed=True)
        assert not outcome.ok and "push or pull release/2.5 first" in outcome.message
        assert "v2.5.0-rc3" not in git(config.git.clone, "tag", "--list")
    finally:
        backend.state.close()
