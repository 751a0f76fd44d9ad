"""The checklist's evidence steps, read through the real adapters from the emulated repositories, say what
the sandbox planted; evidence that cannot be read makes a step unknown, never green."""

from __future__ import annotations

import dataclasses
import json
import urllib.request

import pytest

from cockpit.bootstrap import build_backend
from cockpit.config import load_config
from cockpit.config.evidence import EvidenceConfig
from cockpit.config.tables import read_table
from cockpit.config.where import Where
from cockpit.domain.checklist import StepKind
from cockpit.domain.evidence import EVIDENCE_GATES
from cockpit.domain.gates import GateStatus
from cockpit.loaders.evidence import load_evidence
from cockpit.loaders.picture import gather
from cockpit.services.report_render import render_json, render_markdown


@pytest.fixture()
def backend(sandbox):
    b = build_backend(sandbox.config, read_only=True)
    yield b
    b.state.close()


def _with_evidence(sandbox, **changes):
    """The sandbox's config with some ``[evidence]`` steps changed (a dict of keys, or None to drop a step)."""
    table = {**sandbox.world.evidence_config, **changes}
    table = {k: v for k, v in table.items() if v is not None}
    evidence = read_table(EvidenceConfig, Where(sandbox.config_path, "evidence"), table)
    return dataclasses.replace(sandbox.config, evidence=evidence)


def test_every_evidence_step_is_automatic_and_its_verdict_is_the_planted_one(backend, sandbox_world):
    picture = gather(backend)
    truth = sandbox_world.truth["checklist_evidence"]
    views = {v.step.gate: v for v in picture.checklist.steps if v.step.gate in EVIDENCE_GATES}
    assert set(views) == set(EVIDENCE_GATES) == set(truth)
    assert all(v.step.kind.judged for v in views.values())  # the runbook marks some of them "gate"
    got = {name: v.gate.status.value for name, v in views.items()}
    assert got == {name: planted["status"] for name, planted in truth.items()}


def test_the_evidence_names_what_is_wrong(backend, sandbox_world):
    truth = sandbox_world.truth["checklist_evidence"]
    gates = {g.name: g for g in backend.load_evidence().gates}
    failed = [
        d.removeprefix("failed: ").rsplit(" (", 1)[0] for d in gates["validate_binaries"].details if "failed:" in d
    ]
    assert failed == truth["validate_binaries"]["failed_jobs"]
    assert (
        f"ran on {truth['validate_binaries']['rc']} (started after the tag was made)"
        in gates["validate_binaries"].summary
    )
    lacking = truth["validation_comments"]["lacking"]
    listed = [d for d in gates["validation_comments"].details if d.startswith("#")]
    assert {int(d.split()[0][1:]) for d in listed} == set(lacking)
    assert gates["validation_comments"].summary.startswith(
        f"{len(lacking)} of {len(truth['validation_comments']['closed'])}"
    )
    issue = gates["validation_issue"]
    assert [d.removeprefix("open: ") for d in issue.details if d.startswith("open: ")] == truth["validation_issue"][
        "open"
    ]
    assert "failed: linkcheck (failure)" in gates["release_matrix_pr"].details
    assert truth["triton_pin_release"]["pin"] in gates["triton_pin_release"].details[0]
    assert gates["colab_issue"].summary.startswith("not due yet")


def test_the_report_shows_the_evidence_in_markdown_and_json(backend):
    picture = gather(backend)
    markdown = render_markdown(picture)
    assert "  - failed: linux-aarch64 / validate \\(3.13t\\) \\(failure\\)" in markdown
    assert "acme/docs has no 2.5/index.html on site" in markdown
    data = json.loads(render_json(picture))
    steps = {s["step"]["id"]: s for s in data["checklist"]["steps"]}
    assert steps["validate_binaries"]["gate"]["status"] == "red"
    assert any("windows / validate" in d for d in steps["validate_binaries"]["gate"]["details"])


def test_reading_the_evidence_costs_few_requests_and_a_refresh_is_reused(backend, sandbox, sandbox_world):
    report = backend.load_evidence()
    closed = len(sandbox_world.truth["checklist_evidence"]["validation_comments"]["closed"])
    assert report.comment_reads == closed
    # one list per step (runs + jobs, searches, a PR and its checks, contents, the milestone) plus one per closed issue
    assert report.requests <= 18 + closed
    cost = next(d for d in {g.name: g for g in report.gates}["validation_comments"].details if "read:" in d)
    assert cost == f"comments of {closed} closed issues read: {closed} requests, 0 unchanged (304)"
    backend.load_checklist({})  # the first one also reads the checklist's other evidence (the RC tag's builds)
    sent = len(sandbox.github.log())
    backend.load_checklist({})
    backend.load_checklist({})
    assert len(sandbox.github.log()) == sent, "the checklist re-evaluated within the reuse window read nothing again"
    backend.shared.evidence.get(lambda: load_evidence(backend))  # a refresh past the window: conditional requests
    again = {g.name: g for g in backend.shared.evidence.last.gates}["validation_comments"]
    assert f"{closed} requests, {closed} unchanged (304)" in next(d for d in again.details if "read:" in d)


def test_a_step_left_out_of_the_config_stays_a_signature_saying_what_would_judge_it(sandbox):
    config = _with_evidence(sandbox, docs_build_entry=None)
    b = build_backend(config, read_only=True)
    try:
        step = next(s for s in b.checklist_steps() if s.id == "docs_build_entry")
        report = b.load_evidence()
    finally:
        b.state.close()
    assert step.kind is StepKind.MANUAL and step.gate is None
    assert "[evidence.docs_build_entry]" in step.help
    assert "docs_build_entry" not in {g.name for g in report.gates}
    assert dict(report.manual)["docs_build_entry"].startswith("add [evidence.docs_build_entry]")


def test_a_repository_that_is_not_there_makes_its_step_unknown_not_red(sandbox):
    config = _with_evidence(
        sandbox,
        docs_build_entry={"repository": "acme/no-such-docs"},
        colab_issue={"repository": "acme/no-such-colab"},
    )
    b = build_backend(config, read_only=True)
    try:
        gates = {g.name: g for g in b.load_evidence().gates}
    finally:
        b.state.close()
    assert gates["docs_build_entry"].status is GateStatus.UNKNOWN
    assert "acme/no-such-docs not found" in gates["docs_build_entry"].summary
    assert gates["colab_issue"].status is GateStatus.UNKNOWN


def test_a_forbidden_answer_makes_the_step_unknown_with_the_reason(sandbox, backend):
    sandbox.github.faults.status_burst(403, count=None, path=r"/actions/workflows/")
    sandbox.github.faults.status_burst(403, count=None, path=r"/contents/")
    gates = {g.name: g for g in backend.load_evidence().gates}
    for name in ("validate_binaries", "docs_build_entry"):
        assert gates[name].status is GateStatus.UNKNOWN, name
        assert "forbidden (403" in gates[name].summary
    assert gates["validation_issue"].status is GateStatus.AMBER  # the others still judged


def test_github_unreachable_leaves_every_github_step_unknown(sandbox):
    config = dataclasses.replace(
        sandbox.config, github=dataclasses.replace(sandbox.config.github, api_url="http://127.0.0.1:9", retries=0)
    )
    b = build_backend(config, read_only=True)
    try:
        gates = {g.name: g for g in b.load_evidence().gates}
    finally:
        b.state.close()
    github_steps = set(EVIDENCE_GATES) - {"triton_pin_release"}
    assert {n for n, g in gates.items() if g.status is GateStatus.UNKNOWN} == github_steps
    # the first step asked says why; the others were not asked (each would have waited as long) and say so
    said = [gates[n].summary for n in github_steps]
    assert sum("cannot reach http://127.0.0.1:9" in s and "not asked" not in s for s in said) == 1, said
    assert all("cannot reach http://127.0.0.1:9" in s for s in said)
    assert sum("not asked: GitHub stopped answering" in s for s in said) == len(said) - 1
    assert gates["triton_pin_release"].status is GateStatus.RED  # read from git and PyPI, which still answer


def test_hostile_text_in_a_validation_comment_stays_inert(sandbox, backend, sandbox_world):
    lacking = sandbox_world.truth["checklist_evidence"]["validation_comments"]["lacking"]
    body = json.dumps({"body": "\x1b[2J\x1b]52;c;cHduZWQ=\x07 validated for 2.5.0 \u202eevil"}).encode()
    request = urllib.request.Request(
        f"{sandbox.github_url}/repos/acme/torchlet/issues/{lacking[0]}/comments", data=body, method="POST"
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201
    gate = {g.name: g for g in backend.load_evidence().gates}["validation_comments"]
    assert f"#{lacking[0]}" not in gate.summary  # the phrase is found in the inert text: validated
    assert all("\x1b" not in d and "\u202e" not in d for d in gate.details)


def test_the_sandbox_config_reads_back_as_written(sandbox):
    assert load_config(sandbox.config_path).evidence.configured == (*EVIDENCE_GATES, "release_workflows")


def test_cockpit_check_names_each_evidence_step_that_holds_the_release(sandbox, capsys):
    from cockpit.cli.main import main

    assert main(["--config", str(sandbox.config_path), "check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    # the docs push is runbook step 17, after the go decision: red, but it does not hold the release
    assert not any("Docs pushed" in line for line in lines)
    assert any(line.startswith("not done: Validation issue for the release") and "(amber: " in line for line in lines)
    assert not any("Colab" in line for line in lines)  # done after the go decision: it does not hold it
