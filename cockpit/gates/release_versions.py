"""``release_versions``: test-infra's ``release/release_versions.sh`` names this release's versions, each
variable agreeing with the release and its domain libraries (``services/release_versions.py``; shown by
``cockpit workflows`` for now, judged from the file on the ref the release workflows run from)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="release_versions",
    title="Release versions",
    pane="checklist",
    order=290,
    read=None,  # judged from the file by services/release_versions.py
)
