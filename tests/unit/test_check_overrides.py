"""`cockpit check` and `cockpit report` keep an override apart from a green gate: a step signed by hand
over a red gate lets GO through, and says so on its own line, in the Markdown and in the JSON."""

from __future__ import annotations

import argparse
import json

import pytest

from cockpit.cli import report as cli_report
from cockpit.domain.checklist import ChecklistStep, Signoff, StepKind
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import ReleasePicture
from cockpit.services.checklist import checklist_report
from cockpit.services.overview import BLOCKING, go_no_go
from cockpit.services.report_render import render_json, render_markdown

STEP = ChecklistStep("rc_health", "After the final RC", "Release candidate health validated", kind=StepKind.AUTOMATIC,
                     gate="rc_health")  # fmt: skip
RED = Gate("rc_health", "RC builds green on the tag", GateStatus.RED, "acme/vision v0.20.0-rc2: failed: binary-builds")
NOTE = "vision rebuilt by hand after a runner outage"
GREEN = {name: Gate(name, name, GateStatus.GREEN, "fine") for name in BLOCKING}


def picture(signoffs: dict[str, Signoff]) -> ReleasePicture:
    checklist = checklist_report([STEP], signoffs, {**GREEN, "rc_health": RED})
    return ReleasePicture("2.5.0", "acme/torchlet", "release/2.5", dict(GREEN), checklist, go_no_go(GREEN, checklist))


SIGNED = {"rc_health": Signoff("rc_health", True, "Rita", "2026-10-01T12:00:00+00:00", override=True,
                               gate_status="red", gate_summary=RED.summary, override_note=NOTE)}  # fmt: skip


@pytest.fixture
def check(monkeypatch, capsys):
    def run(pic: ReleasePicture) -> tuple[int, list[str]]:
        monkeypatch.setattr(cli_report, "_picture", lambda args: pic)
        status = cli_report.run_check(argparse.Namespace())
        return status, capsys.readouterr().out.splitlines()

    return run


def test_a_red_step_nobody_signed_keeps_check_at_no_go_and_says_why(check):
    status, lines = check(picture({}))
    assert status == 1 and lines[0] == "NO-GO: release 2.5.0"
    assert f"not done: Release candidate health validated (red: {RED.summary})" in lines


def test_a_signed_override_lets_check_pass_and_is_listed_apart_from_the_green_gates(check):
    status, lines = check(picture(SIGNED))
    assert status == 0
    assert lines[0].startswith("GO WITH 1 OVERRIDE(S): release 2.5.0")
    assert len(lines) == 2 and lines[1].startswith("override: Release candidate health validated: override by Rita")
    assert NOTE in lines[1] and "the gate is red now" in lines[1]


def test_the_report_marks_the_override_in_markdown_and_json():
    pic = picture(SIGNED)
    md = render_markdown(pic)
    assert "**Signed by hand over a gate that is not green (overrides):**" in md
    assert "⚑ **override** (red gate)" in md
    data = json.loads(render_json(pic))
    assert data["verdict"]["overrides"] and NOTE in data["verdict"]["overrides"][0]
    step = data["checklist"]["steps"][0]
    assert step["override"].startswith("override by Rita") and step["signoff"]["gate_status"] == "red"


def test_the_overview_verdict_line_counts_steps_not_done_and_says_go_with_overrides():
    from cockpit.ui.panes.overview import verdict_line

    assert verdict_line(picture({}).verdict).endswith("0 required steps unsigned, 1 checked step not done")
    assert verdict_line(picture(SIGNED).verdict) == "GO with 1 override: signed by hand over gates not green (see 5)"
