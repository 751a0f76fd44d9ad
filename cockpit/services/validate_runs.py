"""Which runs of test-infra's validate-binaries workflow validated this release.

Its runs carry no run-name: GitHub shows each as ``Validate binaries``, so a title filter such as
``*2.5.1*`` never matches. The runs are found as the release-day runbook finds them: by workflow file
(the runs listed are that file's), by event (``workflow_dispatch``) and by the ref it was dispatched
from (``main``), then by its inputs (``channel``, ``version``) where they are known. GitHub's run
listing does not report a dispatch's inputs, so they are known only for the runs the cockpit started
itself (its audit log); a run whose inputs are unknown is kept, and the gate says its channel was not
checked. A configured title still narrows the runs when some run's title matches it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cockpit.domain.ci import WorkflowRun


@dataclass(frozen=True)
class ValidationRuns:
    """The candidate runs, newest first, and what could not be checked about them."""

    runs: tuple[WorkflowRun, ...]
    notes: tuple[str, ...] = ()


def validation_runs(
    runs: Sequence[WorkflowRun],
    *,
    event: str,
    ref: str,
    channel: str = "",
    version: str = "",
    inputs: Mapping[int, Mapping[str, str]] | None = None,
    title_matches: object = None,
) -> ValidationRuns:
    """The runs of the validation workflow that may have validated ``version`` on ``channel``.

    ``inputs`` maps run ids to the inputs they were dispatched with (``channel``, ``version``); a run
    whose known inputs name another channel or version is left out. ``title_matches`` (a predicate on
    a run's display title) narrows the runs only when it matches at least one of them.
    """
    notes: list[str] = []
    kept = [r for r in runs if (not r.event or r.event == event) and (not ref or r.head_branch == ref)]
    if len(kept) < len(runs):
        notes.append(f"{len(runs) - len(kept)} run(s) not dispatched from {ref} ({event}) set aside")
    known = inputs or {}
    chosen = []
    for run in kept:
        given = known.get(run.id)
        if given is None:
            chosen.append(run)
            continue
        if channel and given.get("channel", channel) != channel:
            continue
        if version and given.get("version", version) not in (version, ""):
            continue
        chosen.append(run)
    by_title = False
    if callable(title_matches):
        titled = [r for r in chosen if title_matches(r.display_title or r.name)]
        if titled:
            chosen, by_title = titled, True
        elif chosen:
            notes.append("no run names the version in its title (the workflow sets no run-name): title not used")
    if not by_title and any(r.id not in known for r in chosen[:1]):
        notes.append(f"GitHub does not report a dispatch's inputs: the channel ({channel or 'any'}) was not checked")
    newest = sorted(chosen, key=lambda r: (r.created_at is not None, r.created_at, r.id), reverse=True)
    return ValidationRuns(tuple(newest), tuple(notes))
