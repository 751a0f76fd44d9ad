"""The checklist's evidence from other repositories: what was read, and the gates judged from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from cockpit.domain.gates import Gate
from cockpit.gates import family

EVIDENCE_GATES = {spec.name: spec.title for spec in family("evidence")}
"""The gates that judge checklist steps from evidence (``family="evidence"`` in ``cockpit.gates``), with
their titles, in the checklist's order.

The overview does not list them: it lists pane gates, and these reach it through the checklist gate
(each decides one checklist step)."""


@dataclass(frozen=True)
class RepoFile:
    """A file of a repository at a ref, as the contents API describes it.

    ``text``: its content as UTF-8 text, when the API sent it (base64, files up to 1 MB) and it decodes;
    None otherwise. Raw outside text: whoever reads it parses it as data, never shows it as it is.
    """

    repository: str
    path: str
    ref: str
    sha: str
    size: int
    html_url: str = ""
    text: str | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class EvidenceReport:
    """The evidence gates of one load, and what reading them cost.

    ``gates`` holds only the configured steps; ``manual`` names each step left to a signature with the
    config that would make it automatic.
    """

    gates: tuple[Gate, ...]
    manual: tuple[tuple[str, str], ...] = ()
    requests: int = 0  # GitHub requests this load sent (304s included)
    not_modified: int = 0  # of those, answered 304
    comment_reads: int = 0  # issues whose comments were read for the validation comments
