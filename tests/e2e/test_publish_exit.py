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
