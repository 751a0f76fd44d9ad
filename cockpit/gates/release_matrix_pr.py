"""``release_matrix_pr``: the release-day PR of the release matrix is ready or merged
(``services/evidence_release_day.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="release_matrix_pr",
    title="Release matrix PR",
    pane="checklist",
    order=250,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
