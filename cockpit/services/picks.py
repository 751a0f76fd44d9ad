"""The cherry-pick pane's answer: the rows of ``pick_rows`` (each request joined with the live state
of its pull requests), the merges no request names, and the ``picks_clear`` gate over them.

Also what the loader must fetch for that: the PRs the requests name, and the branch's PR numbers.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import PullRequest
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef, ReadingConfirmation
from cockpit.domain.reports import PicksReport
from cockpit.gates import gate_title
from cockpit.services.patch_picks import PatchRules, apply_patch_rules
from cockpit.services.phase_picks import PhaseCutoff, apply_phase_rules
from cockpit.services.pick_rows import PullLookup, analyze_picks, is_home, looks_like_request

GATE_NAME = "picks_clear"
GATE_TITLE = gate_title(GATE_NAME)

# On a settled (accepted) pick only these still need someone; a rejected pick needs no one.
_BLOCKING_WHEN_ACCEPTED = frozenset({PickFlag.TRUNK_REVERTED, PickFlag.TRUNK_NOT_MERGED, PickFlag.WRONG_BASE})
_SUBJECT_PR = re.compile(r"\(#(\d{1,9})\)")


def needed_pull_numbers(requests: Iterable[PickRequest], repository: str) -> set[int]:
    """Numbers of this repository's PRs the requests name (trunk, release, and the mentioned ones a
    free-form request's roles are decided by): what the loader fetches."""
    return {
        ref.number
        for r in requests
        for ref in (*r.trunk_prs, *r.release_prs, *r.mentioned_prs)
        if is_home(ref, repository)
    }


def mentioned_pull_numbers(requests: Iterable[PickRequest], repository: str) -> set[int]:
    """This repository's PRs that free-form requests name without a role: their base branch decides
    it, so the loader reads them one by one (a milestone item does not say its base)."""
    return {ref.number for r in requests for ref in r.mentioned_prs if is_home(ref, repository)}


def needed_library_pulls(requests: Iterable[PickRequest], libraries: Collection[str]) -> set[PRRef]:
    """The trunk and release PRs of the release's domain libraries (``libraries``: their ``owner/name``)
    that the core's requests name, as written: what the loader fetches from those repositories."""
    wanted = {name.casefold() for name in libraries}
    return {
        ref
        for r in requests
        for ref in (*r.trunk_prs, *r.release_prs)
        if ref.repository and ref.repository.casefold() in wanted
    }


def pr_numbers_in_subjects(subjects: Iterable[str]) -> set[int]:
    """Every ``(#N)`` of commit subjects (``Title (#N) (#M)`` gives both): the branch's PR numbers."""
    return {int(n) for s in subjects for n in _SUBJECT_PR.findall(s)}


def picks_report(
    requests: Sequence[PickRequest],
    *,
    tracker_issue: int,
    tracker_title: str,
    pulls: PullLookup,
    release_branch: str,
    repository: str,
    reverted_trunk_prs: Collection[int] = frozenset(),
    branch_pr_numbers: Collection[int] = frozenset(),
    unreadable_pulls: Mapping[int | PRRef, str] | None = None,
    unread: Sequence[str] = (),
    now: datetime,
    stale_days: float = 7.0,
    patch_rules: PatchRules | None = None,
    phase_cutoff: PhaseCutoff | None = None,
    library_branches: Mapping[str, str] | None = None,
    trunk_branch: str = "",
    confirmations: Mapping[int, ReadingConfirmation] | None = None,
) -> PicksReport:
    """``analyze_picks`` and ``picks_gate`` together, as the pane's report.

    ``unread`` says, in words, what could not be read for all requests at once (the branch history
    behind the reverted-trunk flags and the unrequested merges): it keeps the gate from GREEN.
    ``patch_rules`` (a patch release) adds ``after_deadline`` and ``no_qualifying_link``; ``phase_cutoff``
    (a minor release) adds ``phase_2``.
    ``trunk_branch`` and ``confirmations``: see ``analyze_picks``.
    """
    rows, unrequested = analyze_picks(
        requests,
        pulls=pulls,
        release_branch=release_branch,
        repository=repository,
        reverted_trunk_prs=reverted_trunk_prs,
        branch_pr_numbers=branch_pr_numbers,
        unreadable_pulls=unreadable_pulls,
        now=now,
        stale_days=stale_days,
        library_branches=library_branches,
        trunk_branch=trunk_branch,
        confirmations=confirmations,
    )
    if patch_rules is not None:
        rows = apply_patch_rules(rows, patch_rules, repository)
    if phase_cutoff is not None:
        rows = apply_phase_rules(rows, phase_cutoff)
    gate = picks_gate(rows, unrequested, unread)
    return PicksReport(tracker_issue, tracker_title, rows, unrequested, gate, unread=tuple(unread))


def blocking_flags(row: PickRow) -> tuple[PickFlag, ...]:
    """The flags that turn the gate red: all of a pending row's, few of a settled one's.

    ``could_not_read`` is not among them: it says the row's flags are not known (see ``unknown``).
    """
    if row.status is PickStatus.REJECTED:
        return ()
    if row.status is PickStatus.UNPARSED and not looks_like_request(row.request):
        return ()
    if row.status is PickStatus.ACCEPTED:
        return tuple(f for f in row.flags if f in _BLOCKING_WHEN_ACCEPTED)
    return tuple(f for f in row.flags if f is not PickFlag.COULD_NOT_READ)


def unknown(row: PickRow) -> bool:
    """Whether a PR of this request failed to load, so its flags cannot be known (a rejected
    request, decided by its release PR's own state, needs nothing more)."""
    return PickFlag.COULD_NOT_READ in row.flags and row.status is not PickStatus.REJECTED


def picks_gate(rows: Sequence[PickRow], unrequested: Sequence[PullRequest], unread: Sequence[str] = ()) -> Gate:
    """``picks_clear``: RED on any blocking flag or unrequested merge; else UNKNOWN while a request's
    PR or the branch history (``unread``) could not be read; AMBER while picks are under review;
    GREEN otherwise. Unparsed comments that do not look like requests (chatter) are listed in the
    rows with the ``unparsed`` flag but do not block (see ``blocking_flags``).
    """
    flagged = [r for r in rows if blocking_flags(r)]
    not_known = [r for r in rows if unknown(r)]
    reviewing = [r for r in rows if not blocking_flags(r) and not unknown(r) and r.status is PickStatus.UNDER_REVIEW]
    accepted = sum(1 for r in rows if r.status is PickStatus.ACCEPTED)
    rejected = sum(1 for r in rows if r.status is PickStatus.REJECTED)
    details = [f"{row_label(r)}: {', '.join(f.value.replace('_', ' ') for f in blocking_flags(r))}" for r in flagged]
    details += [f"{row_label(r)}: {_unread_note(r)}" for r in not_known]
    details += [f"{row_label(r)}: under review" for r in reviewing]
    details += [f"#{p.number} {p.title} merged into the branch without a request" for p in unrequested]
    details += list(unread)
    cannot_tell = [_count(len(not_known), "request")] if not_known else []
    cannot_tell += ["the branch history"] if unread else []
    if flagged or unrequested:
        status = GateStatus.RED
        parts = [_count(len(flagged), "flagged request")] if flagged else []
        if unrequested:
            parts.append(_count(len(unrequested), "unrequested merge"))
        if reviewing:
            parts.append(f"{len(reviewing)} under review")
        if cannot_tell:
            parts.append(f"could not read {' and '.join(cannot_tell)}")
        summary = ", ".join(parts)
    elif cannot_tell:
        first = _unread_note(not_known[0]) if not_known else unread[0]
        status, summary = GateStatus.UNKNOWN, f"could not read {' and '.join(cannot_tell)}: {first}"
    elif reviewing:
        status, summary = GateStatus.AMBER, f"{_count(len(reviewing), 'pick')} under review"
    else:
        status, summary = GateStatus.GREEN, f"no pending cherry-picks ({accepted} accepted, {rejected} rejected)"
    return Gate(GATE_NAME, GATE_TITLE, status, summary, tuple(details))


def _unread_note(row: PickRow) -> str:
    return next((n for n in row.notes if " could not be read: " in n), "a PR it names could not be read")


def row_label(row: PickRow, repository: str = "") -> str:
    """How a row is named in words: its release PRs, else its trunk PRs, else its comment."""
    req = row.request
    if req.release_prs:
        return " ".join(r.label(repository) for r in req.release_prs)
    if req.trunk_prs:
        return "trunk " + " ".join(r.label(repository) for r in req.trunk_prs)
    if req.mentioned_prs:
        return "free-form " + " ".join(r.label(repository) for r in req.mentioned_prs)
    return f"comment {req.comment_id} by {req.author or 'unknown'}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
