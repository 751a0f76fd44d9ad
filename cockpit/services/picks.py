"""The cherry-pick pane's answer: each request joined with the live state of its pull requests.

The tracker has no structured status; the release-branch PR's real state is the truth (open =
under review, merged = accepted, closed unmerged = rejected). Words appended by release managers
("merged", "DO NOT MERGE") are shown as notes, never trusted over that state.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.domain.reports import PicksReport
from cockpit.gates import gate_title
from cockpit.services.patch_picks import PatchRules, apply_patch_rules

GATE_NAME = "picks_clear"
GATE_TITLE = gate_title(GATE_NAME)

# On a settled (accepted) pick only these still need someone; a rejected pick needs no one.
_BLOCKING_WHEN_ACCEPTED = frozenset({PickFlag.TRUNK_REVERTED, PickFlag.TRUNK_NOT_MERGED, PickFlag.WRONG_BASE})
_NEEDS_ISSUE = re.compile(r"regression|critical|fix\s*new\s*feature", re.IGNORECASE)
# An unparsed comment that mentions a PR link or a template label is a request nobody can read yet;
# anything else (questions, announcements) is chatter: shown as unparsed, never blocking.
_LOOKS_LIKE_REQUEST = re.compile(
    r"/pulls?/\d|landed\s+(?:trunk|master|main)\s+pr|release\s+branch\s+pr|criteria\s+category", re.IGNORECASE
)
_SUBJECT_PR = re.compile(r"\(#(\d{1,9})\)")

PullLookup = Mapping["PRRef | int", PullRequest]


def needed_pull_numbers(requests: Iterable[PickRequest], repository: str) -> set[int]:
    """Numbers of this repository's trunk and release PRs the requests name: what the loader fetches."""
    return {ref.number for r in requests for ref in (*r.trunk_prs, *r.release_prs) if _is_home(ref, repository)}


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


def analyze_picks(
    requests: Sequence[PickRequest],
    *,
    pulls: PullLookup,
    release_branch: str,
    repository: str,
    reverted_trunk_prs: Collection[int] = frozenset(),
    branch_pr_numbers: Collection[int] = frozenset(),
    unreadable_pulls: Mapping[int | PRRef, str] | None = None,
    now: datetime,
    stale_days: float = 7.0,
    library_branches: Mapping[str, str] | None = None,
) -> tuple[tuple[PickRow, ...], tuple[PullRequest, ...]]:
    """Rows (one per comment, in order) and the PRs merged into the branch that no request names.

    ``pulls`` maps ``PRRef`` or plain numbers (this repository) to the loaded PRs; a PR missing
    from it is reported in the row's notes, never guessed. ``unreadable_pulls`` maps this
    repository's PR numbers that failed to load to the error: their requests are flagged
    ``could_not_read`` with it (a domain library's PRs are keyed by their ``PRRef``). ``now`` is
    injected for ages. ``library_branches``: each domain library's ``owner/name`` -> its release
    branch, which that library's release PRs must target.
    """
    now = _aware(now)
    rows: list[PickRow] = []
    first_request: dict[int, PickRow] = {}
    failed = dict(unreadable_pulls or {})
    branches = {name.casefold(): branch for name, branch in (library_branches or {}).items()}
    for request in requests:
        row = _row(
            request, pulls, release_branch, repository, set(reverted_trunk_prs), now, stale_days, failed, branches
        )
        row = _mark_duplicate(row, first_request, repository)
        rows.append(row)
    named = {
        ref.number
        for r in requests
        for ref in (*r.trunk_prs, *r.release_prs, *r.mentioned_prs)
        if _is_home(ref, repository)
    }
    unrequested = tuple(
        _lookup(pulls, PRRef(n), repository) or _placeholder(n, release_branch)
        for n in sorted(set(branch_pr_numbers) - named)
    )
    return tuple(rows), unrequested


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
    library_branches: Mapping[str, str] | None = None,
) -> PicksReport:
    """``analyze_picks`` and ``picks_gate`` together, as the pane's report.

    ``unread`` says, in words, what could not be read for all requests at once (the branch history
    behind the reverted-trunk flags and the unrequested merges): it keeps the gate from GREEN.
    ``patch_rules`` (a patch release) adds ``after_deadline`` and ``no_qualifying_link``.
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
    )
    if patch_rules is not None:
        rows = apply_patch_rules(rows, patch_rules, repository)
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


def looks_like_request(request: PickRequest) -> bool:
    """Whether an unparsed comment still looks like a request (a PR link or a template label).

    A comment the parser recognised as no request (a reply, a question, a quoted template) does not.
    """
    if request.not_a_request:
        return False
    return bool(_LOOKS_LIKE_REQUEST.search(request.body[:100_000]))


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


def _row(
    req: PickRequest,
    pulls: PullLookup,
    branch: str,
    repository: str,
    reverted: set[int],
    now: datetime,
    stale_days: float,
    failed: Mapping[int | PRRef, str],
    library_branches: Mapping[str, str],
) -> PickRow:
    age = _days(now, req.created_at)
    if not req.parsed:
        return PickRow(req, PickStatus.UNPARSED, (PickFlag.UNPARSED,), age, notes=(_unparsed_note(req),))
    notes: list[str] = []
    if req.free_form:
        req, notes = _place_mentioned(req, pulls, branch, repository)
        if not (req.trunk_prs or req.release_prs or req.trunk_na):
            loaded = tuple(p for p in (_lookup(pulls, ref, repository) for ref in req.mentioned_prs) if p is not None)
            return PickRow(req, PickStatus.FREE_FORM, (PickFlag.FREE_FORM,), age, notes=tuple(notes), pulls=loaded)
    flags: list[PickFlag] = []

    release = []
    for ref in req.release_prs:
        pr = _lookup(pulls, ref, repository)
        if pr is None:
            notes.append(_not_loaded("release", ref, repository, failed, flags))
            continue
        release.append(pr)
        if _is_home(ref, repository) and pr.state is not PullState.CLOSED_UNMERGED and pr.base_ref != branch:
            flags.append(PickFlag.WRONG_BASE)
            notes.append(f"release PR {ref.label(repository)} targets {pr.base_ref}, not {branch}")
        elif (own := library_branches.get(ref.repository.casefold())) and _aimed_elsewhere(pr, own):
            flags.append(PickFlag.WRONG_BASE)
            notes.append(f"release PR {ref.label(repository)} targets {pr.base_ref}, not {ref.repository}'s {own}")
    status = _status(req, release)
    if status is PickStatus.NO_RELEASE_PR:
        flags.append(PickFlag.NO_RELEASE_PR)

    trunk = []
    if not req.trunk_na:
        for ref in req.trunk_prs:
            pr = _lookup(pulls, ref, repository)
            if pr is None:
                notes.append(_not_loaded("trunk", ref, repository, failed, flags))
            else:
                trunk.append(pr)
            if pr is not None and pr.state is not PullState.MERGED:
                flags.append(PickFlag.TRUNK_NOT_MERGED)
                notes.append(f"trunk PR {ref.label(repository)} is {pr.state.value.replace('_', ' ')}")
            if _is_home(ref, repository) and ref.number in reverted:
                flags.append(PickFlag.TRUNK_REVERTED)
                notes.append(f"trunk PR {ref.label(repository)} was reverted on main: revert the pick too")

    if _NEEDS_ISSUE.search(req.category) and not req.fixes:
        flags.append(PickFlag.MISSING_ISSUE_LINK)
    release_age = max((a for a in (_days(now, p.created_at) for p in release) if a is not None), default=None)
    pending_age = age if age is not None else release_age
    waiting = status in (PickStatus.UNDER_REVIEW, PickStatus.NO_RELEASE_PR)
    if waiting and pending_age is not None and pending_age > stale_days:
        flags.append(PickFlag.STALE)
    notes += _hint_notes(req, status)
    loaded = tuple(dict.fromkeys((*release, *trunk)))
    return PickRow(req, status, tuple(dict.fromkeys(flags)), age, release_age, tuple(notes), loaded)


def _aimed_elsewhere(pr: PullRequest, branch: str) -> bool:
    return pr.state is not PullState.CLOSED_UNMERGED and pr.base_ref != branch


def _not_loaded(
    kind: str, ref: PRRef, repository: str, failed: Mapping[int | PRRef, str], flags: list[PickFlag]
) -> str:
    """The note for a PR that is not loaded; one that failed to load also flags the row."""
    error = failed.get(ref.number) if _is_home(ref, repository) else failed.get(ref)
    if error is None:
        return f"{kind} PR {ref.label(repository)} not loaded"
    flags.append(PickFlag.COULD_NOT_READ)
    return f"{kind} PR {ref.label(repository)} could not be read: {error}"


def _unparsed_note(req: PickRequest) -> str:
    if req.not_a_request:
        return "a reply, question, quoted template or bot message: not a request"
    return "template not found: read it yourself" if looks_like_request(req) else "no request template (chatter?)"


def _place_mentioned(
    req: PickRequest, pulls: PullLookup, branch: str, repository: str
) -> tuple[PickRequest, list[str]]:
    """A free-form request's mentioned PRs that target the release branch are its release PRs."""
    onto_branch = tuple(
        ref
        for ref in req.mentioned_prs
        if (pr := _lookup(pulls, ref, repository)) is not None and pr.base_ref == branch
    )
    rest = tuple(ref for ref in req.mentioned_prs if ref not in onto_branch)
    notes = [
        f"free-form: {ref.label(repository)} targets {branch}, so it is taken as a release PR" for ref in onto_branch
    ]
    if req.trunk_prs or req.release_prs or onto_branch:
        notes.insert(0, "free-form request: roles read from its words; check them in the comment")
    if rest:
        mentioned = " ".join(r.label(repository) for r in rest)
        notes.append(f"free-form: mentions {mentioned} without saying whether trunk or release PR: read it yourself")
    return replace(req, release_prs=(*req.release_prs, *onto_branch), mentioned_prs=rest), notes


def _status(req: PickRequest, release: list[PullRequest]) -> PickStatus:
    if not req.release_prs:
        return PickStatus.NO_RELEASE_PR
    states = {p.state for p in release}
    if PullState.OPEN in states or not release:
        return PickStatus.UNDER_REVIEW  # an unloaded release PR is pending, not absent
    if PullState.MERGED in states:
        return PickStatus.ACCEPTED
    return PickStatus.REJECTED


def _mark_duplicate(row: PickRow, first: dict[int, PickRow], repository: str) -> PickRow:
    """Flag a request for a trunk PR an earlier request already asked for, unless that one was rejected."""
    if not row.request.parsed or row.request.trunk_na:
        return row
    earlier = []
    for ref in row.request.trunk_prs:
        if not _is_home(ref, repository):
            continue
        prior = first.get(ref.number)
        if prior is not None and prior.status is not PickStatus.REJECTED:
            earlier.append(f"trunk {ref.label(repository)} already requested in comment {prior.request.comment_id}")
        first[ref.number] = prior if prior is not None and prior.status is not PickStatus.REJECTED else row
    if not earlier:
        return row
    return replace(row, flags=(*row.flags, PickFlag.DUPLICATE), notes=(*row.notes, *earlier))


def _hint_notes(req: PickRequest, status: PickStatus) -> list[str]:
    notes = []
    if "merged" in req.hints and status is not PickStatus.ACCEPTED:
        notes.append(f"comment says merged, but the pick is {status.value.replace('_', ' ')}")
    if "do not merge" in req.hints and status is PickStatus.UNDER_REVIEW:
        notes.append("comment says DO NOT MERGE")
    if "reverted" in req.hints:
        notes.append("comment says reverted")
    return notes


def _lookup(pulls: PullLookup, ref: PRRef, repository: str) -> PullRequest | None:
    for key in (ref, PRRef(ref.number, repository) if not ref.repository else None):
        if key is not None and key in pulls:
            return pulls[key]
    if _is_home(ref, repository):
        return pulls.get(ref.number) or pulls.get(PRRef(ref.number))
    return None


def _is_home(ref: PRRef, repository: str) -> bool:
    return not ref.repository or ref.repository.casefold() == repository.casefold()


def _placeholder(number: int, branch: str) -> PullRequest:
    return PullRequest(number, "(not loaded)", PullState.MERGED, branch, "", "")


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _days(now: datetime, then: datetime | None) -> float | None:
    return None if then is None else (now - _aware(then)).total_seconds() / 86400


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
