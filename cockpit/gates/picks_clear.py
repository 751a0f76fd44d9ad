"""``picks_clear``: every cherry-pick request is merged or set aside, none flagged (judged by
``services/picks.py`` as the cherry-picks pane loads)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec, every_library

GATE = GateSpec(
    name="picks_clear",
    title="Cherry-picks clear",
    pane="picks",
    order=20,
    listed=True,
    blocks=True,
    library=every_library,
    short="picks",
)
