"""``docs_build_entry``: the docs repository holds the release's entry (``services/evidence.py``, for
its checklist step, once ``[evidence]`` says where to look)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="docs_build_entry",
    title="Docs build entry",
    pane="checklist",
    order=240,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
