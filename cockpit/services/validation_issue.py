"""The release's validation issue as Markdown: a task list of the closed milestone issues and the
accepted cherry-picks, each ``- [ ] #N title``, every outside title made inert (``services.markdown``)."""

from __future__ import annotations

from collections.abc import Sequence

from cockpit.domain.github import ItemKind, ItemState, MilestoneItem, PullState
from cockpit.domain.picks import PickRow, PickStatus
from cockpit.services.markdown import cap_comment, md_code, md_text

# Closed as "not planned" or as a duplicate: nothing was fixed, so nothing to validate.
_NOTHING_FIXED = frozenset({"not_planned", "duplicate"})


def issues_to_validate(items: Sequence[MilestoneItem]) -> list[MilestoneItem]:
    """The milestone's closed issues whose fix must be validated, by number."""
    return sorted(
        (
            i
            for i in items
            if i.kind is ItemKind.ISSUE and i.state is ItemState.CLOSED and i.state_reason not in _NOTHING_FIXED
        ),
        key=lambda i: i.number,
    )


def accepted_picks(rows: Sequence[PickRow], repository: str) -> list[tuple[int, str]]:
    """(release PR number, title) of every accepted pick's merged release PR in ``repository``, once each."""
    found: dict[int, str] = {}
    for row in rows:
        if row.status is not PickStatus.ACCEPTED:
            continue
        for pr in row.pulls:
            home = not pr.repository or pr.repository.casefold() == repository.casefold()
            if home and pr.state is PullState.MERGED and any(r.number == pr.number for r in row.request.release_prs):
                found.setdefault(pr.number, pr.title)
    return sorted(found.items())


def validation_issue_body(
    *,
    version: str,
    branch: str,
    milestone_title: str,
    issues: Sequence[MilestoneItem],
    picks: Sequence[tuple[int, str]],
) -> str:
    """The issue's Markdown: what to validate, as two task lists (each line ``- [ ] #N title``)."""
    lines = [
        f"Validation of the {md_text(version)} release, branch {md_code(branch)}: tick each item once its fix "
        "is verified on the final release candidate.",
        "",
        f"## Closed issues of milestone {md_text(milestone_title)} ({len(issues)})",
        "",
        *([f"- [ ] #{i.number} {md_text(i.title)}" for i in issues] or ["_None._"]),
        "",
        f"## Accepted cherry-picks ({len(picks)})",
        "",
        *([f"- [ ] #{number} {md_text(title)}" for number, title in picks] or ["_None._"]),
        "",
    ]
    return cap_comment("\n".join(lines), whole="the milestone and cherry-pick panes")
