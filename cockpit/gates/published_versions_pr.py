"""``published_versions_pr``: the release-day PR of the published versions is ready or merged
(``services/evidence_release_day.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="published_versions_pr",
    title="Published versions PR",
    pane="checklist",
    order=260,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
