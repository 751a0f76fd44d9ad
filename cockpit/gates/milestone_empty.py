"""``milestone_empty``: no issue or PR of the release's milestone is still open (judged by
``services/milestone.py`` as the milestone pane loads)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec, every_library

GATE = GateSpec(
    name="milestone_empty",
    title="Milestone empty",
    pane="milestone",
    order=10,
    listed=True,
    blocks=True,
    library=every_library,
    short="milestone",
)
