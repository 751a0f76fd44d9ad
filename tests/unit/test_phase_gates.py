"""A patch release's checklist reads its phases from the schedule: open before a phase, amber while it
runs, green once it is over; cherry-picking turns red when it ended with requests still open."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import ChecklistReport, GoNoGo, ReleasePicture
from cockpit.domain.schedule import PatchPhase, PatchSchedule, PhaseDates
from cockpit.services.checklist import checklist_report, load_template, steps_for_release
from cockpit.services.phase_gates import PHASE_GATES, phase_gates, phase_line
from cockpit.services.report_render import render_json, render_markdown

DEADLINE = datetime(2026, 9, 25, 17, 0, tzinfo=UTC)
SCHEDULE = PatchSchedule(
    phases=(
        PhaseDates(PatchPhase.TRIAGE, date(2026, 9, 1), date(2026, 9, 14)),
        PhaseDates(PatchPhase.GO_NO_GO, date(2026, 9, 15), date(2026, 9, 15)),
        PhaseDates(PatchPhase.CHERRY_PICK, date(2026, 9, 16), date(2026, 9, 25)),
        PhaseDates(PatchPhase.BUILD_PROMOTE, date(2026, 9, 28), date(2026, 10, 9)),
        PhaseDates(PatchPhase.GENERAL_AVAILABILITY, date(2026, 10, 13), date(2026, 10, 13)),
    ),
    cherry_pick_deadline=DEADLINE,
)
PICKS_CLEAR = {"picks_clear": Gate("picks_clear", "Cherry-picks clear", GateStatus.GREEN, "no pending cherry-picks")}
PICKS_OPEN = {
    "picks_clear": Gate(
        "picks_clear", "Cherry-picks clear", GateStatus.AMBER, "2 picks under review", ("#1 under review",)
    )
}


def at(day: str, hour: int = 12) -> datetime:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC)


def statuses(gates: dict[str, Gate]) -> dict[str, str]:
    return {name: gate.status.value for name, gate in gates.items()}


def test_each_phase_has_its_gate_named_after_it():
    assert list(PHASE_GATES.values()) == [
        "phase_triage",
        "phase_go_no_go",
        "phase_cherry_pick",
        "phase_build_promote",
        "phase_general_availability",
    ]


def test_mid_build_the_earlier_phases_are_green_the_running_one_amber_and_the_later_open():
    gates = phase_gates(SCHEDULE, at("2026-10-02"), PICKS_CLEAR)
    assert statuses(gates) == {
        "phase_triage": "green",
        "phase_go_no_go": "green",
        "phase_cherry_pick": "green",
        "phase_build_promote": "amber",
        "phase_general_availability": "unknown",
    }
    assert gates["phase_build_promote"].summary.startswith("running: 8 days left, today included")
    assert gates["phase_general_availability"].summary.startswith("starts in 11 days")


def test_cherry_picking_that_ended_with_requests_under_review_is_red_and_says_which():
    gate = phase_gates(SCHEDULE, at("2026-10-02"), PICKS_OPEN)["phase_cherry_pick"]
    assert gate.status is GateStatus.RED
    assert "2 picks under review" in gate.summary and gate.details == ("#1 under review",)


def test_cherry_picking_is_over_at_the_deadline_even_on_its_last_day():
    before = phase_gates(SCHEDULE, at("2026-09-25", 16), PICKS_OPEN)["phase_cherry_pick"]
    after = phase_gates(SCHEDULE, at("2026-09-25", 18), PICKS_OPEN)["phase_cherry_pick"]
    assert before.status is GateStatus.AMBER and "1 day left" in before.summary
    assert after.status is GateStatus.RED and "2026-09-25 17:00 UTC" in after.summary


def test_cherry_picking_over_while_the_picks_are_not_known_is_unknown_not_green():
    assert phase_gates(SCHEDULE, at("2026-10-02"), {})["phase_cherry_pick"].status is GateStatus.UNKNOWN
    unread = {"picks_clear": Gate("picks_clear", "Cherry-picks clear", GateStatus.UNKNOWN, "could not load: 502")}
    gate = phase_gates(SCHEDULE, at("2026-10-02"), unread)["phase_cherry_pick"]
    assert gate.status is GateStatus.UNKNOWN and "could not load: 502" in gate.summary


def test_before_the_schedule_every_phase_is_open_and_after_it_every_phase_is_green():
    assert set(statuses(phase_gates(SCHEDULE, at("2026-08-20"), PICKS_CLEAR)).values()) == {"unknown"}
    assert set(statuses(phase_gates(SCHEDULE, at("2026-10-20"), PICKS_CLEAR)).values()) == {"green"}


def test_a_phase_the_schedule_leaves_out_is_open_and_says_how_to_add_it():
    schedule = PatchSchedule(phases=SCHEDULE.phases[:2])
    gates = phase_gates(schedule, at("2026-10-02"), PICKS_CLEAR)
    assert gates["phase_build_promote"].status is GateStatus.UNKNOWN
    assert "[schedule]" in gates["phase_build_promote"].summary


def test_the_patch_phase_steps_appear_only_in_a_patch_release_checklist_and_follow_their_gates():
    steps = load_template()
    minor = steps_for_release(steps, patch=False)
    patch = steps_for_release(steps, patch=True)
    phase_steps = [s for s in patch if s.patch_only]
    minor_only = [s for s in minor if s.minor_only]  # the compatibility matrix: a patch release changes no pairing
    assert not any(s.patch_only for s in minor) and len(patch) == len(minor) - len(minor_only) + len(PHASE_GATES)
    assert [s.gate for s in phase_steps] == list(PHASE_GATES.values())
    report = checklist_report(patch, {}, {**PICKS_OPEN, **phase_gates(SCHEDULE, at("2026-10-02"), PICKS_OPEN)})
    by_id = {v.step.id: v for v in report.steps}
    assert by_id["phase_triage"].done and not by_id["phase_build_promote"].done
    assert by_id["phase_cherry_pick"].gate.status is GateStatus.RED
    assert report.gate.status is not GateStatus.RED  # optional steps never hold the checklist


def picture(phase: str, gates: dict[str, Gate]) -> ReleasePicture:
    checklist = ChecklistReport((), Gate("checklist", "Checklist", GateStatus.GREEN, "all 0 required steps done"))
    return ReleasePicture(
        "2.5.1", "acme/torchlet", "release/2.5", {}, checklist, GoNoGo(False), patch_phase=phase, phase_gates=gates
    )


def test_the_report_opens_with_the_phase_line_and_the_phase_gates():
    gates = phase_gates(SCHEDULE, at("2026-10-02"), PICKS_OPEN)
    text = render_markdown(picture(phase_line("2.5.1", SCHEDULE, at("2026-10-02")), gates))
    assert "**Patch 2.5.1 · Build and promote: 8 days left \\(today included\\)" in text
    assert "| Phase: Cherry-picking | ❌ red | over since the deadline 2026-09-25 17:00 UTC" in text
    assert "| Phase: Build and promote | 🟡 amber | running: 8 days left" in text


@pytest.mark.parametrize("hostile", ["@release-team [x](http://evil) <b>", "**loud** `tick` | cell"])
def test_outside_text_in_the_phase_gates_is_escaped_in_the_report(hostile):
    gates = phase_gates(SCHEDULE, at("2026-10-02"), {"picks_clear": Gate("picks_clear", "t", GateStatus.RED, hostile)})
    text = render_markdown(picture("Patch 2.5.1 · x", gates))
    assert "@release-team" not in text.replace("`@release-team`", "")
    assert "](http://evil)" not in text and "<b>" not in text and "**loud**" not in text
    assert all(line.count(" | ") - line.count("\\|") <= 3 for line in text.splitlines() if "Cherry-picking" in line)


def test_the_json_report_carries_the_phase_line_and_gates():
    import json

    gates = phase_gates(SCHEDULE, at("2026-10-02"), PICKS_CLEAR)
    data = json.loads(render_json(picture("Patch 2.5.1 · Build and promote", gates)))
    assert data["patch_phase"] == "Patch 2.5.1 · Build and promote"
    assert data["phase_gates"]["phase_build_promote"]["status"] == "amber"
