"""Gather the whole release picture through a Backend, one pane at a time, for the headless CLI
(orchestration beside the other loaders: the gates themselves are judged by the services).

A pane whose load fails does not stop the others: its gate turns UNKNOWN with the error as its
summary, and the go/no-go verdict is NO-GO because of it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.panes import PANES
from cockpit.domain.reports import ReleasePicture
from cockpit.errors import CockpitError
from cockpit.gates import gate_title, on_pane

if TYPE_CHECKING:
    from cockpit.backend import Backend


def _failed(name: str, error: str) -> Gate:
    return Gate(name, gate_title(name), GateStatus.UNKNOWN, f"could not load: {error}")


def gather(backend: Backend, now: datetime | None = None) -> ReleasePicture:
    """Load every pane through ``backend``; ``now`` (default: the wall clock) places a patch release in its schedule."""
    reports: dict[str, Any] = {}
    errors: dict[str, str] = {}
    gates: dict[str, Gate] = {}
    for pane in PANES:  # in their load order: the branch diff feeds the pick analysis
        specs = on_pane(pane.id)
        if not specs or pane.judges_gates:  # the checklist judges every other gate: last, below
            continue
        load: Callable[[], Any] = getattr(backend, f"load_{pane.report}")
        try:
            report = load()
        except CockpitError as exc:
            errors[pane.report] = str(exc)
            # the gates that hold GO say they were not judged; the others are simply absent
            gates.update((s.name, _failed(s.name, str(exc))) for s in specs if s.blocks)
            continue
        reports[pane.report] = report
        for spec in specs:
            if spec.read is not None:
                gate = spec.read(report)
                gates[gate.name] = gate
    repos = backend.load_repositories(reports.get("ci")) if backend.config.repos else ()
    for repo in repos:
        gates.update((gate.name, gate) for gate in repo.gates)
    checklist = backend.load_checklist(gates)
    gates[checklist.gate.name] = checklist.gate
    verdict = backend.go_no_go(gates, checklist)
    rel = backend.config.release
    phase, phase_gates = _patch_phases(backend, now or datetime.now(UTC), gates)
    return ReleasePicture(
        version=rel.version,
        repository=rel.repository,
        branch=rel.branch,
        gates=gates,
        checklist=checklist,
        verdict=verdict,
        errors=errors,
        patch_phase=phase,
        phase_gates=phase_gates,
        repos=repos,
        **reports,
    )


def _patch_phases(backend: Backend, now: datetime, gates: dict[str, Gate]) -> tuple[str, dict[str, Gate]]:
    """A patch release's phase line and phase gates; nothing for any other release or without a schedule."""
    from cockpit.services.phase_gates import phase_gates, phase_line
    from cockpit.services.schedule import release_is_patch

    schedule, release = backend.config.schedule, backend.config.release
    if schedule is None or not release_is_patch(release):
        return "", {}
    return phase_line(release.version, schedule, now), phase_gates(schedule, now, gates)
