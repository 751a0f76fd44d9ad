"""``ci_green``: the release branch head and the RC tag are green in every required workflow (judged
by ``services/ci.py`` as the CI pane loads; a library's from the same report, ``services/repo_gates.py``)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec, every_library

GATE = GateSpec(
    name="ci_green",
    title="CI green",
    pane="ci",
    order=30,
    listed=True,
    blocks=True,
    library=every_library,
    short="ci",
)
