"""``branch_diff_clean``: no closed milestone PR missing from the release branch, no revert owed
(judged by ``services/branch_diff.py`` as the branch diff pane loads)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec, every_library

GATE = GateSpec(
    name="branch_diff_clean",
    title="Branch diff clean",
    pane="branch",
    order=40,
    listed=True,
    blocks=True,
    library=every_library,
    short="branch",
)
