"""One release over several repositories: each domain library's own reports and gates.

The core keeps the gates it always had (``milestone_empty``, ``branch_diff_clean`` ...); each
domain library of ``[[repo]]`` adds the same gates under its name (``branch_diff_clean[vision]``),
and the release's verdict is the worst of them all.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cockpit.domain.gates import Gate
from cockpit.domain.reports import BranchReport, MilestoneReport, PicksReport
from cockpit.domain.reports import RepoReport as RepoReport  # its home is reports; kept importable here
from cockpit.gates import of_libraries, registry

REPO_GATES = tuple(spec.name for spec in of_libraries())
"""The gates a domain library may answer on its own (each declared with ``library=`` in
``cockpit.gates``), in the order the overview lists them; ``library_gates`` says which a library does."""


def library_gates(name: str, *, packages: bool, core_pins: bool) -> tuple[str, ...]:
    """The gate names a library of the release answers, as its config sets it up (``rc_artifacts``
    only with packages, ``versions_coherent`` only with packages or core pins: each gate's ``library``)."""
    wanted = [
        s.name for s in of_libraries() if s.library is not None and s.library(packages=packages, core_pins=core_pins)
    ]
    return tuple(repo_gate_name(g, name) for g in wanted)


def repo_gate_name(gate: str, repo: str) -> str:
    """``branch_diff_clean[vision]``: a gate of one repository of the release."""
    return f"{gate}[{repo}]"


def split_gate_name(name: str) -> tuple[str, str]:
    """``("branch_diff_clean", "vision")`` from ``branch_diff_clean[vision]``; the core's gates give ``""``."""
    if name.endswith("]") and "[" in name:
        gate, _, repo = name[:-1].partition("[")
        return gate, repo
    return name, ""


def repo_gate_title(name: str) -> str:
    """The title of a gate by name, a library's too (``Branch diff clean [vision]``); "" when unknown."""
    gate, repo = split_gate_name(name)
    spec = registry().get(gate)
    title = spec.title if spec else ""
    return f"{title} [{repo}]" if title and repo else title


def for_repo(gate: Gate, repo: str) -> Gate:
    """``gate`` renamed and titled as ``repo``'s (``Branch diff clean [vision]``)."""
    spec = registry().get(gate.name)
    title = spec.title if spec else gate.title
    return Gate(repo_gate_name(gate.name, repo), f"{title} [{repo}]", gate.status, gate.summary, gate.details)


def of_repository(report: Any, repository: str) -> Any:
    """A domain library's milestone, picks or branch report with each row marked as ``repository``'s,
    so that an action given the row knows which repository it belongs to (a report of another kind
    is returned as it is)."""
    if isinstance(report, MilestoneReport):
        return replace(
            report,
            items=tuple(replace(i, repository=repository) for i in report.items),
            skipped=tuple(replace(i, repository=repository) for i in report.skipped),
        )
    if isinstance(report, PicksReport):
        return replace(report, rows=tuple(replace(r, repository=repository) for r in report.rows))
    if isinstance(report, BranchReport):
        diff = report.diff
        diff = replace(
            diff,
            items=tuple(replace(i, repository=repository) for i in diff.items),
            reverts_to_propagate=tuple(replace(r, repository=repository) for r in diff.reverts_to_propagate),
        )
        return replace(report, diff=diff)
    return report


def row_repository(target: Any, home: str) -> str:
    """``owner/name`` of the repository a row's object belongs to: its own (a domain library's item,
    pick or revert carries it), else ``home``, the session's own repository."""
    return getattr(target, "repository", "") or home


def elsewhere(target: Any, home: str, title: str) -> str | None:
    """Why action ``title``, which acts on ``home`` only, refuses a row of another repository; None
    for a row of ``home``. A domain library's ``#8190`` is never acted on as the core's ``#8190``."""
    theirs = row_repository(target, home)
    if theirs.casefold() == home.casefold():
        return None
    return f"{title} acts on {home} only; this row is {theirs}: do it in {theirs} itself"
