"""The release tracker issue at branch cut (#28 section 4): the runbook's title, labels and key dates, the
phase cut-off from M4 ("week of" taken off), the request form the cherry-picks pane reads, opened once."""

from __future__ import annotations

import pytest

from cockpit.cli.main import main
from cockpit.errors import ConfigError
from cockpit.services.release_tracker import KeyDates, key_dates, previous_minor, render, title

DATES = KeyDates("week of 8/6/26", "week of 22/6/26", "30/6/26", "1/7/26", "8/7/26")
ARGS = ["--m3", "week of 8/6/26", "--m4", "week of 22/6/26", "--m4-1", "30/6/26"]
ARGS += ["--m5", "1/7/26", "--m6", "8/7/26"]


def test_the_body_carries_the_dates_as_written_and_the_cutoff_without_week_of():
    body = render(
        version="2.13.0",
        repository="pytorch/pytorch",
        branch="release/2.13",
        dates=DATES,
        managers="@atalman, @malfet",
        ci_url="https://hud.pytorch.org/hud/pytorch/pytorch/release%2F2.13",
    )
    assert title("2.13.0") == "[v.2.13.0] Release Tracker"
    assert "Phase 1, until 22/6/26" in body and "**Phase 2 (after 22/6/26)**" in body
    assert "M3: release branch cut (week of 8/6/26)" in body and "M6: release day (8/7/26)" in body
    assert "previous minor release (2.12.x)" in body and "(@atalman, @malfet)" in body
    assert "https://github.com/pytorch/pytorch/tree/release/2.13" in body
    assert "@pytorchbot cherry-pick --onto release/2.13 -c <category>" in body
    form = body.split("```\n", 2)[1].split("```")[0]
    assert form.splitlines()[0] == "Link to landed trunk PR (if applicable):"
    assert "Link to release branch PR:" in form and "Criteria Category:" in form
    assert previous_minor("3.0.0") == "" and previous_minor("2.5.1") == "2.4"


def test_a_missing_or_hostile_date_is_named():
    with pytest.raises(ConfigError, match=r"the M4\.1 date is missing"):
        key_dates({"m3": "a", "m4": "b", "m4_1": "", "m5": "c", "m6": "d"})
    with pytest.raises(ConfigError, match="the M5 date"):
        key_dates({"m3": "a", "m4": "b", "m4_1": "c", "m5": "x\x1b[2J", "m6": "d"})


def without_tracker(sandbox) -> None:
    """The sandbox before the branch cut: its release tracker not opened yet."""
    state = sandbox.github.repos[sandbox.world.repository.lower()]
    gone = {i.number for i in state.repo.issues if i.title == title(sandbox.config.release.version)}
    state.repo.issues[:] = [i for i in state.repo.issues if i.number not in gone]
    for number in gone:
        state.items.pop(number, None)


def before_the_cut(sandbox, tmp_path) -> list[str]:
    """The sandbox's config before the branch cut: no [release] tracker_issue yet."""
    number = sandbox.config.release.tracker_issue
    text = sandbox.config_path.read_text()
    assert f"tracker_issue = {number}\n" in text
    path = tmp_path / "before-cut.toml"
    path.write_text(text.replace(f"tracker_issue = {number}\n", ""))
    return ["--config", str(path)]


@pytest.mark.slow
def test_a_configured_tracker_is_not_opened_again_and_one_with_the_title_is_adopted(sandbox, capsys, tmp_path):
    assert main(["tracker-issue", *ARGS, "--config", str(sandbox.config_path)]) == 1
    assert f"the release tracker is #{sandbox.config.release.tracker_issue}" in capsys.readouterr().err
    assert main(["tracker-issue", *ARGS, *before_the_cut(sandbox, tmp_path)]) == 0
    assert "; adopted, not opened again ([release] tracker_issue = " in capsys.readouterr().out
    assert [e for e in sandbox.github.log() if e["method"] == "POST"] == []


@pytest.mark.slow
def test_several_issues_with_the_title_are_named_and_none_is_adopted(sandbox, capsys, tmp_path):
    from cockpit.sandbox.model import SbIssue

    state = sandbox.github.repos[sandbox.world.repository.lower()]
    name = title(sandbox.config.release.version)
    stamp = "2026-12-01T00:00:00Z"
    twin = SbIssue(max(state.items) + 1, name, "someone", body="a second", created_at=stamp, updated_at=stamp)
    state.repo.issues.append(twin)
    state.items[twin.number] = twin
    assert main(["tracker-issue", *ARGS, *before_the_cut(sandbox, tmp_path)]) == 1
    assert f"several issues are titled '{name}'" in capsys.readouterr().err
    assert [e for e in sandbox.github.log() if e["method"] == "POST"] == []


@pytest.mark.slow
def test_opened_once_with_both_labels_then_never_doubled(sandbox, capsys, tmp_path):
    without_tracker(sandbox)
    repo = sandbox.world.repository
    config = before_the_cut(sandbox, tmp_path)
    assert main(["tracker-issue", *ARGS, "--dry-run", *config]) == 0
    preview = capsys.readouterr().out
    assert "'release tracker', 'triaged'" in preview and "Phase 1, until 22/6/26" in preview
    assert [e for e in sandbox.github.log() if e["method"] == "POST"] == []
    assert main(["tracker-issue", *ARGS, *config]) == 0
    out = capsys.readouterr().out
    assert "opened the release tracker #" in out and "[release] tracker_issue = " in out
    state = sandbox.github.repos[repo.lower()]
    (made,) = [i for i in state.repo.issues if i.title == title(sandbox.config.release.version)]
    assert made.labels == ["release tracker", "triaged"]
    assert main(["tracker-issue", *ARGS, *config]) == 1
    assert "the release tracker is #" in capsys.readouterr().err
    assert len([i for i in state.repo.issues if i.title == made.title]) == 1
