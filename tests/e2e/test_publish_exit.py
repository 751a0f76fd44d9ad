"""`cockpit publish --dry-run` against a tracker issue that does not exist says so and exits 1 (#30)."""

from __future__ import annotations

import pytest

from cockpit.cli.main import main

pytestmark = pytest.mark.slow


def test_a_dry_run_that_cannot_read_the_tracker_exits_1_saying_why(sandbox, capsys, tmp_path):
    text = sandbox.config_path.read_text()
    number = sandbox.config.release.tracker_issue
    assert number is not None and f"tracker_issue = {number}" in text
    broken = tmp_path / "cockpit.toml"
    broken.write_text(text.replace(f"tracker_issue = {number}", "tracker_issue = 999999"))
    code = main(["--config", str(broken), "publish", "--dry-run"])
    err = capsys.readouterr().err
    assert code == 1 and "cannot describe" in err


def test_a_publish_whose_state_write_fails_exits_1_and_says_the_comments_were_written(sandbox, capsys, monkeypatch):
    from cockpit.errors import StateError
    from cockpit.sandbox.github_user import SANDBOX_USER
    from cockpit.state.state_file import StateFile

    real = StateFile._write

    def disk_full_after_the_intent(self):
        if "ledger" in self._data:  # the intent ('started') is written; the outcome with the ledger is not
            raise StateError(f"{self.path}: cannot write: No space left on device")
        real(self)

    monkeypatch.setattr(StateFile, "_write", disk_full_after_the_intent)
    code = main(["--config", str(sandbox.config_path), "publish"])
    err = capsys.readouterr().err
    assert code == 1, "a write the command attempted failed"
    assert "status posted:" in err and "but the state file was not written" in err and "No space left" in err
    world = sandbox.world
    comments = sandbox.github.repos[world.repository.lower()].comments_on(world.tracker_issue)
    ours = [c for c in comments if "release-cockpit:" in c.body and c.author == SANDBOX_USER]
    assert len(ours) == 2, "what happened on GitHub (her sign-off comment, the status) is said, and done"


def test_a_publish_cut_short_last_time_is_looked_up_and_said_before_the_next_one(sandbox, capsys):
    """Issue 30: `cockpit publish` looks up an earlier publish that has its intent and no outcome, and says
    what it found once on stderr before it publishes again."""
    from cockpit.domain.checklist import AuditEntry
    from cockpit.state.store import StateStore

    rel = sandbox.config.release
    store = StateStore(sandbox.config.resolved_state_path)
    intent = (("kind", "publish"), ("where", rel.repository), ("what", f"#{rel.tracker_issue}"), ("key", rel.version))
    store.audit(AuditEntry("2026-12-06T12:00:00Z", "alice", "overview.publish_status", "x", "started", "", intent))
    store.close()
    assert main(["--config", str(sandbox.config_path), "publish"]) == 0
    err = capsys.readouterr().err
    assert "interrupted last time: Publish the status to the tracker on x" in err, err
    assert main(["--config", str(sandbox.config_path), "publish"]) == 0
    assert "interrupted last time" not in capsys.readouterr().err, "told once"
