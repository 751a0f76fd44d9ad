"""validate-binaries runs are found by event, ref and inputs: the workflow gives them no run-name."""

from __future__ import annotations

from datetime import UTC, datetime

from cockpit.domain.ci import WorkflowRun
from cockpit.profile import load_profile
from cockpit.services.validate_runs import validation_runs

PROFILE = load_profile()
EVENT, REF = PROFILE.text("validate_binaries.event"), PROFILE.text("validate_binaries.ref")


def run(run_id: int, *, event: str = "workflow_dispatch", ref: str = "main", day: int = 1) -> WorkflowRun:
    # As GitHub lists them: every run shows the workflow's name, nothing about the version.
    return WorkflowRun(
        run_id,
        "Validate binaries",
        f"{run_id:040x}",
        ref,
        "completed",
        "success",
        event=event,
        created_at=datetime(2026, 5, day, tzinfo=UTC),
        display_title="Validate binaries",
    )


def test_runs_without_a_run_name_are_found_by_event_and_ref() -> None:
    runs = [run(1, day=1), run(2, event="schedule", day=3), run(3, ref="feature", day=4), run(4, day=2)]
    found = validation_runs(
        runs, event=EVENT, ref=REF, channel="test", version="3.1.0", title_matches=lambda t: "3.1.0" in t
    )
    assert [r.id for r in found.runs] == [4, 1]
    assert any("title not used" in n for n in found.notes)
    assert any("channel (test) was not checked" in n for n in found.notes)


def test_known_inputs_of_another_channel_or_version_leave_a_run_out() -> None:
    runs = [run(1, day=1), run(2, day=2), run(3, day=3)]
    inputs = {
        3: {"channel": "release", "version": "3.1.0"},
        2: {"channel": "test", "version": "3.0.1"},
        1: {"channel": "test", "version": "3.1.0"},
    }
    found = validation_runs(runs, event=EVENT, ref=REF, channel="test", version="3.1.0", inputs=inputs)
    assert [r.id for r in found.runs] == [1]
    assert not any("not checked" in n for n in found.notes)


def test_a_title_that_matches_some_run_still_narrows() -> None:
    named = WorkflowRun(
        9,
        "Validate binaries",
        "9" * 40,
        "main",
        "completed",
        "success",
        event="workflow_dispatch",
        display_title="Validate binaries 3.1.0 test channel",
    )
    found = validation_runs([run(1), named], event=EVENT, ref=REF, title_matches=lambda t: "3.1.0" in t)
    assert [r.id for r in found.runs] == [9]
    assert found.notes == ()  # the title named the channel: nothing left unchecked to say
