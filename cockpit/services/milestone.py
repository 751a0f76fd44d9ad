"""The milestone pane's answer: which items are still open, and the "Milestone empty" gate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, Milestone, MilestoneItem
from cockpit.domain.reports import MilestoneReport
from cockpit.gates import gate_title

GATE_NAME = "milestone_empty"
GATE_TITLE = gate_title(GATE_NAME)

_KIND_WORD = {ItemKind.PULL: "PR", ItemKind.ISSUE: "issue"}


def summarize_milestone(
    milestone: Milestone,
    items: Sequence[MilestoneItem],
    *,
    skip_labels: Sequence[str] = ("release-feature-request",),
) -> MilestoneReport:
    """Split ``items`` into counted and skipped (by label) and judge whether the milestone is empty.

    GREEN when no counted item is open; RED otherwise, with one detail line per open item such as
    ``#91234 Fix foo (PR, open)``. Skipped items are named apart in the summary, never in the details.
    """
    skip = {label.casefold() for label in skip_labels}
    kept: list[MilestoneItem] = []
    skipped: list[MilestoneItem] = []
    for item in items:
        if any(label.casefold() in skip for label in item.labels):
            skipped.append(item)
        else:
            kept.append(item)
    gate = milestone_gate(kept)
    if skipped:
        labels = sorted({lbl for i in skipped for lbl in i.labels if lbl.casefold() in skip}, key=str.casefold)
        gate = replace(gate, summary=f"{gate.summary}; {_count(len(skipped), 'item')} skipped ({', '.join(labels)})")
    return MilestoneReport(milestone=milestone, items=tuple(kept), skipped=tuple(skipped), gate=gate)


def milestone_gate(items: Sequence[MilestoneItem]) -> Gate:
    """The ``milestone_empty`` gate over already-filtered items."""
    still_open = [i for i in items if i.state.is_open]
    if not still_open:
        closed = len(items)
        return Gate(
            name=GATE_NAME,
            title=GATE_TITLE,
            status=GateStatus.GREEN,
            summary=f"no open items ({_count(closed, 'closed item')})",
        )
    pulls = sum(1 for i in still_open if i.kind is ItemKind.PULL)
    issues = len(still_open) - pulls
    parts = []
    if issues:
        parts.append(_count(issues, "issue"))
    if pulls:
        parts.append(_count(pulls, "PR"))
    return Gate(
        name=GATE_NAME,
        title=GATE_TITLE,
        status=GateStatus.RED,
        summary=f"{len(still_open)} still open: " + ", ".join(parts),
        details=tuple(describe_item(i) for i in sorted(still_open, key=lambda i: i.number)),
    )


def describe_item(item: MilestoneItem) -> str:
    """One line for a milestone item: ``#91234 Fix foo (PR, open)``."""
    state = item.state.value.replace("_", " ")
    return f"#{item.number} {item.title} ({_KIND_WORD.get(item.kind, item.kind.value)}, {state})"


def filter_items(
    items: Sequence[MilestoneItem],
    *,
    open_only: bool = False,
    kind: ItemKind | str | None = None,
    label: str | None = None,
) -> tuple[MilestoneItem, ...]:
    """The items the milestone pane shows under its filters; ``label`` matches case-insensitively."""
    wanted_kind = ItemKind(kind) if kind is not None else None
    wanted_label = label.casefold() if label else None
    out = []
    for item in items:
        if open_only and not item.state.is_open:
            continue
        if wanted_kind is not None and item.kind is not wanted_kind:
            continue
        if wanted_label is not None and wanted_label not in (lbl.casefold() for lbl in item.labels):
            continue
        out.append(item)
    return tuple(out)


def linked_prs(items: Sequence[MilestoneItem]) -> dict[int, tuple[int, ...]]:
    """Per item, the numbers linked to it: what a PR's body mentions; for an issue, the PRs of
    ``items`` whose body mentions it (``Fixes #N``)."""
    mentioned_by: dict[int, list[int]] = {}
    for item in items:
        if item.kind is ItemKind.PULL:
            for number in item.linked_prs:
                mentioned_by.setdefault(number, []).append(item.number)
    return {
        i.number: i.linked_prs if i.kind is ItemKind.PULL else tuple(sorted(set(mentioned_by.get(i.number, ()))))
        for i in items
    }


def labels_present(items: Sequence[MilestoneItem]) -> tuple[str, ...]:
    """Every label of ``items`` once (case-insensitively), sorted: what the label filter cycles through."""
    seen: dict[str, str] = {}
    for item in items:
        for label in item.labels:
            seen.setdefault(label.casefold(), label)
    return tuple(seen[k] for k in sorted(seen))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def validation_key(repository: str, number: int) -> str:
    """The state file's ledger key recording the validation comment of ``repository#number``."""
    return f"{repository}#{number}:validation"
