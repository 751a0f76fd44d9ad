"""``workflow_run``: a checklist step that a release workflow performs is done when a real run of it, with
this release's inputs, on the right ref, succeeded (``services/workflow_runs.py``; each such step is
answered under ``workflow_run[<step id>]``, read by ``loaders/workflow_steps.py``)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="workflow_run",
    title="Release workflow run",
    pane="checklist",
    order=215,
    read=None,  # judged per step by loaders/workflow_steps.py
    family="workflow",
)
