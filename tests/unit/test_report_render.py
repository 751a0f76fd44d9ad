"""The report a release manager pastes into the tracker: tables that outside text cannot break,
nobody pinged by accident, the checklist with its sign-offs; and the JSON scripts read."""

from __future__ import annotations

import json

from cockpit.domain.artifacts import ArtifactProblem, ExpectedArtifact, StorageReport
from cockpit.domain.checklist import ChecklistStep, Signoff, StepKind
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, ItemState, Milestone, MilestoneItem
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.domain.reports import (
    ChecklistReport,
    GoNoGo,
    MilestoneReport,
    PicksReport,
    ReleasePicture,
    StepView,
    StorageGateReport,
)
from cockpit.services.report_render import render_json, render_markdown

RED, GREEN = GateStatus.RED, GateStatus.GREEN
NASTY = "Fix a | b\nand <details> in `conv`"


def picture(**changes) -> ReleasePicture:
    milestone_gate = Gate("milestone_empty", "Milestone empty", RED, "1 open: " + NASTY)
    pypi = Gate("pypi_not_published", "Not yet on PyPI", GREEN, "2.5.0 is not on PyPI yet")
    rc = Gate("rc_artifacts", "RC artifacts valid", RED, "1 problem: 1 missing")
    steps = (
        StepView(
            ChecklistStep("tag_final_rc", "Final RC requirements", "Create and push the final RC tag"),
            Signoff("tag_final_rc", True, "Rosa Marquez", "2026-11-30T11:57:36+00:00", "rc3 | at abc\nfine"),
        ),
        StepView(
            ChecklistStep(
                "ci_green",
                "Final RC requirements",
                "Release branch CI is green",
                kind=StepKind.AUTOMATIC,
                gate="ci_green",
            ),
            gate=Gate("ci_green", "CI green", RED, "2 jobs failed"),
        ),
        StepView(ChecklistStep("perf", "After the final RC", "Performance run shows no regression")),
        StepView(ChecklistStep("tutorials", "After the final RC", "Tutorials submitted", required=False)),
        StepView(
            ChecklistStep(
                "promote_pypi", "Promotion", "Promote wheels to PyPI", gate="pypi_not_published", irreversible=True
            ),
            locked="done and locked: already on PyPI",
        ),
    )
    checklist = ChecklistReport(steps, Gate("checklist", "Checklist", RED, "2 of 4 required steps done"))
    item = MilestoneItem(91234, ItemKind.PULL, NASTY, ItemState.OPEN, "https://github.com/acme/torchlet/pull/91234")
    row = PickRow(
        PickRequest(1, "alice", "body", trunk_prs=(PRRef(91300),)), PickStatus.UNDER_REVIEW, (PickFlag.DUPLICATE,)
    )
    expected = ExpectedArtifact("torchlet", "2.5.0", "cp313t", "win_amd64")
    storage = StorageReport(
        "http://index",
        expected=(expected,),
        problems=(ArtifactProblem(expected.filename, "missing", "no wheel | here"),),
    )
    values = {
        "version": "2.5.0",
        "repository": "acme/torchlet",
        "branch": "release/2.5",
        "gates": {g.name: g for g in (milestone_gate, rc, pypi, checklist.gate)},
        "checklist": checklist,
        "verdict": GoNoGo(
            False,
            (milestone_gate, rc),
            ("perf",),
            ("Milestone empty is red: 1 open: " + NASTY, "not signed: Performance run shows no regression"),
        ),
        "milestone": MilestoneReport(Milestone(7, "2.5.0", "open"), (item,), (), milestone_gate),
        "picks": PicksReport(900, "Tracker", (row,), (), Gate("picks_clear", "Cherry-picks clear", RED, "1 pending")),
        "storage": StorageGateReport(storage, rc, pypi),
        "errors": {"ci": "GitHub: 502 from /repos/acme/torchlet/actions/runs\nretry later"},
    }
    values.update(changes)
    return ReleasePicture(**values)


def table_rows(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("|")]


def test_a_pipe_or_a_newline_in_outside_text_never_breaks_the_gate_table():
    markdown = render_markdown(picture())
    rows = table_rows(markdown)
    assert rows[:2] == ["| gate | status | summary |", "|---|---|---|"]
    assert len(rows) == 2 + 4, "one row per gate, none split by a newline"
    milestone = next(r for r in rows if r.startswith("| Milestone empty"))
    assert milestone == "| Milestone empty | ❌ red | 1 open: Fix a \\| b and &lt;details&gt; in \\`conv\\` |"
    assert all(r.replace("\\|", "").count("|") == 4 for r in rows), "exactly three cells in every row"


def test_list_items_stay_on_one_line_and_html_from_titles_is_shown_not_rendered():
    markdown = render_markdown(picture())
    assert (
        "- [#91234](https://github.com/acme/torchlet/pull/91234)"
        " Fix a \\| b and &lt;details&gt; in \\`conv\\` (pull, open)" in markdown
    )
    assert "<details>" not in markdown
    assert "**ci** could not be loaded: GitHub: 502 from /repos/acme/torchlet/actions/runs retry later" in markdown


def test_pasting_the_report_pings_nobody():
    markdown = render_markdown(picture())
    assert "- `@alice`: trunk #91300 · under_review · duplicate" in markdown
    assert " @alice" not in markdown.replace("`@alice`", "")


def test_the_verdict_heads_the_report_with_the_reasons_it_is_no_go():
    markdown = render_markdown(picture())
    assert markdown.startswith("## Release 2.5.0 (acme/torchlet, `release/2.5`): NO-GO\n")
    assert (
        "**Why not go:**\n- Milestone empty is red: 1 open: Fix a \\| b and &lt;details&gt; in \\`conv\\`\n"
        "- not signed: Performance run shows no regression" in markdown
    )
    go = render_markdown(picture(verdict=GoNoGo(True)))
    assert go.startswith("## Release 2.5.0 (acme/torchlet, `release/2.5`): GO\n") and "Why not go" not in go


def test_the_checklist_is_a_task_list_by_section_with_progress_and_sign_offs():
    markdown = render_markdown(picture())
    checklist = markdown[markdown.index("### Checklist") :]
    assert "2 of 4 required steps done." in checklist
    assert "**Final RC requirements**" in checklist and "**Promotion**" in checklist
    assert (
        "- [x] Create and push the final RC tag — signed by Rosa Marquez, 2026-11-30T11:57:36+00:00 "
        "(rc3 \\| at abc fine)"
    ) in checklist
    assert "- [ ] Release branch CI is green — red: 2 jobs failed" in checklist
    assert "- [ ] Performance run shows no regression\n" in checklist
    assert "- [ ] Tutorials submitted _(optional)_" in checklist
    assert "- [x] Promote wheels to PyPI — done and locked: already on PyPI" in checklist


def test_every_artifact_problem_is_listed_with_its_file():
    markdown = render_markdown(picture())
    assert "### Release candidate artifacts (1 expected)" in markdown
    assert "- missing: `torchlet-2.5.0-cp313-cp313t-win_amd64.whl` no wheel \\| here" in markdown


def test_with_accelerator_variants_each_gets_a_heading_saying_what_is_missing_there():
    cu128 = ExpectedArtifact("torchlet", "2.5.0", "cp312", "manylinux_2_28_aarch64", variant="cu128")
    xpu = ExpectedArtifact("torchlet", "2.5.0", "cp312", "linux_x86_64", variant="xpu")
    storage = StorageReport(
        "http://index",
        expected=(cu128, xpu),
        problems=(ArtifactProblem(cu128.filename, "missing", "no torchlet wheel in the cu128 index", "cu128"),),
    )
    rc = Gate("rc_artifacts", "RC artifacts valid", RED, "1 problem: 1 missing (in cu128)")
    markdown = render_markdown(picture(storage=StorageGateReport(storage, rc, picture().storage.pypi_gate)))
    assert (
        "- cu128: 1 expected wheel, 1 missing\n"
        "  - missing: `torchlet-2.5.0+cu128-cp312-cp312-manylinux_2_28_aarch64.whl` "
        "no torchlet wheel in the cu128 index\n"
        "- xpu: 1 expected wheel staged"
    ) in markdown


def test_the_json_has_the_whole_picture_in_plain_values():
    data = json.loads(render_json(picture()))
    assert {
        "version",
        "repository",
        "branch",
        "gates",
        "checklist",
        "verdict",
        "milestone",
        "picks",
        "ci",
        "branch_diff",
        "storage",
        "errors",
    } <= data.keys()
    assert data["gates"]["milestone_empty"] == {
        "name": "milestone_empty",
        "title": "Milestone empty",
        "status": "red",
        "summary": "1 open: " + NASTY,
        "details": [],
        "signable": False,  # only an amber workflow step whose run's inputs are unknown may be signed over
    }
    assert data["verdict"]["go"] is False and data["verdict"]["unsigned"] == ["perf"]
    step = data["checklist"]["steps"][0]
    assert step["step"]["id"] == "tag_final_rc" and step["step"]["kind"] == "manual"
    assert step["signoff"]["who"] == "Rosa Marquez"
    assert data["checklist"]["steps"][4]["locked"].startswith("done and locked")
    assert data["storage"]["report"]["problems"][0]["kind"] == "missing"
    assert data["ci"] is None and data["errors"]["ci"].startswith("GitHub: 502")
    assert "❌" not in render_json(picture()), "the JSON carries status words, not marks"
