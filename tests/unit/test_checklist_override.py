"""The release manager signs a step by hand over a red or unknown gate: the note is required, the
override is kept with the gate as it stood, audited, counted towards GO and never mistaken for green."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
import tomli_w

from cockpit.actions.checklist import register
from cockpit.actions.registry import ActionRegistry
from cockpit.domain.checklist import ChecklistStep, Signoff, StepKind, StepOverride
from cockpit.domain.gates import Gate, GateStatus
from cockpit.services.checklist import checklist_report, lapsed_override
from cockpit.services.overview import go_no_go
from cockpit.services.report_render import to_jsonable
from cockpit.state.store import StateStore

NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)
RC_HEALTH = ChecklistStep(
    "rc_health", "After the final RC", "Release candidate health validated", kind=StepKind.AUTOMATIC, gate="rc_health"
)
RED = Gate("rc_health", "RC builds green on the tag", GateStatus.RED, "acme/vision v0.20.0-rc2: failed: binary-builds")
UNKNOWN = Gate("rc_health", "RC builds green on the tag", GateStatus.UNKNOWN, "acme/audio: no RC tag found")
AMBER = Gate("rc_health", "RC builds green on the tag", GateStatus.AMBER, "acme/audio: still running: trunk")
GREEN = Gate("rc_health", "RC builds green on the tag", GateStatus.GREEN, "green in all 3 repositories")
NOTE = "vision's wheel build failed on a runner outage; rebuilt by hand and smoke-tested"


@dataclass
class Shared:
    pypi_gate: Gate | None = None
    team_status: None = None  # no status comment read: this session's sign-offs only
    checklist: None = None  # no checklist judged yet: no step is held back by the runbook's order


@dataclass
class Backend:
    """Just what the checklist actions read."""

    state: StateStore
    who: str = "Rita Release"
    shared: Shared = field(default_factory=Shared)
    steps: tuple[ChecklistStep, ...] = (RC_HEALTH,)

    def clock(self) -> datetime:
        return NOW

    def checklist_steps(self) -> tuple[ChecklistStep, ...]:
        return self.steps


@pytest.fixture
def store(tmp_path):
    s = StateStore(tmp_path / "state.toml", clock=lambda: NOW)
    yield s
    s.close()


def registry(store: StateStore, *, read_only: bool = False) -> ActionRegistry:
    reg = ActionRegistry(store, read_only=read_only, who="Rita Release", clock=lambda: NOW)
    register(reg, Backend(store))  # type: ignore[arg-type]  # a partial Ports: what these actions read
    return reg


def test_a_red_step_signed_over_with_a_note_is_done_by_override_and_audited(store):
    result = registry(store).run("checklist.override", StepOverride(RC_HEALTH, RED, NOTE), confirmed=True)
    assert result.ok, result.message

    signoff = store.signoffs()["rc_health"]
    assert (signoff.done, signoff.override, signoff.gate_status, signoff.override_note) == (True, True, "red", NOTE)
    view = checklist_report([RC_HEALTH], store.signoffs(), {"rc_health": RED}).steps[0]
    assert view.done and view.gate is RED
    assert view.override.startswith("override by Rita Release at 2026-10-01T12:00:00") and NOTE in view.override
    entry = store.audit_log()[-1]
    assert (entry.who, entry.when, entry.action, entry.target, entry.outcome) == (
        "Rita Release",
        "2026-10-01T12:00:00Z",
        "checklist.override",
        "rc_health",
        "ok",
    )
    assert "red gate" in entry.detail and RED.summary in entry.detail and NOTE in entry.detail


@pytest.mark.parametrize("note", ["", "   "])
def test_an_override_without_a_note_is_refused_and_nothing_is_signed(store, note):
    result = registry(store).run("checklist.override", StepOverride(RC_HEALTH, RED, note), confirmed=True)
    assert not result.ok
    assert "needs a note saying why it goes ahead over a red gate" in result.message
    assert "rc_health" not in store.signoffs()
    assert store.audit_log()[-1].outcome == "refused"


@pytest.mark.parametrize(
    ("gate", "words"),
    [(GREEN, "there is nothing to override"), (AMBER, "an override signs over a red or unknown gate")],
)
def test_only_a_red_or_unknown_gate_can_be_signed_over(store, gate, words):
    result = registry(store).run("checklist.override", StepOverride(RC_HEALTH, gate, NOTE), confirmed=True)
    assert not result.ok and words in result.message


def test_a_manual_step_is_ticked_not_overridden(store):
    manual = ChecklistStep("perf", "After the final RC", "Performance run shows no regression")
    result = registry(store).run("checklist.override", StepOverride(manual, RED, NOTE), confirmed=True)
    assert not result.ok and "manual step" in result.message


def test_a_read_only_session_refuses_the_override(store):
    result = registry(store, read_only=True).run(
        "checklist.override", StepOverride(RC_HEALTH, RED, NOTE), confirmed=True
    )
    assert not result.ok and result.message.startswith("read-only session")
    assert store.signoffs() == {}


def test_an_automatic_step_is_not_ticked_by_hand_but_its_override_can_be_withdrawn(store):
    reg = registry(store)
    refused = reg.run("checklist.toggle", "rc_health", confirmed=True)
    assert not refused.ok and "is automatic" in refused.message and "override it with a note" in refused.message
    assert reg.run("checklist.override", StepOverride(RC_HEALTH, UNKNOWN, NOTE), confirmed=True).ok
    assert reg.run("checklist.toggle", "rc_health", confirmed=True).ok
    signoff = store.signoffs()["rc_health"]
    assert not signoff.done and not signoff.override
    assert not checklist_report([RC_HEALTH], store.signoffs(), {"rc_health": UNKNOWN}).steps[0].done


def test_an_override_over_an_unknown_gate_lapses_once_the_gate_turns_red():
    signed = Signoff("rc_health", True, "rm", "2026-10-01T12:00:00+00:00", override=True, gate_status="unknown",
                     override_note=NOTE)  # fmt: skip
    still = checklist_report([RC_HEALTH], {"rc_health": signed}, {"rc_health": UNKNOWN}).steps[0]
    assert still.done and still.override
    worse = checklist_report([RC_HEALTH], {"rc_health": signed}, {"rc_health": RED}).steps[0]
    assert not worse.done and not worse.override
    assert "lapsed: the gate is red now" in lapsed_override(worse)
    green = checklist_report([RC_HEALTH], {"rc_health": signed}, {"rc_health": GREEN}).steps[0]
    assert green.done and not green.override  # green on its own: the override is not needed any more


def test_an_override_counts_towards_go_and_is_listed_apart_from_green_gates():
    gates = {name: Gate(name, name, GateStatus.GREEN, "fine") for name in
             ("milestone_empty", "picks_clear", "ci_green", "branch_diff_clean", "rc_artifacts")}  # fmt: skip
    unsigned = checklist_report([RC_HEALTH], {}, {**gates, "rc_health": RED})
    verdict = go_no_go(gates, unsigned)
    assert not verdict.go
    assert verdict.reasons == (f"not done: Release candidate health validated (red: {RED.summary})",)

    signed = Signoff("rc_health", True, "rm", "2026-10-01T12:00:00+00:00", override=True, gate_status="red",
                     override_note=NOTE)  # fmt: skip
    report = checklist_report([RC_HEALTH], {"rc_health": signed}, {**gates, "rc_health": RED})
    verdict = go_no_go(gates, report)
    assert verdict.go and verdict.reasons == ()
    assert (
        len(verdict.overrides) == 1 and NOTE in verdict.overrides[0] and "the gate is red now" in verdict.overrides[0]
    )
    assert report.gate.summary == "all 1 required steps done, 1 by override"


def test_an_override_of_a_blocking_gates_steps_lifts_that_gate_from_the_verdict():
    ci = ChecklistStep("ci_green", "Final RC", "Release branch CI is green", kind=StepKind.AUTOMATIC, gate="ci_green")
    red_ci = Gate("ci_green", "CI green", GateStatus.RED, "pull failed")
    signed = Signoff("ci_green", True, "rm", "t", override=True, gate_status="red", override_note="known flake")
    verdict = go_no_go({"ci_green": red_ci}, checklist_report([ci], {"ci_green": signed}, {"ci_green": red_ci}),
                       blocking=("ci_green",))  # fmt: skip
    assert verdict.go and verdict.overrides and "known flake" in verdict.overrides[0]


def write_state(path: Path, signoffs: dict) -> None:
    path.write_text(tomli_w.dumps({"schema": 1, "signoffs": signoffs}), encoding="utf-8")


def test_sign_offs_written_before_overrides_existed_still_load(tmp_path):
    path = tmp_path / "state.toml"
    write_state(path, {"perf": {"done": True, "who": "rm", "when": "2026-09-30T10:00:00+00:00", "note": "ok"}})
    store = StateStore(path)
    try:
        signoff = store.signoffs()["perf"]
        assert (signoff.done, signoff.override, signoff.problem, signoff.note) == (True, False, "", "ok")
    finally:
        store.close()


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"override": "yes"}, "key 'override' is 'yes', expected true or false"),
        ({"override": True, "gate_status": "green", "override_note": NOTE}, "key 'gate_status' is 'green'"),
        ({"override": True, "gate_status": "red"}, "key 'override_note' is missing"),
        ({"override": True, "gate_status": "red", "override_note": "  "}, "expected the note saying why"),
        ({"override": True, "gate_status": "red", "override_note": NOTE, "gate_summary": 3}, "'gate_summary' is 3"),
    ],
)
def test_a_hand_edited_override_is_not_counted_and_says_what_is_wrong(tmp_path, entry, words):
    path = tmp_path / "state.toml"
    write_state(path, {"rc_health": {"done": True, "who": "rm", "when": "t", **entry}})
    store = StateStore(path)
    try:
        signoff = store.signoffs()["rc_health"]
    finally:
        store.close()
    assert not signoff.done and not signoff.override
    assert f"{path}: [signoffs.rc_health]: " in signoff.problem and words in signoff.problem
    assert "this override is not counted" in signoff.problem
    assert not checklist_report([RC_HEALTH], {"rc_health": signoff}, {"rc_health": RED}).steps[0].done


def test_the_json_report_carries_the_override_with_the_step():
    signed = Signoff("rc_health", True, "rm", "t", override=True, gate_status="red", override_note=NOTE)
    report = checklist_report([RC_HEALTH], {"rc_health": signed}, {"rc_health": RED})
    assert '"override": "override by rm at t over red: ' in json.dumps(to_jsonable(report))
