"""The evidence steps judge themselves from what was read, in the release manager's terms."""

from __future__ import annotations

from datetime import UTC, datetime

from cockpit.domain.checklist import ChecklistStep, StepKind
from cockpit.domain.ci import CheckRun, WorkflowRun
from cockpit.domain.gates import GateStatus
from cockpit.domain.github import IssueComment, ItemKind, ItemState, MilestoneItem, PullRequest, PullState
from cockpit.services.evidence import (
    final_rc,
    issues_to_validate,
    task_items,
    validate_binaries_gate,
    validation_comments_gate,
    validation_issue_gate,
)
from cockpit.services.evidence_release_day import colab_gate, pinned_commit, release_pr_gate, triton_gate
from cockpit.services.evidence_steps import evidence_steps

TAGGED = datetime(2026, 10, 1, tzinfo=UTC)


def run(title, conclusion="success", status="completed", created=TAGGED):
    return WorkflowRun(
        7, "Validate binaries", "a" * 40, "main", status, conclusion, created_at=created, display_title=title
    )


def job(name, conclusion="success"):
    return CheckRun(1, name, "completed", conclusion)


def issue(number, *, state=ItemState.CLOSED, reason="completed", title="t", body="", labels=()):
    return MilestoneItem(
        number, ItemKind.ISSUE, title, state, f"u/{number}", labels=labels, state_reason=reason, body=body
    )


def test_the_final_rc_is_the_highest_numbered_rc_tag_of_the_version():
    assert (
        final_rc({"v2.5.0-rc1": "a", "v2.5.0-rc10": "b", "v2.5.0-rc2": "c", "v2.4.1-rc9": "d"}, "2.5.0")
        == "v2.5.0-rc10"
    )
    assert final_rc({"v2.4.1": "a"}, "2.5.0") is None


def test_a_failed_validation_run_names_its_failed_matrix_jobs():
    gate = validate_binaries_gate(
        [run("validate 2.5.0 (v2.5.0-rc2)", "failure")],
        [job("linux / validate (3.12)"), job("win / validate (3.13t)", "failure")],
        workflow="validate-binaries.yml",
        title="*2.5.0*",
        rc_tag="v2.5.0-rc2",
        rc_tagged_at=TAGGED,
    )
    assert gate.status is GateStatus.RED
    assert "failed: win / validate (3.13t) (failure)" in gate.details
    assert "1 of 2 jobs failed" in gate.summary


def test_a_passing_run_on_an_earlier_build_than_the_final_rc_is_amber():
    earlier = run("validate 2.5.0", created=datetime(2026, 9, 20, tzinfo=UTC))
    gate = validate_binaries_gate(
        [earlier], [job("x")], workflow="w", title="*2.5.0*", rc_tag="v2.5.0-rc2", rc_tagged_at=TAGGED
    )
    assert gate.status is GateStatus.AMBER and "started before v2.5.0-rc2 was tagged" in gate.summary
    later = run("validate 2.5.0", created=datetime(2026, 10, 2, tzinfo=UTC))
    gate = validate_binaries_gate(
        [later], [job("x")], workflow="w", title="*2.5.0*", rc_tag="v2.5.0-rc2", rc_tagged_at=TAGGED
    )
    assert gate.status is GateStatus.GREEN and "started after the tag was made" in gate.summary


def test_no_run_for_the_version_is_red():
    gate = validate_binaries_gate(
        [run("validate 2.4.1")], [], workflow="w", title="*2.5.0*", rc_tag=None, rc_tagged_at=None
    )
    assert gate.status is GateStatus.RED


def test_issues_closed_as_not_planned_need_no_validation_comment():
    items = [issue(1), issue(2, reason="not_planned"), issue(3, state=ItemState.OPEN), issue(4, labels=("skip",))]
    assert [i.number for i in issues_to_validate(items, ("skip",))] == [1]


def test_a_validation_comment_counts_whoever_wrote_it_and_the_others_are_listed():
    comments = {1: [IssueComment(1, "someone", "VALIDATED for 2.5.0 on rc2")], 2: [IssueComment(2, "x", "thanks")]}
    gate = validation_comments_gate([issue(1), issue(2)], comments, phrase="Validated for 2.5.0")
    assert gate.status is GateStatus.RED and gate.summary.startswith("1 of 2 closed issues lack it: #2")
    unread = validation_comments_gate([issue(1), issue(3)], {1: comments[1]}, phrase="Validated for 2.5.0", unread=1)
    assert unread.status is GateStatus.UNKNOWN


def test_open_task_items_of_the_validation_issue_keep_it_amber():
    body = "- [x] Linux\n- [ ] Windows\n * [X] macOS\n"
    assert task_items(body) == (["Windows"], ["Linux", "macOS"])
    found = [issue(9, state=ItemState.OPEN, title="[v2.5.0] Release validation", body=body)]
    gate = validation_issue_gate(found, repository="acme/t", title="*2.5.0*validation*")
    assert gate.status is GateStatus.AMBER and gate.summary == "#9: 1 of 3 items open"
    assert validation_issue_gate([], repository="acme/t", title="*").status is GateStatus.RED


def pull(state=PullState.OPEN, mergeable=True):
    return PullRequest(
        41,
        "matrix",
        state,
        "site",
        "h",
        "u",
        head_sha="b" * 40,
        mergeable=mergeable,
        mergeable_state="clean" if mergeable else "dirty",
    )


def test_a_release_pr_is_green_while_ready_and_must_be_merged_on_release_day():
    ok = [job("build")]
    assert release_pr_gate("release_matrix_pr", pull(), ok, where="", release_day=False).status is GateStatus.GREEN
    assert release_pr_gate("release_matrix_pr", pull(), ok, where="", release_day=True).status is GateStatus.AMBER
    assert release_pr_gate("published_versions_pr", pull(), ok, where="", release_day=False).status is GateStatus.AMBER
    merged = pull(PullState.MERGED)
    assert release_pr_gate("published_versions_pr", merged, [], where="", release_day=True).status is GateStatus.GREEN
    assert (
        release_pr_gate("release_matrix_pr", pull(mergeable=False), ok, where="", release_day=False).status
        is GateStatus.RED
    )
    failing = [job("linkcheck", "failure")]
    assert release_pr_gate("release_matrix_pr", pull(), failing, where="", release_day=False).status is GateStatus.RED


def test_the_triton_pin_needs_a_commit_a_mapped_version_and_that_version_on_pypi():
    pin = "c" * 40
    kw = {"path": "p", "branch": "release/2.5", "package": "triton", "asked": True}
    assert pinned_commit(f"\n{pin}\n") == pin and pinned_commit("main") is None
    assert triton_gate(pin_text="main\n", versions=(), published=None, **kw).status is GateStatus.RED
    assert triton_gate(pin_text=pin, versions=(), published=None, **kw).status is GateStatus.AMBER
    assert triton_gate(pin_text=pin, versions=(("ccccccc", "3.1.0"),), published=None, **kw).status is GateStatus.RED
    green = triton_gate(pin_text=pin, versions=(("ccccccc", "3.1.0"),), published=["a.whl"], **kw)
    assert green.status is GateStatus.GREEN


def test_the_colab_issue_is_not_due_before_the_release_and_red_after():
    assert colab_gate([], repository="g/c", title="*2.5.0*", released=False).status is GateStatus.AMBER
    assert colab_gate([], repository="g/c", title="*2.5.0*", released=True).status is GateStatus.RED
    found = [issue(3, state=ItemState.OPEN, title="Upgrade to 2.5.0")]
    assert colab_gate(found, repository="g/c", title="*2.5.0*", released=True).status is GateStatus.GREEN


def test_an_evidence_step_without_its_config_is_a_signature():
    step = ChecklistStep("docs_build_entry", "S", "Docs", "help", StepKind.AUTOMATIC, gate="docs_build_entry")
    other = ChecklistStep("ci_green", "S", "CI", "", StepKind.AUTOMATIC, gate="ci_green")
    manual, kept = evidence_steps([step, other], configured=())
    assert manual.kind is StepKind.MANUAL and manual.gate is None and "[evidence.docs_build_entry]" in manual.help
    assert kept == other
    assert evidence_steps([step], configured=("docs_build_entry",))[0] == step


def test_a_red_evidence_step_holds_the_go_decision_and_the_verdict_line_counts_it():
    from cockpit.domain.gates import Gate
    from cockpit.services.checklist import checklist_report
    from cockpit.services.overview import go_no_go
    from cockpit.ui.panes.overview import verdict_line

    step = ChecklistStep("docs_build_entry", "S", "Docs entry", "h", StepKind.AUTOMATIC, gate="docs_build_entry")
    colab = ChecklistStep("colab_issue", "S", "Colab", "h", StepKind.AUTOMATIC, gate="colab_issue", after_go=True)
    gates = {
        "docs_build_entry": Gate("docs_build_entry", "Docs", GateStatus.RED, "no 2.5/index.html"),
        "colab_issue": Gate("colab_issue", "Colab", GateStatus.AMBER, "not due yet"),
    }
    verdict = go_no_go(gates, checklist_report([step, colab], {}, gates), blocking=())
    assert not verdict.go and verdict.judged == ("docs_build_entry",)  # the Colab issue comes after the decision
    assert verdict.reasons == ("not done: Docs entry (red: no 2.5/index.html)",)
    assert verdict_line(verdict) == "NO-GO: 0 gates red, 0 required steps unsigned, 1 checked step not done"
