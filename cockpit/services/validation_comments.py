"""Which closed milestone issues get the validation comment, and why the others are skipped.

An issue is skipped when it already carries a validation comment (recognised by the phrase,
whoever wrote it, or recorded in the state file), when it was closed without a fix (not planned,
duplicate), or when the branch diff says its fix is not in the release branch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cockpit.domain.commits import ItemDiff, Verdict
from cockpit.domain.github import IssueComment, ItemKind, ItemState, MilestoneItem
from cockpit.domain.validation import is_validation_comment
from cockpit.domain.validation_posts import CommentPlan, CommentStep

_NOTHING_FIXED = {"not_planned": "closed as not planned", "duplicate": "closed as a duplicate"}
_NOT_IN_BRANCH = {Verdict.MISSING: "is missing from", Verdict.NEEDS_REVIEW: "has no commit found in"}


def closed_issues(items: Sequence[MilestoneItem]) -> list[MilestoneItem]:
    """The milestone's closed issues (not pull requests), by number."""
    closed = (i for i in items if i.kind is ItemKind.ISSUE and i.state is ItemState.CLOSED)
    return sorted(closed, key=lambda i: i.number)


def earlier_validation(comments: Sequence[IssueComment], phrase: str) -> IssueComment | None:
    """The first comment that is a validation comment (contains ``phrase``), or None."""
    return next((c for c in comments if is_validation_comment(c.body, phrase)), None)


def comment_plan(
    *,
    repository: str,
    branch: str,
    text: str,
    phrase: str,
    issues: Sequence[MilestoneItem],
    comments: Mapping[int, Sequence[IssueComment]],
    recorded: Mapping[int, object],
    diff: Sequence[ItemDiff],
) -> CommentPlan:
    """The plan over ``issues`` (closed ones): ``comments`` read per issue, ``recorded`` the ledger's
    entries per issue, ``diff`` the branch diff's items."""
    verdicts = {d.number: d.verdict for d in diff}
    steps = []
    for item in closed_issues(issues):
        reason = ""
        earlier = earlier_validation(comments.get(item.number, ()), phrase)
        if item.state_reason in _NOTHING_FIXED:
            reason = f"{_NOTHING_FIXED[item.state_reason]}: nothing to validate"
        elif earlier is not None:
            reason = f"already has a validation comment (by {earlier.author or 'someone'})"
        elif item.number in recorded:
            reason = f"already has a validation comment (comment {recorded[item.number]}, in the state file)"
        elif verdicts.get(item.number) in _NOT_IN_BRANCH:
            reason = f"its fix {_NOT_IN_BRANCH[verdicts[item.number]]} {branch} (branch diff)"
        steps.append(CommentStep(item.number, item.title, post=not reason, reason=reason))
    return CommentPlan(repository=repository, text=text, steps=tuple(steps))


def comment_plan_text(plan: CommentPlan) -> str:
    """The preview: the comment, each request it sends, and each issue it skips with why."""
    posts, skips = plan.to_post, [s for s in plan.steps if not s.post]
    lines = [
        f"Post {plan.text!r} on {len(posts)} closed milestone issue(s); skip {len(skips)}.",
        "Before each POST the issue's comments are read again; one found meanwhile is not posted twice.",
        "",
        *(
            line
            for s in posts
            for line in (
                f"#{s.number} {s.title}",
                f"  GET /repos/{plan.repository}/issues/{s.number}/comments",
                f"  POST /repos/{plan.repository}/issues/{s.number}/comments",
            )
        ),
        *([""] if skips else []),
        *(f"skip #{s.number} {s.title}: {s.reason}" for s in skips),
    ]
    return "\n".join(lines)
