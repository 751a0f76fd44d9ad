"""Whether a release-branch PR may be merged from the cockpit, and every condition that fails.

The conditions: the PR is open and targets the release branch; its tracker request stands (parsed,
none of the flags that block a pick, no release manager's "do not merge"); it is approved (the
latest review of each reviewer; any "changes requested" blocks); GitHub sees no conflict; and every
required check of its head is green. Required checks are the base branch's protection when it can
be read, else every check of the head (the plan says which).
"""

from __future__ import annotations

from collections.abc import Sequence

from cockpit.domain.ci import CheckRun
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.merging import CheckVerdict, CommitStatus, MergePlan, Review
from cockpit.domain.picks import PickFlag, PickRow, PickStatus

# Flags that say the request must not be merged as it stands (stale only says it waited).
_REQUEST_BLOCKERS = frozenset(
    {
        PickFlag.TRUNK_NOT_MERGED,
        PickFlag.WRONG_BASE,
        PickFlag.TRUNK_REVERTED,
        PickFlag.MISSING_ISSUE_LINK,
        PickFlag.DUPLICATE,
        PickFlag.NO_RELEASE_PR,
        PickFlag.FREE_FORM,
        PickFlag.UNPARSED,
        PickFlag.COULD_NOT_READ,
        PickFlag.AFTER_DEADLINE,
        PickFlag.NO_QUALIFYING_LINK,
    }
)
# ``phase_2`` is not among them: a release manager who merges a phase 2 request that is no critical fix has
# decided to take it (the tracker's "special dispensation"); the flag keeps the picks gate red until then.
_REQUEST_HINTS_AGAINST = frozenset({"do not merge", "reverted", "closing", "closed"})
_GREEN = ("success", "skipped", "neutral")


def release_pull_number(row: PickRow, repository: str) -> int | None:
    """The one release PR of ``repository`` a request names, or None (none, or several: merge those by hand)."""
    refs = row.request.release_prs
    home = [r.number for r in refs if not r.repository or r.repository.casefold() == repository.casefold()]
    return home[0] if len(home) == 1 and len(refs) == 1 else None


def request_refusal(row: PickRow, repository: str) -> str | None:
    """Why the tracker request itself does not allow a merge (no network needed), or None."""
    number = release_pull_number(row, repository)
    if number is None:
        return "the request must name exactly one release PR of this repository to merge it from here"
    if row.status is PickStatus.ACCEPTED:
        return f"release PR #{number} is already merged"
    if row.status is PickStatus.REJECTED:
        return f"release PR #{number} was closed without merging (the request was rejected)"
    if row.status is not PickStatus.UNDER_REVIEW:
        return f"the request is {row.status.value.replace('_', ' ')}, not a request under review"
    flags = [f.value.replace("_", " ") for f in row.flags if f in _REQUEST_BLOCKERS]
    if flags:
        return f"the tracker request is not accepted: it is flagged {', '.join(flags)}"
    against = [h for h in row.request.hints if h in _REQUEST_HINTS_AGAINST]
    if against:
        return f"the tracker request is not accepted: a release manager wrote {against[0]!r} on it"
    return None


_CAUTIONS = {
    PickFlag.PHASE_2: "it was posted in phase 2 (after the cut-off) and is not a release-blocking critical fix",
    PickFlag.READ_FROM_PROSE: "its PRs were read from a sentence, and nobody confirmed that reading (v)",
}
"""What the tracker says against a request that does not block its merge, but that a release manager
should hear again before merging it (issue 32: a merge of a request still under review asks twice)."""


def tracker_caution(row: PickRow) -> str | None:
    """The second question before merging the release PR of ``row``: what the tracker says against
    the request, when it says something; None when the request stands as it is."""
    said = [words for flag, words in _CAUTIONS.items() if flag in row.flags]
    if row.status is not PickStatus.UNDER_REVIEW or not said:
        return None
    who = f"@{row.request.author}'s request" if row.request.author else "The request"
    lines = [f"{who} is still under review on the tracker, and:", *(f"  - {s}" for s in said)]
    return "\n".join([*lines, "", "Merging its release PR accepts the request anyway. Merge it?"])


def _approvals(reviews: Sequence[Review]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(approvers, those requesting changes): each reviewer's latest deciding review counts."""
    latest: dict[str, str] = {}
    for review in reviews:
        if review.state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
            latest[review.author] = review.state
    approved = tuple(a for a, s in latest.items() if s == "APPROVED")
    blocking = tuple(a for a, s in latest.items() if s == "CHANGES_REQUESTED")
    return approved, blocking


def _check_verdicts(
    runs: Sequence[CheckRun], statuses: Sequence[CommitStatus], required: tuple[str, ...] | None
) -> tuple[CheckVerdict, ...]:
    outcome: dict[str, str] = {}
    for run in runs:
        outcome[run.name] = run.conclusion if run.status == "completed" and run.conclusion else "pending"
    for status in statuses:
        outcome.setdefault(status.context, status.state)
    wanted = set(required) if required is not None else set(outcome)
    verdicts = [CheckVerdict(name, outcome.get(name, "missing"), name in wanted) for name in sorted(wanted)]
    verdicts += [CheckVerdict(name, state, False) for name, state in sorted(outcome.items()) if name not in wanted]
    return tuple(verdicts)


def merge_plan(
    row: PickRow,
    pull: PullRequest,
    *,
    repository: str,
    release_branch: str,
    method: str,
    reviews: Sequence[Review],
    runs: Sequence[CheckRun],
    statuses: Sequence[CommitStatus],
    required: tuple[str, ...] | None,
) -> MergePlan:
    """The merge of ``pull`` at its current head, with every failing condition named in ``problems``.

    ``required`` None (protection unreadable) or empty (it requires no check): every check is waited on.
    """
    required = required or None
    problems: list[str] = []
    if (why := request_refusal(row, repository)) is not None:
        problems.append(why)
    if pull.state is not PullState.OPEN:
        problems.append(f"#{pull.number} is {pull.state.value.replace('_', ' ')}, not open")
    if pull.base_ref != release_branch:
        problems.append(f"#{pull.number} targets {pull.base_ref}, not the release branch {release_branch}")
    if not pull.head_sha:
        problems.append(f"GitHub did not say which commit is the head of #{pull.number}")
    approved, blocking = _approvals(reviews)
    if blocking:
        problems.append(f"not approved: changes requested by {', '.join(blocking)}")
    elif not approved:
        problems.append("not approved: no approving review")
    if pull.mergeable is False:
        problems.append(f"#{pull.number} conflicts with {pull.base_ref} (GitHub says it is not mergeable)")
    checks = _check_verdicts(runs, statuses, required)
    red = [c for c in checks if c.required and not c.green]
    if required is None and not checks:
        problems.append("no check has run on its head")
    if red:
        named = ", ".join(f"{c.name} ({c.outcome})" for c in red[:5]) + (" …" if len(red) > 5 else "")
        problems.append(f"required checks not green: {named}")
    where = (
        f"branch protection of {release_branch}"
        if required is not None
        else f"every check (the protection of {release_branch} could not be read or requires none)"
    )
    return MergePlan(
        repository=repository,
        number=pull.number,
        title=pull.title,
        base=pull.base_ref,
        head_sha=pull.head_sha,
        method=method,
        approvals=approved,
        changes_requested=blocking,
        checks=checks,
        required_from=where,
        problems=tuple(problems),
    )


def plan_text(plan: MergePlan) -> str:
    """The confirmation: the request it sends (method, head sha) and what was judged."""
    required = [c for c in plan.checks if c.required]
    other_red = [c for c in plan.checks if not c.required and not c.green]
    lines = [
        f"PUT /repos/{plan.repository}/pulls/{plan.number}/merge "
        f'{{"sha": "{plan.head_sha}", "merge_method": "{plan.method}"}}',
        "",
        f"#{plan.number} {plan.title}",
        f"onto {plan.base} · merge method: {plan.method} · head {plan.head_sha[:12]} "
        "(GitHub refuses with 409 if anyone pushed since)",
        "approved by: "
        + (", ".join(plan.approvals) or "nobody")
        + (f" · changes requested by: {', '.join(plan.changes_requested)}" if plan.changes_requested else ""),
        f"required checks ({plan.required_from}): "
        + (f"{sum(c.green for c in required)} of {len(required)} green" if required else "none"),
        *(f"  ✘ {c.name}: {c.outcome}" for c in required if not c.green),
        *([f"other checks not green (not required): {', '.join(c.name for c in other_red[:5])}"] if other_red else []),
    ]
    if plan.problems:
        lines += ["", "Not mergeable:", *(f"  - {p}" for p in plan.problems)]
    return "\n".join(lines)
