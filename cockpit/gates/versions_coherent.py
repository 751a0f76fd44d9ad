"""``versions_coherent[library]``: a domain library pins the core version of this release and its RC
wheels say so (judged by ``services/coherence.py``); a library's gate only."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec, libraries_with_packages_or_pins

GATE = GateSpec(
    name="versions_coherent",
    title="Versions coherent",
    pane="overview",
    order=80,
    core=False,
    read=None,  # judged by the domain libraries' loader from each library's clone
    library=libraries_with_packages_or_pins,
    short="versions",
)
