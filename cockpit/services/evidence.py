"""Judging the checklist's evidence steps from what was read: the validation run, comments and issue, the docs.

Pure functions over domain data; each returns the step's gate with a one-line summary and the evidence
as details. The release-day steps (PRs, triton, Colab) are in ``evidence_release_day``.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from cockpit.domain.ci import CheckRun, WorkflowRun
from cockpit.domain.evidence import EVIDENCE_GATES, RepoFile
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import IssueComment, ItemKind, ItemState, MilestoneItem
from cockpit.domain.release import RC_NUMBER
from cockpit.domain.validation import is_validation_comment
from cockpit.services.title_forms import described, matches_form

_GOOD = ("success", "skipped", "neutral")
_TASK = re.compile(r"^\s*[-*+]\s+\[( |x|X)\]\s*(.*)$", re.MULTILINE)
NOT_TO_VALIDATE = ("not_planned", "duplicate")
"""Why an issue may be closed that leaves nothing to validate."""


def gate(name: str, status: GateStatus, summary: str, details: Sequence[str] = ()) -> Gate:
    """An evidence gate, titled from ``EVIDENCE_GATES``."""
    return Gate(name, EVIDENCE_GATES[name], status, summary, tuple(details))


def unknown(name: str, why: str) -> Gate:
    """The step's evidence could not be read: never green, the reason said."""
    return gate(name, GateStatus.UNKNOWN, f"evidence unreadable: {why}")


def title_matches(title: str, pattern: str) -> bool:
    """Case-insensitive glob match of a title (``*`` any text)."""
    return fnmatch.fnmatchcase(title.lower(), pattern.lower())


def final_rc(tags: Mapping[str, str], version: str) -> str | None:
    """The newest ``v{version}-rcN`` tag, or None before the first RC."""
    numbers = {
        int(m.group(1)): tag for tag in tags if (m := re.fullmatch(rf"v{re.escape(version)}-rc{RC_NUMBER}", tag))
    }
    return numbers[max(numbers)] if numbers else None


def validate_binaries_gate(
    runs: Sequence[WorkflowRun],
    jobs: Sequence[CheckRun],
    *,
    workflow: str,
    title: str,
    rc_tag: str | None,
    rc_tagged_at: datetime | None,
) -> Gate:
    """The newest run of the validation workflow whose display title matches ``title`` (``""``: the first
    of ``runs``, already found by event, ref and inputs: ``services.validate_runs``).

    Green: it succeeded and ran on the final RC (the RC tag named in its title, else started after
    the tag was made). Red: it failed (the failed matrix jobs named) or no run matches. Amber: still
    running, or it validated an earlier build than the final RC (a re-run is due).
    """
    name = "validate_binaries"
    run = next((r for r in runs if not title or title_matches(r.display_title or r.name, title)), None)
    if run is None:
        like = f" titled like {title!r}" if title else " dispatched for this release"
        return gate(name, GateStatus.RED, f"no run of {workflow}{like} among the {len(runs)} newest")
    details = [f"run {run.id}: {run.display_title or run.name} ({run.status}, {run.conclusion or 'no conclusion'})"]
    if run.html_url:
        details.append(run.html_url)
    failed = [j for j in jobs if j.status == "completed" and j.conclusion not in _GOOD]
    details += [f"failed: {j.name} ({j.conclusion})" for j in failed]
    on_rc, where = _ran_on(run, rc_tag, rc_tagged_at)
    details.append(where)
    if run.status != "completed":
        return gate(name, GateStatus.AMBER, f"run {run.id} still {run.status.replace('_', ' ')}", details)
    if run.conclusion not in _GOOD or failed:
        jobs_text = f"{len(failed)} of {len(jobs)} jobs failed" if failed else f"concluded {run.conclusion}"
        return gate(name, GateStatus.RED, f"run {run.id} {jobs_text}; {where}", details)
    if not on_rc:
        return gate(name, GateStatus.AMBER, f"run {run.id} passed but {where}: run it on the final RC", details)
    return gate(name, GateStatus.GREEN, f"run {run.id} passed, {len(jobs)} jobs; {where}", details)


def _ran_on(run: WorkflowRun, rc_tag: str | None, tagged_at: datetime | None) -> tuple[bool, str]:
    if rc_tag is None:
        return False, "no RC tag yet"
    if rc_tag.lower() in (run.display_title or "").lower():
        return True, f"ran on {rc_tag} (named in its title)"
    if tagged_at is not None and run.created_at is not None:
        if run.created_at >= tagged_at:
            return True, f"ran on {rc_tag} (started after the tag was made)"
        return False, f"started before {rc_tag} was tagged"
    return False, f"cannot tell whether it ran on {rc_tag}"


def issues_to_validate(items: Sequence[MilestoneItem], skip_labels: Sequence[str]) -> list[MilestoneItem]:
    """Closed milestone issues that need a validation comment (not those closed as not planned or duplicate)."""
    return [
        i
        for i in items
        if i.kind is ItemKind.ISSUE
        and i.state is ItemState.CLOSED
        and i.state_reason not in NOT_TO_VALIDATE
        and not set(i.labels) & set(skip_labels)
    ]


def validation_comments_gate(
    issues: Sequence[MilestoneItem],
    comments: Mapping[int, Sequence[IssueComment]],
    *,
    phrase: str,
    unread: int = 0,
    cost: tuple[int, int] | None = None,
) -> Gate:
    """Red while a closed issue lacks a comment carrying ``phrase`` (whoever wrote it); the ones lacking it listed.

    ``comments`` holds the issues read; ``unread`` closed issues beyond the configured bound make it unknown
    unless some read issue already lacks its comment; ``cost`` (requests, of which 304) is shown with it.
    """
    name = "validation_comments"
    lacking = [i for i in issues if i.number in comments and not _carries(comments[i.number], phrase)]
    details = [f"#{i.number} {i.title}: no comment says {phrase!r}" for i in lacking]
    if unread:
        details.append(f"{unread} closed issues not read (over [evidence.validation_comments] max_issues)")
    if cost is not None:  # one comments list per issue: what that cost, so a growing milestone shows
        details.append(f"comments of {len(comments)} closed issues read: {cost[0]} requests, {cost[1]} unchanged (304)")
    if lacking:
        numbers = ", ".join(f"#{i.number}" for i in lacking[:6]) + (" …" if len(lacking) > 6 else "")
        return gate(name, GateStatus.RED, f"{len(lacking)} of {len(issues)} closed issues lack it: {numbers}", details)
    if unread:
        return gate(name, GateStatus.UNKNOWN, f"{len(comments)} read carry it; {unread} not read", details)
    if not issues:
        return gate(name, GateStatus.GREEN, "no closed milestone issue to validate", details)
    return gate(name, GateStatus.GREEN, f"all {len(issues)} closed milestone issues carry it", details)


def _carries(comments: Sequence[IssueComment], phrase: str) -> bool:
    return any(is_validation_comment(c.body or "", phrase) for c in comments)


def task_items(body: str) -> tuple[list[str], list[str]]:
    """(open, done) items of a Markdown task list."""
    open_items: list[str] = []
    done: list[str] = []
    for mark, text in _TASK.findall(body or ""):
        (open_items if mark == " " else done).append(text.strip())
    return open_items, done


def validation_issue_gate(
    found: Sequence[MilestoneItem], *, repository: str, title: str | Sequence[str], version: str = ""
) -> Gate:
    """Red without an issue titled like ``title`` (one title form, or several: any one, for ``version``;
    ``services.title_forms``); amber while its task list has open items (the work is under way, nothing is
    wrong yet; go/no-go waits on it through the checklist); green when all are ticked."""
    name = "validation_issue"
    forms = (title,) if isinstance(title, str) else tuple(title)
    issue = max(
        (i for i in found if i.kind is ItemKind.ISSUE and matches_form(i.title, forms, version)),
        key=lambda i: i.number,
        default=None,
    )
    if issue is None:
        like = described(forms, version)
        return gate(name, GateStatus.RED, f"no issue in {repository} titled like {like}")
    open_items, done = task_items(issue.body)
    details = [f"#{issue.number} {issue.title} ({issue.state.value})", issue.html_url]
    details += [f"open: {text}" for text in open_items]
    total = len(open_items) + len(done)
    if not total:
        return gate(name, GateStatus.AMBER, f"#{issue.number} has no task list to work through", details)
    if open_items:
        return gate(name, GateStatus.AMBER, f"#{issue.number}: {len(open_items)} of {total} items open", details)
    return gate(name, GateStatus.GREEN, f"#{issue.number}: all {total} items done", details)


def docs_entry_gate(file: RepoFile | None, *, repository: str, path: str, ref: str) -> Gate:
    """Green when the docs repository holds the release's entry at ``path`` on ``ref``."""
    name = "docs_build_entry"
    if file is None:
        return gate(name, GateStatus.RED, f"{repository} has no {path} on {ref}")
    details = [f"{file.path} at {ref}: {file.size} bytes, blob {file.sha[:12]}"] + (
        [file.html_url] * bool(file.html_url)
    )
    return gate(name, GateStatus.GREEN, f"{repository} has {path} on {ref}", details)
