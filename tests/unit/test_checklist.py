"""The checklist's story: the process document as data, automatic steps that follow the panes,
manual steps that follow the sign-offs, and a go/no-go that waits for both."""

from __future__ import annotations

from pathlib import Path

import pytest

from cockpit.domain.checklist import ChecklistStep, Signoff, StepKind
from cockpit.domain.evidence import EVIDENCE_GATES
from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import ConfigError
from cockpit.services.checklist import (
    checklist_gate,
    checklist_report,
    fill_placeholders,
    load_template,
)
from cockpit.services.evidence_steps import evidence_steps
from cockpit.services.overview import BLOCKING, go_no_go
from cockpit.services.phase_gates import PHASE_GATES

GREEN = GateStatus.GREEN


def gate(name, status=GREEN, summary="fine"):
    return Gate(name, name.replace("_", " "), status, summary)


PROMOTION = ("rc_health", "final_rc_tagged", "pypi_staged", "stable_promoted", "pypi_promoted")


def all_green():
    return {name: gate(name) for name in (*BLOCKING, "pypi_not_published", *PROMOTION)}


def signed(*ids, who="alice"):
    return {i: Signoff(i, True, who, "2026-10-01T12:00:00Z") for i in ids}


@pytest.fixture(scope="module")
def steps():
    """The packaged checklist of a release whose config has no ``[evidence]``: those steps are signatures."""
    return evidence_steps(load_template(), configured=())


def manual_before_go(steps):
    return [s.id for s in steps if s.kind is StepKind.MANUAL and s.required and not s.after_go]


def test_the_packaged_template_keeps_the_steps_the_cockpit_judges_and_the_rc_tag_command():
    """The steps judged before this issue are all still there, each with its gate; the go-live's own steps are
    in ``tests/unit/test_runbook_template.py``."""
    steps = load_template()
    sections = list(dict.fromkeys(s.section for s in steps))
    assert sections[0] == "Readiness before go-live (the go/no-go decision)"
    assert sections[-2:] == ["Patch release", "Patch release phases"]
    by_id = {s.id: s for s in steps}
    judged = {s.id: s.gate for s in steps if s.kind.judged and s.workflow is None}
    assert judged == {
        "release_versions": "release_versions",
        "milestone_empty": "milestone_empty",
        "milestone_prs_in_branch": "branch_diff_clean",
        "picks_clear": "picks_clear",
        "ci_green": "ci_green",
        "reverts_propagated": "branch_diff_clean",
        "staged_binaries_valid": "rc_artifacts",
        "tag_final_rc": "final_rc_tagged",  # the steps after the final RC judge themselves
        "rc_health": "rc_health",
        "stage_pypi": "pypi_staged",
        "promote_stable": "stable_promoted",
        "promote_pypi": "pypi_promoted",
        **{gate: gate for gate in PHASE_GATES.values()},  # the patch phases, each its own step
        **{gate: gate for gate in EVIDENCE_GATES},  # judged from other repositories once [evidence] says where
    }
    readiness = [s.id for s in steps if s.section == sections[0] and s.kind is StepKind.MANUAL and s.required]
    assert readiness == ["perf_no_regression"]  # the one readiness step no API can show
    pypi = by_id["promote_pypi"]
    assert pypi.irreversible and pypi.kind is StepKind.AUTOMATIC and pypi.gate == "pypi_promoted"
    assert not by_id["promote_stable"].irreversible
    assert [s.id for s in steps if s.irreversible] == ["promote_pypi_run", "promote_pypi"]
    assert all(not s.required for s in steps if s.section.startswith("Patch release"))
    assert [s.id for s in steps if s.patch_only] == list(PHASE_GATES.values())
    assert all(s.help and s.title for s in steps)
    tag = by_id["tag_final_rc"]
    assert tag.dry_run and "{rc_tag}" in tag.command and "git push {remote} {rc_tag}" in tag.command


def test_the_tag_command_is_filled_in_for_this_release(steps):
    tag = next(s for s in steps if s.id == "tag_final_rc")
    values = {"version": "2.5.0", "branch": "release/2.5", "rc_tag": "v2.5.0-rc3", "remote": "upstream"}
    assert fill_placeholders(tag.command, values) == (
        'git tag -a v2.5.0-rc3 upstream/release/2.5 -m "v2.5.0-rc3" && git push upstream v2.5.0-rc3'
    )
    assert fill_placeholders("echo ${HOME} {version}", values) == "echo ${HOME} 2.5.0"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "my-checklist.toml"
    path.write_text(text)
    return path


GOOD_STEP = '[[section]]\ntitle = "S"\n[[section.step]]\nid = "a"\ntitle = "A"\nkind = "manual"\n'


def test_a_release_can_bring_its_own_checklist(tmp_path):
    path = write(
        tmp_path,
        GOOD_STEP
        + '[[section.step]]\nid = "b"\ntitle = "B"\nkind = "automatic"\ngate = "ci_green"\nrequired = false\n',
    )
    assert load_template(path) == (
        ChecklistStep("a", "S", "A"),
        ChecklistStep("b", "S", "B", kind=StepKind.AUTOMATIC, gate="ci_green", required=False),
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            GOOD_STEP + '[[section.step]]\nid = "a"\ntitle = "again"\nkind = "manual"\n',
            "section[0].step[1] ('a'), key 'id': duplicate; section[0].step[0] already uses it",
        ),
        (
            GOOD_STEP.replace('"manual"', '"auto"'),
            "section[0].step[0] ('a'), key 'kind': expected 'automatic', 'gate' or 'manual', got 'auto'",
        ),
        (
            GOOD_STEP.replace('kind = "manual"', 'kind = "automatic"'),
            "section[0].step[0] ('a'), key 'gate': an automatic step needs",
        ),
        (GOOD_STEP + "requried = false\n", "section[0].step[0] ('a'), key 'requried': unknown"),
        (
            GOOD_STEP + 'irreversible = "yes"\n',
            "section[0].step[0] ('a'), key 'irreversible': expected true or false, got 'yes'",
        ),
        (GOOD_STEP + 'command = "git tag {tag}"\n', "key 'command': unknown placeholder {tag}; use {version}"),
        (GOOD_STEP.replace('title = "A"\n', ""), "section[0].step[0] ('a'): missing key 'title'"),
        (GOOD_STEP.replace('id = "a"', 'id = "Tag RC"'), "section[0].step[0], key 'id': expected lowercase"),
        ("schema = 2\n" + GOOD_STEP, "key 'schema': expected 1, got 2"),
        ('title = "no sections"\n', "key 'title': unknown"),
        ('[[section]]\ntitle = "S"\nstep = 3\n', "section[0], key 'step': expected [[section.step]] tables, got 3"),
        ("[[section]\n", "not valid TOML"),
    ],
)
def test_a_broken_template_names_the_file_the_step_and_the_key(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_template(path)
    assert str(path) in err.value.message
    assert words in err.value.message


def test_a_missing_template_says_where_it_is_configured(tmp_path):
    with pytest.raises(ConfigError, match=r"no such checklist template \(see \[checklist\] template"):
        load_template(tmp_path / "nope.toml")


def test_automatic_steps_follow_the_panes_and_manual_steps_follow_the_signoffs(steps):
    gates = all_green() | {"ci_green": gate("ci_green", GateStatus.RED, "2 jobs failed on release/2.5")}
    report = checklist_report(steps, signed("validate_binaries") | signed("ci_green", who="mallory"), gates)
    views = {v.step.id: v for v in report.steps}
    assert [v.step.id for v in report.steps] == [s.id for s in steps]
    assert views["milestone_empty"].done
    assert not views["ci_green"].done, "an automatic step cannot be signed green by hand"
    assert views["validate_binaries"].done and views["validate_binaries"].signoff.who == "alice"
    assert not views["perf_no_regression"].done and views["perf_no_regression"].signoff is None
    assert views["promote_pypi"].gate == gates["pypi_promoted"] and views["promote_pypi"].done


def test_an_automatic_step_whose_pane_has_not_loaded_is_unknown(steps):
    report = checklist_report(steps, {}, {})
    view = next(v for v in report.steps if v.step.id == "staged_binaries_valid")
    assert view.gate.status is GateStatus.UNKNOWN and view.gate.summary == "not evaluated yet"
    assert not view.done


def test_the_checklist_gate_is_green_only_when_every_required_step_is_done(steps):
    required_manual = [s.id for s in steps if s.kind is StepKind.MANUAL and s.required]
    report = checklist_report(steps, signed(*required_manual), all_green())
    assert report.gate.name == "checklist" and report.gate.status is GREEN
    assert report.gate.summary == f"all {sum(s.required for s in steps)} required steps done"

    one_short = checklist_report(steps, signed(*required_manual[1:]), all_green())
    assert one_short.gate.status is GateStatus.AMBER
    assert one_short.gate.summary.endswith(f"next: {steps_by_id(steps)[required_manual[0]].title}")
    assert one_short.gate.details == (f"{steps_by_id(steps)[required_manual[0]].title}: not signed",)


def test_a_red_automatic_step_makes_the_checklist_red(steps):
    gates = all_green() | {"rc_artifacts": gate("rc_artifacts", GateStatus.RED, "2 wheels missing")}
    report = checklist_report(steps, signed(*(s.id for s in steps)), gates)
    assert report.gate.status is GateStatus.RED
    assert report.gate.details == (
        "Metadata of the final RC: the built matrix is the release matrix: red, 2 wheels missing",
    )


def test_a_reopened_step_says_who_reopened_it():
    step = ChecklistStep("perf_no_regression", "After", "Performance run shows no regression")
    gate_ = checklist_gate(checklist_report([step], {step.id: Signoff(step.id, False, "bob", "t")}, {}).steps)
    assert gate_.details == ("Performance run shows no regression: reopened by bob",)


def test_optional_steps_never_hold_the_checklist(steps):
    required_manual = [s.id for s in steps if s.kind is StepKind.MANUAL and s.required]
    report = checklist_report(steps, signed(*required_manual), all_green())
    assert not any(v.done for v in report.steps if v.step.section == "Patch release")
    assert report.gate.status is GREEN


def steps_by_id(steps):
    return {s.id: s for s in steps}


def test_go_when_every_blocking_gate_is_green_and_every_manual_step_before_the_decision_is_signed(steps):
    report = checklist_report(steps, signed(*manual_before_go(steps)), all_green())
    verdict = go_no_go(all_green(), report)
    assert verdict.go and verdict.unsigned == () and verdict.reasons == ()
    assert [g.name for g in verdict.gates] == list(BLOCKING)
    assert "promote_pypi" not in manual_before_go(steps), "promotion follows the decision"


def test_no_go_lists_the_red_gates_and_the_unsigned_steps(steps):
    gates = all_green() | {"picks_clear": gate("picks_clear", GateStatus.RED, "3 picks under review")}
    still_open = ["perf_no_regression", "triton_pin_release"]
    report = checklist_report(steps, signed(*(set(manual_before_go(steps)) - set(still_open))), gates)
    verdict = go_no_go(gates, report)
    assert not verdict.go
    assert verdict.unsigned == tuple(still_open)
    assert verdict.reasons == (
        "picks clear is red: 3 picks under review",
        "not signed: Performance run shows no regression",
        "not signed: Triton release for the pinned commit exists on PyPI",
    )


def test_a_blocking_gate_that_never_loaded_keeps_it_no_go(steps):
    gates = {k: v for k, v in all_green().items() if k != "ci_green"}
    report = checklist_report(steps, signed(*manual_before_go(steps)), gates)
    verdict = go_no_go(gates, report)
    assert not verdict.go
    ci = next(g for g in verdict.gates if g.name == "ci_green")
    assert ci.status is GateStatus.UNKNOWN
    assert verdict.reasons == ("CI green is unknown: not evaluated yet",)


def test_an_amber_gate_is_not_green_enough(steps):
    gates = all_green() | {"rc_artifacts": gate("rc_artifacts", GateStatus.AMBER, "1 wheel near the size limit")}
    verdict = go_no_go(gates, checklist_report(steps, signed(*manual_before_go(steps)), gates))
    assert not verdict.go and verdict.unsigned == ()


def test_a_custom_blocking_list_is_honoured(steps):
    gates = all_green() | {"rc_artifacts": gate("rc_artifacts", GateStatus.RED, "missing")}
    report = checklist_report(steps, signed(*manual_before_go(steps)), gates)
    assert go_no_go(gates, report, blocking=("milestone_empty", "ci_green")).go


def test_once_the_version_is_on_pypi_the_upload_step_is_done_and_locked(steps):
    report = checklist_report(steps, {}, all_green() | {"pypi_promoted": gate("pypi_promoted", summary="on PyPI")})
    pypi = next(v for v in report.steps if v.step.id == "promote_pypi")
    assert pypi.done and pypi.locked.startswith("done and locked: on PyPI")
    not_yet = checklist_report(steps, {}, all_green() | {"pypi_promoted": gate("pypi_promoted", GateStatus.AMBER)})
    assert not next(v for v in not_yet.steps if v.step.id == "promote_pypi").locked
    unknown = checklist_report(steps, {}, all_green() | {"pypi_promoted": gate("pypi_promoted", GateStatus.UNKNOWN)})
    assert not next(v for v in unknown.steps if v.step.id == "promote_pypi").done, "a failed PyPI read locks nothing"


def test_a_template_whose_manual_pypi_step_reads_the_old_gate_still_locks_on_it():
    step = ChecklistStep("upload", "Promotion", "Upload", gate="pypi_not_published", irreversible=True)
    published = gate("pypi_not_published", GateStatus.AMBER, "2.5.0 is already on PyPI")
    view = checklist_report([step], {}, {"pypi_not_published": published}).steps[0]
    assert view.done and view.locked.startswith("done and locked: already on PyPI")


def test_the_steps_that_are_chores_name_their_built_in_action_and_other_names_are_refused(steps, tmp_path):
    by_id = steps_by_id(steps)
    assert by_id["tag_final_rc"].action == "rc_tag"
    assert by_id["validation_issue"].action == "validation_issue"
    assert by_id["validation_comments"].action == "validation_comments"
    expected = "expected one of rc_tag, validation_issue, validation_comments, got 'deploy'"
    with pytest.raises(ConfigError, match=f"key 'action': {expected}"):
        load_template(write(tmp_path, GOOD_STEP + 'action = "deploy"\n'))


VALUES = {"version": "2.5.0", "branch": "release/2.5", "rc_tag": "v2.5.0-rc3", "remote": "origin"}


def test_a_step_command_becomes_argument_lists_filled_from_the_config(steps):
    from cockpit.services.step_commands import shown, step_programs

    programs = step_programs(steps_by_id(steps)["tag_final_rc"].command, VALUES)
    assert programs == (
        ("git", "tag", "-a", "v2.5.0-rc3", "origin/release/2.5", "-m", "v2.5.0-rc3"),
        ("git", "push", "origin", "v2.5.0-rc3"),
    )
    assert shown(programs) == "git tag -a v2.5.0-rc3 origin/release/2.5 -m v2.5.0-rc3 && git push origin v2.5.0-rc3"


def test_a_placeholder_value_stays_one_argument_whatever_it_holds():
    from cockpit.services.step_commands import step_programs

    assert step_programs("echo {branch}", {"branch": "x; rm -rf / && y"}) == (("echo", "x; rm -rf / && y"),)


@pytest.mark.parametrize(
    "text",
    [
        "git log | head",
        "echo a; echo b",
        "echo $HOME",
        "echo `id`",
        "cat < x",
        "echo > out",
        "echo $(id)",
        "&& git push",
        "git tag &&",
        "echo 'open",
    ],
)
def test_shell_syntax_in_a_step_command_is_refused_with_the_step_named(text):
    from cockpit.services.step_commands import step_programs

    with pytest.raises(ConfigError, match="step 'x'"):
        step_programs(text, VALUES, where="step 'x'")


def test_the_next_rc_is_one_more_than_the_highest_rc_of_this_version():
    from cockpit.actions.rc_tag import next_rc_tag

    assert next_rc_tag("2.5.0", ["v2.5.0-rc1", "v2.5.0-rc10", "v2.5.0-rc2", "v2.4.1-rc12", "v2.5.0"]) == "v2.5.0-rc11"
    assert next_rc_tag("2.5.0", ["v2.4.1-rc3"]) == "v2.5.0-rc1"
    assert next_rc_tag("2.5.0", ["v2.5.0-rc2-hotfix", "v2.5.0.rc9"]) == "v2.5.0-rc1"


def test_a_step_command_streams_its_lines_and_stops_at_the_first_failure(tmp_path):
    import sys

    from cockpit.adapters.shell import CommandFailed, StepCommandRunner

    lines: list[str] = []
    runner = StepCommandRunner(tmp_path, read_only=False)
    script = "import os; print('one'); print(os.getcwd())"
    result = runner.run([(sys.executable, "-c", script)], lines.append)
    assert lines[1:3] == ["one", str(tmp_path)] and lines[0].startswith("$ ") and lines[-1] == "(exit status 0)"
    assert result.endswith(f"last line: {tmp_path}")
    lines.clear()
    with pytest.raises(CommandFailed, match=r"exited with status 3: bad"):
        runner.run(
            [(sys.executable, "-c", "import sys; print('bad'); sys.exit(3)"), (sys.executable, "-c", "print('never')")],
            lines.append,
        )
    assert "never" not in lines
    with pytest.raises(CommandFailed, match="no such program"):
        runner.run([("surely-not-a-program-xyz",)], lines.append)


def test_a_read_only_session_runs_no_step_command(tmp_path):
    from cockpit.adapters.shell import StepCommandRunner
    from cockpit.errors import ReadOnlyError

    lines: list[str] = []
    with pytest.raises(ReadOnlyError):
        StepCommandRunner(tmp_path, read_only=True).run([("touch", "x")], lines.append)
    assert lines == [] and not (tmp_path / "x").exists()
