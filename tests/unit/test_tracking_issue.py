"""The release-day tracking issue's body and its ticks (cockpit.services.tracking_issue), in the shape of
pytorch/test-infra's checklist-template.md: sections, one box per step marked auto/gate/manual, the run's
URL beside each ticked box; another writer's ticks and words are never lost."""

from __future__ import annotations

from cockpit.domain.checklist import ChecklistStep, Signoff, StepKind, StepWorkflow
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import StepView
from cockpit.services.tracking_issue import (
    boxes,
    link_of,
    missing_ticks,
    render,
    tick,
    ticked_by_hand,
    title,
)

RUN = "https://github.com/pytorch/test-infra/actions/runs/4242"
STAGE = ChecklistStep(
    "stage_pypi_run",
    "PyPI staging to production",
    "Stage one set of wheels for PyPI (release-stage-pypi)",
    kind=StepKind.AUTOMATIC,
    workflow=StepWorkflow("pytorch/test-infra", ".github/workflows/release-stage-pypi.yml", "main"),
)
INSPECT = ChecklistStep("stage_pypi", "PyPI staging to production", "Inspect the staged wheels", kind=StepKind.GATE)
NOTES = ChecklistStep("release_notes", "Tags, release notes & announcements", "Publish the release notes")


def view(step, status=None, summary="", signed=False) -> StepView:
    gate = Gate(f"g-{step.id}", "g", status, summary) if status is not None else None
    signoff = Signoff(step.id, True, "alice", "2026-12-06T10:00:00Z") if signed else None
    return StepView(step, signoff=signoff, gate=gate)


def test_the_body_has_the_runbooks_shape_and_a_hidden_mark_per_step():
    views = [
        view(STAGE, GateStatus.GREEN, f"run 4242 succeeded: {RUN}"),
        view(INSPECT, GateStatus.RED, "x"),
        view(NOTES),
    ]
    body = render("2.5.0", views, {"stage_pypi_run": RUN})
    assert title("2.5.0") == "[v.2.5.0] Release Day Checklist"
    assert body.startswith("# [v.2.5.0] Release Day Checklist\n")
    assert "## PyPI staging to production" in body and "## Tags, release notes & announcements" in body
    assert (
        f"- [x] Stage one set of wheels for PyPI (release-stage-pypi) — *auto* (`release-stage-pypi.yml`) — {RUN} "
        "<!-- cockpit:stage_pypi_run -->" in body
    )
    assert "- [ ] Inspect the staged wheels — *gate* <!-- cockpit:stage_pypi -->" in body
    assert "- [ ] Publish the release notes — *manual* <!-- cockpit:release_notes -->" in body
    assert {b.step_id: b.ticked for b in boxes(body).values()} == {
        "stage_pypi_run": True,
        "stage_pypi": False,
        "release_notes": False,
    }


def test_ticking_changes_only_the_lines_of_the_steps_that_turned_done():
    views = [view(STAGE, GateStatus.AMBER, "running"), view(INSPECT, GateStatus.RED, "x"), view(NOTES)]
    body = render("2.5.0", views, {})
    # someone edits the issue on GitHub: a tick of their own, a remark, a reworded line
    edited = body.replace("- [ ] Publish the release notes", "- [x] Publish the release notes (done by bob)")
    edited = edited.replace("## PyPI staging to production", "## PyPI staging to production\n\n> bob: staging at 10:00")
    now = [
        view(STAGE, GateStatus.GREEN, f"run 4242 succeeded: {RUN}."),
        view(INSPECT, GateStatus.RED, "x"),
        view(NOTES),
    ]
    wanted = missing_ticks(edited, now)
    assert wanted == {"stage_pypi_run": RUN}, "the URL without the sentence's full stop"
    new, ticked = tick(edited, wanted)
    assert ticked == ["stage_pypi_run"]
    changed = [(a, b) for a, b in zip(edited.split("\n"), new.split("\n"), strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith("- [x] Stage one set") and RUN in changed[0][1]
    assert "(done by bob)" in new and "> bob: staging at 10:00" in new
    assert tick(new, wanted) == (new, []), "ticking again changes nothing"
    assert ticked_by_hand(new, {"stage_pypi_run"}) == ["release_notes"]


def test_boxes_without_our_mark_or_with_a_mangled_one_are_not_ours():
    body = (
        "- [x] something else\n- [ ] Stage <!-- cockpit:stage_pypi_run -->\n* [X] Notes <!--cockpit:release_notes-->\n"
    )
    assert {b.step_id: b.ticked for b in boxes(body).values()} == {"stage_pypi_run": False, "release_notes": True}
    assert boxes("<!-- cockpit:stage_pypi_run --> not a box\n") == {}


def test_a_done_step_links_the_first_url_of_its_gate():
    assert (
        link_of(
            view(
                STAGE,
                GateStatus.GREEN,
                "no link",
            )
        )
        == ""
    )
    assert link_of(view(NOTES)) == ""
    with_detail = StepView(STAGE, gate=Gate("g", "g", GateStatus.GREEN, "done", (f"see {RUN})",)))
    assert link_of(with_detail) == RUN
