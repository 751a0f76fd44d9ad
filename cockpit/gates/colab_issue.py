"""``colab_issue``: the Colab repository has the release's issue (``services/evidence_release_day.py``,
for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="colab_issue",
    title="Colab issue",
    pane="checklist",
    order=280,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
