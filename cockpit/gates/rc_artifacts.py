"""``rc_artifacts``: every expected RC wheel is staged and valid (judged by ``services/storage.py``
as the overview loads the RC storage)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec, libraries_with_packages

GATE = GateSpec(
    name="rc_artifacts",
    title="RC artifacts valid",
    pane="overview",
    section="RC artifacts",
    order=50,
    listed=True,
    blocks=True,
    library=libraries_with_packages,
    short="rc",
)
