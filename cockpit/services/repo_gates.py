"""Gates of a domain library drawn from the release's own reports (its CI from the CI pane's report)."""

from __future__ import annotations

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import CIReport
from cockpit.domain.repos import for_repo
from cockpit.gates import gate_title


def library_ci_gate(ci: CIReport, name: str, repository: str) -> Gate:
    """``ci_green[name]``: the release's CI verdicts of ``repository`` (none configured: UNKNOWN)."""
    from cockpit.services.ci import ci_gate

    own = [v for v in ci.branches if v.repository == repository]
    rc = [v for v in ci.rc_builds if v.repository == repository]
    if not own and not rc:
        summary = f"no [[ci]] entry for {repository}: its CI is not judged"
        return for_repo(Gate("ci_green", gate_title("ci_green"), GateStatus.UNKNOWN, summary), name)
    return for_repo(ci_gate(own, rc), name)
