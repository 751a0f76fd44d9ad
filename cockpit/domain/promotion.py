"""Evidence the checklist reads for itself after the final RC: builds on the RC tag, staging, promotion."""

from __future__ import annotations

from dataclasses import dataclass

from cockpit.domain.ci import WorkflowRun


@dataclass(frozen=True)
class RCTagRuns:
    """The workflow runs of one repository on its final RC tag (``tag`` at commit ``sha``).

    ``error`` says why they could not be read; ``tag`` is "" when no RC tag was found at all.
    """

    repository: str
    tag: str
    sha: str = ""
    runs: tuple[WorkflowRun, ...] = ()
    error: str = ""
    where: str = ""  # how the tag was found: "the clone" or "push runs"
