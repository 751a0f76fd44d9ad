"""A patch release's rules for cherry-pick requests, as flags on the tracker's rows.

The process document: "we require all cherry-pick changes to have links to either a high-priority
GitHub issue or a CI failure from previous RC", and "if cherry picking deadline is missed ...
patch release managers will not accept any requests after the fact".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from cockpit.domain.picks import PickFlag, PickRequest, PickRow
from cockpit.domain.stamps import aware

# A CI failure: a GitHub Actions run or job page, or the CI dashboard (HUD).
_CI_FAILURE = re.compile(r"https?://[^\s)>\]]*?(?:/actions/runs/\d+|/job/\d+|hud\.pytorch\.org/\S+)", re.IGNORECASE)
_ISSUE_URL = re.compile(r"https?://[^\s/]+/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/issues/(\d{1,9})\b")
_HASH_REF = re.compile(r"(?<![\w/&])#(\d{1,9})\b")


@dataclass(frozen=True)
class PatchRules:
    """What a patch release asks of a request: posted by the deadline, linking a qualifying issue
    (``qualifying_issues``: this repository's issue numbers carrying a qualifying label; None when
    they could not be read) or a CI failure."""

    deadline: datetime | None
    qualifying_issues: frozenset[int] | None
    qualifying_labels: tuple[str, ...] = ()


def links_ci_failure(request: PickRequest) -> bool:
    """Whether the request links a CI run or job (GitHub Actions, or the HUD)."""
    return any(_CI_FAILURE.search(text) for text in (*request.fixes, request.body[:100_000]))


def linked_issues(request: PickRequest, repository: str) -> set[int]:
    """This repository's issues the request links: its ``fixes`` (URL or ``#N``) and issue URLs in its text."""
    numbers: set[int] = set()
    for text in (*request.fixes, request.body[:100_000]):
        for repo, number in _ISSUE_URL.findall(text):
            if repo.casefold() == repository.casefold():
                numbers.add(int(number))
    for ref in request.fixes:
        numbers.update(int(n) for n in _HASH_REF.findall(ref))
    return numbers


def issues_to_check(requests: Iterable[PickRequest], repository: str) -> set[int]:
    """The issues whose labels decide ``no_qualifying_link``: those linked by requests without a CI link."""
    return {
        n
        for r in requests
        if r.parsed and not r.not_a_request and not links_ci_failure(r)
        for n in linked_issues(r, repository)
    }


def apply_patch_rules(rows: Sequence[PickRow], rules: PatchRules, repository: str) -> tuple[PickRow, ...]:
    """The rows with ``after_deadline`` and ``no_qualifying_link`` added where they apply (parsed requests only)."""
    return tuple(_ruled(row, rules, repository) for row in rows)


def _ruled(row: PickRow, rules: PatchRules, repository: str) -> PickRow:
    req = row.request
    if not req.parsed or req.not_a_request:
        return row
    flags: list[PickFlag] = []
    notes: list[str] = []
    if rules.deadline is not None and req.created_at is not None and aware(req.created_at) > rules.deadline:
        flags.append(PickFlag.AFTER_DEADLINE)
        notes.append(
            f"posted {aware(req.created_at):%Y-%m-%d %H:%M} UTC, after the cherry-pick deadline "
            f"{rules.deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
        )
    if not links_ci_failure(req):
        linked = linked_issues(req, repository)
        labels = " or ".join(repr(label) for label in rules.qualifying_labels) or "a qualifying label"
        if rules.qualifying_issues is None:
            if linked:
                notes.append(f"whether the linked issues carry {labels} could not be read")
            else:
                flags.append(PickFlag.NO_QUALIFYING_LINK)
                notes.append(
                    f"links no issue and no CI failure: a patch release needs an issue labelled {labels} "
                    "or a CI failure of the previous RC"
                )
        elif not linked & rules.qualifying_issues:
            flags.append(PickFlag.NO_QUALIFYING_LINK)
            named = ", ".join(f"#{n}" for n in sorted(linked))
            why = f"its issues ({named}) carry no label {labels}" if linked else "it links no issue"
            notes.append(f"{why} and it links no CI failure of the previous RC")
    if not flags and not notes:
        return row
    return replace(row, flags=tuple(dict.fromkeys((*row.flags, *flags))), notes=(*row.notes, *notes))


def qualifying_numbers(listed: Iterable[Iterable[int]]) -> frozenset[int]:
    """The union of the numbers of the issues listed per qualifying label."""
    return frozenset(n for numbers in listed for n in numbers)


def not_yet_seen(wanted: Collection[int], seen: Collection[int], oldest_listed: int | None) -> set[int]:
    """Linked issues a bounded newest-first list could not have reached (older than its oldest row):
    they must be read one by one. Without a bound (``oldest_listed`` None) every list was complete."""
    if oldest_listed is None:
        return set()
    return {n for n in wanted if n not in seen and n < oldest_listed}
