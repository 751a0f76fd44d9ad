"""RC tags exactly once (#30): the next number counts the tags on the remote (pushed by someone else too),
and a tagging interrupted after the tag or after the push, then tried again, adopts the tag already at the
commit instead of making the next one: never two RC tags on one commit, never a local tag left unpushed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cockpit.actions.checklist import StepRun
from tests.e2e.test_checklist_on_sandbox import backend_on, git, remote_tags, step

pytestmark = pytest.mark.slow


@pytest.fixture()
def clone(world_clone_copy) -> Path:
    """The copied clone, its origin the copied bare remote (as in test_checklist_on_sandbox)."""
    clone = next(p for p in world_clone_copy.iterdir() if p.is_dir() and (p / ".git").is_dir())
    remote = next(p for p in world_clone_copy.iterdir() if p.name.endswith("-remote.git"))
    git(clone, "remote", "set-url", "origin", str(remote))
    return clone


def tag_step(backend):
    return StepRun(step(backend, "tag_final_rc"))


def test_a_tag_someone_else_pushed_counts_for_the_next_number(sandbox, clone, tmp_path):
    remote = next(p for p in clone.parent.iterdir() if p.name.endswith("-remote.git"))
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    git(other, "tag", "v2.5.0-rc3", "origin/release/2.5~1")
    git(other, "push", "-q", "origin", "refs/tags/v2.5.0-rc3")
    assert "v2.5.0-rc3" not in git(clone, "tag")  # the clone has not fetched it
    backend = backend_on(sandbox, clone)
    try:
        result = backend.actions.run("checklist.rc_tag", tag_step(backend), confirmed=True)
        assert result.ok and "as v2.5.0-rc4" in result.message, result.message
    finally:
        backend.state.close()
    assert "v2.5.0-rc4" in remote_tags(clone)


def test_killed_after_the_tag_the_retry_pushes_that_tag_and_makes_no_other(sandbox, clone):
    head = git(clone, "rev-parse", "origin/release/2.5").strip()
    git(clone, "tag", "-a", "v2.5.0-rc3", "origin/release/2.5", "-m", "acme/torchlet v2.5.0-rc3")  # then the kill
    backend = backend_on(sandbox, clone)
    try:
        preview = backend.actions.dry_run("checklist.rc_tag", tag_step(backend))
        assert "git push origin refs/tags/v2.5.0-rc3" in preview and "git tag -a" not in preview
        result = backend.actions.run("checklist.rc_tag", tag_step(backend), confirmed=True)
        assert result.ok and "already in the clone" in result.message, result.message
        assert backend.state.signoffs()["tag_final_rc"].done
    finally:
        backend.state.close()
    tags = remote_tags(clone)
    assert tags["v2.5.0-rc3"] == head and "v2.5.0-rc4" not in tags


def test_killed_after_the_push_the_retry_signs_the_step_and_tags_nothing(sandbox, clone):
    head = git(clone, "rev-parse", "origin/release/2.5").strip()
    git(clone, "tag", "-a", "v2.5.0-rc3", "origin/release/2.5", "-m", "acme/torchlet v2.5.0-rc3")
    git(clone, "push", "-q", "origin", "refs/tags/v2.5.0-rc3")  # the push completed; the sign-off never came
    before = remote_tags(clone)
    backend = backend_on(sandbox, clone)
    try:
        result = backend.actions.run("checklist.rc_tag", tag_step(backend), confirmed=True)
        assert result.ok and "adopted and signed, no new tag" in result.message, result.message
        assert "v2.5.0-rc3" in backend.state.signoffs()["tag_final_rc"].note
    finally:
        backend.state.close()
    assert remote_tags(clone) == before and before["v2.5.0-rc3"] == head
