"""Each cherry-pick request joined with the live state of its pull requests: its status, flags and notes.

The tracker has no structured status; the release-branch PR's real state is the truth (open =
under review, merged = accepted, closed unmerged = rejected). Words appended by release managers
("merged", "DO NOT MERGE") are shown as notes, never trusted over that state. The gate over these
rows is ``services/picks.py``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef, ReadingConfirmation
from cockpit.domain.stamps import aware
from cockpit.services.pick_readings import with_prose_marked

_NEEDS_ISSUE = re.compile(r"regression|critical|fix\s*new\s*feature", re.IGNORECASE)
# An unparsed comment that mentions a PR link or a template label is a request nobody can read yet;
# anything else (questions, announcements) is chatter: shown as unparsed, never blocking.
_LOOKS_LIKE_REQUEST = re.compile(
    r"/pulls?/\d|landed\s+(?:trunk|master|main)\s+pr|release\s+branch\s+pr|criteria\s+category", re.IGNORECASE
)

PullLookup = Mapping["PRRef | int", PullRequest]


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
    trunk_branch: str = "",
    confirmations: Mapping[int, ReadingConfirmation] | None = None,
) -> tuple[tuple[PickRow, ...], tuple[PullRequest, ...]]:
    """Rows (one per comment, in order) and the PRs merged into the branch that no request names.

    ``pulls`` maps ``PRRef`` or plain numbers (this repository) to the loaded PRs; a PR missing
    from it is reported in the row's notes, never guessed. ``unreadable_pulls`` maps this
    repository's PR numbers that failed to load to the error: their requests are flagged
    ``could_not_read`` with it (a domain library's PRs are keyed by their ``PRRef``). ``now`` is
    injected for ages. ``library_branches``: each domain library's ``owner/name`` -> its release
    branch, which that library's release PRs must target. ``trunk_branch`` (this repository's trunk):
    a free-form request's PR whose role no word told is its trunk PR when it targets the trunk.
    ``confirmations``: the release manager's confirmed readings of prose requests, by comment id.
    """
    now = aware(now)
    rows: list[PickRow] = []
    first_request: dict[int, PickRow] = {}
    failed = dict(unreadable_pulls or {})
    branches = {name.casefold(): branch for name, branch in (library_branches or {}).items()}
    for request in requests:
        row = _row(
            request,
            pulls,
            (release_branch, trunk_branch),
            repository,
            set(reverted_trunk_prs),
            now,
            stale_days,
            failed,
            branches,
        )
        row = with_prose_marked(row, repository, confirmations or {})
        row = _mark_duplicate(row, first_request, repository)
        rows.append(row)
    named = {
        ref.number
        for r in requests
        for ref in (*r.trunk_prs, *r.release_prs, *r.mentioned_prs)
        if is_home(ref, repository)
    }
    unrequested = tuple(
        lookup(pulls, PRRef(n), repository) or _placeholder(n, release_branch)
        for n in sorted(set(branch_pr_numbers) - named)
    )
    return tuple(rows), unrequested


def looks_like_request(request: PickRequest) -> bool:
    """Whether an unparsed comment still looks like a request (a PR link or a template label).

    A comment the parser recognised as no request (a reply, a question, a quoted template) does not.
    """
    if request.not_a_request:
        return False
    return bool(_LOOKS_LIKE_REQUEST.search(request.body[:100_000]))


def _row(
    req: PickRequest,
    pulls: PullLookup,
    branches: tuple[str, str],
    repository: str,
    reverted: set[int],
    now: datetime,
    stale_days: float,
    failed: Mapping[int | PRRef, str],
    library_branches: Mapping[str, str],
) -> PickRow:
    age = _days(now, req.created_at)
    branch = branches[0]
    if not req.parsed:
        return PickRow(req, PickStatus.UNPARSED, (PickFlag.UNPARSED,), age, notes=(_unparsed_note(req),))
    notes: list[str] = []
    if req.free_form:
        req, notes = _place_by_base(req, pulls, branches, repository)
        if not (req.trunk_prs or req.release_prs or req.trunk_na):
            loaded = tuple(p for p in (lookup(pulls, ref, repository) for ref in req.mentioned_prs) if p is not None)
            return PickRow(req, PickStatus.FREE_FORM, (PickFlag.FREE_FORM,), age, notes=tuple(notes), pulls=loaded)
    flags: list[PickFlag] = []

    release = []
    for ref in req.release_prs:
        pr = lookup(pulls, ref, repository)
        if pr is None:
            notes.append(_not_loaded("release", ref, repository, failed, flags))
            continue
        release.append(pr)
        if is_home(ref, repository) and pr.state is not PullState.CLOSED_UNMERGED and pr.base_ref != branch:
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
            pr = lookup(pulls, ref, repository)
            if pr is None:
                notes.append(_not_loaded("trunk", ref, repository, failed, flags))
            else:
                trunk.append(pr)
            if pr is not None and pr.state is not PullState.MERGED:
                flags.append(PickFlag.TRUNK_NOT_MERGED)
                notes.append(f"trunk PR {ref.label(repository)} is {pr.state.value.replace('_', ' ')}")
            if is_home(ref, repository) and ref.number in reverted:
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
    error = failed.get(ref.number) if is_home(ref, repository) else failed.get(ref)
    if error is None:
        return f"{kind} PR {ref.label(repository)} not loaded"
    flags.append(PickFlag.COULD_NOT_READ)
    return f"{kind} PR {ref.label(repository)} could not be read: {error}"


def _unparsed_note(req: PickRequest) -> str:
    if req.not_a_request:
        return "a reply, question, quoted template or bot message: not a request"
    return "template not found: read it yourself" if looks_like_request(req) else "no request template (chatter?)"


def _place_by_base(
    req: PickRequest, pulls: PullLookup, branches: tuple[str, str], repository: str
) -> tuple[PickRequest, list[str]]:
    """A free-form request's roles corrected by the loaded PRs' base branches: a PR onto the release
    branch is a release PR (whatever the words said), one onto the trunk whose role no word told is
    a trunk PR. A PR not loaded (or whose base is not known) keeps the role its words gave."""
    branch, trunk_branch = branches

    def base(ref: PRRef) -> str:
        pr = lookup(pulls, ref, repository)
        return pr.base_ref if pr is not None else ""

    onto_branch = tuple(ref for ref in (*req.trunk_prs, *req.mentioned_prs) if base(ref) == branch)
    onto_trunk = tuple(
        ref for ref in req.mentioned_prs if trunk_branch and base(ref) == trunk_branch and ref not in onto_branch
    )
    rest = tuple(ref for ref in req.mentioned_prs if ref not in onto_branch and ref not in onto_trunk)
    notes = [
        f"free-form: {ref.label(repository)} targets {branch}, so it is taken as a release PR" for ref in onto_branch
    ]
    notes += [
        f"free-form: {ref.label(repository)} targets {trunk_branch}, so it is taken as a trunk PR" for ref in onto_trunk
    ]
    if req.trunk_prs or req.release_prs or onto_branch or onto_trunk:
        notes.insert(0, "free-form request: roles read from its words; check them in the comment")
    if rest:
        mentioned = " ".join(r.label(repository) for r in rest)
        notes.append(f"free-form: mentions {mentioned} without saying whether trunk or release PR: read it yourself")
    trunk = tuple(ref for ref in req.trunk_prs if ref not in onto_branch) + onto_trunk
    release = tuple(dict.fromkeys((*req.release_prs, *onto_branch)))
    return replace(req, trunk_prs=trunk, release_prs=release, mentioned_prs=rest), notes


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
        if not is_home(ref, repository):
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


def lookup(pulls: PullLookup, ref: PRRef, repository: str) -> PullRequest | None:
    """The loaded PR ``ref`` names, keyed either way (``PRRef`` or this repository's number); None if not loaded."""
    for key in (ref, PRRef(ref.number, repository) if not ref.repository else None):
        if key is not None and key in pulls:
            return pulls[key]
    if is_home(ref, repository):
        return pulls.get(ref.number) or pulls.get(PRRef(ref.number))
    return None


def is_home(ref: PRRef, repository: str) -> bool:
    """Whether ``ref`` is a PR of ``repository`` (a bare ``#N`` is)."""
    return not ref.repository or ref.repository.casefold() == repository.casefold()


def _placeholder(number: int, branch: str) -> PullRequest:
    return PullRequest(number, "(not loaded)", PullState.MERGED, branch, "", "")


def _days(now: datetime, then: datetime | None) -> float | None:
    return None if then is None else (now - aware(then)).total_seconds() / 86400
