"""CI pane: check runs of each release branch head, the commits behind it back to the last green
one, and the newest RC tag's binary builds.

What a load costs on GitHub: per ref read, the check-run pages (100 a page) plus one workflow-runs
request (the join that names each job's workflow). A green head costs nothing more; otherwise one
commits request and the refs walked back, stopping at the first green commit (at most
``LAST_GREEN_WALK``). Per repository, one more request lists the newest runs pushed to the release
branch, for the CI history picture. The count is taken in this thread, so other panes loading at the same time do
not inflate it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from cockpit.domain.ci import CheckRun, CITarget, RepoCIVerdict, RunHistory, WorkflowRun
from cockpit.domain.gates import GateStatus
from cockpit.domain.reports import CIReport
from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.ports import GitHubPort, Ports

LAST_GREEN_WALK = 5  # commits behind the head searched for the last green one
HISTORY_RUNS = 100  # one page of the newest runs on the release branch, of which the required ones are kept


def load_ci(backend: Ports) -> CIReport:
    from cockpit.services.ci import branch_verdict, ci_report

    gh = backend.github
    sent_before, unchanged_before = _counts(gh)
    branches: list[RepoCIVerdict] = []
    rc_builds: list[RepoCIVerdict | tuple[CITarget, str, Sequence[CheckRun]]] = []
    notes: list[str] = []
    for target in backend.config.ci:
        try:
            runs = gh.check_runs(target.repository, target.branch)
        except CockpitError as exc:
            branches.append(_unread_ref(target, target.branch, exc))
            continue
        head = next((r.head_sha for r in runs if r.head_sha), "")
        branches.append(branch_verdict(target, target.branch, runs, _history(gh, target, head)))
    history = []
    for target in backend.config.ci:
        try:
            runs_pushed = gh.workflow_runs(target.repository, branch=target.branch, event="push", limit=HISTORY_RUNS)
        except CockpitError as exc:
            notes.append(f"{target.repository}: the CI history of {target.branch} could not be read: {exc}")
            continue
        history.append(RunHistory(target.repository, target.branch, tuple(runs_pushed), target.required_workflows))
        notes += _name_warnings(target, runs_pushed)
    for target in (t for t in backend.config.ci if t.binary_workflows):
        if target.repository != backend.repository:
            notes.append(
                f"{target.repository}: binary builds ({', '.join(target.binary_workflows)}) not judged: "
                f"RC tags are read from the {backend.repository} clone only"
            )
            continue
        tag = _newest_rc_tag(backend)
        if tag is None:
            version = backend.config.release.version
            notes.append(f"{target.repository}: no RC tag v{version}-rcN in the clone yet: binary builds not judged")
            continue
        try:
            rc_builds.append((target, tag, gh.check_runs(target.repository, tag)))
        except CockpitError as exc:
            rc_builds.append(_unread_ref(target, tag, exc))
    sent, unchanged = _counts(gh)
    report = ci_report(
        branches,
        rc_builds,
        requests=sent - sent_before,
        not_modified=unchanged - unchanged_before,
        notes=notes,
        history=history,
    )
    return _with_blames(backend, report)


def _with_blames(backend: Ports, report: CIReport) -> CIReport:
    """The report with the commits to blame for each red branch and RC build of the core (from the clone);
    a clone that cannot be read leaves a note, not a failed pane."""
    from dataclasses import replace

    from cockpit.loaders.blame import ci_blames

    if not any(v.status is GateStatus.RED for v in (*report.branches, *report.rc_builds)):
        return report
    try:
        blames = ci_blames(backend, report.branches, report.rc_builds)
    except CockpitError as exc:
        return replace(report, notes=(*report.notes, f"the commits to blame could not be read: {exc}"))
    return replace(report, blames=tuple(blames))


def _name_warnings(target: CITarget, runs: Sequence[WorkflowRun]) -> list[str]:
    """A note for each required workflow that no run on the branch is called (``lint`` when GitHub says
    ``Lint``: the gate would wait for it forever), offering the near match; none before any run."""
    from cockpit.services.workflow_names import check_names

    seen = {r.name for r in runs if r.name}
    if not seen:
        return []
    return [f"{target.repository}: {w.message}" for w in check_names(target.required_workflows, seen)]


def _unread_ref(target: CITarget, ref: str, exc: CockpitError) -> RepoCIVerdict:
    """A ref GitHub does not know (404, or 422 for a tag pushed a moment ago and not seen yet) is its own
    row's trouble, UNKNOWN with the reason; anything else (a timeout, a 5xx, the rate limit) is the
    pane's, which then keeps its last good report marked stale."""
    if getattr(exc, "status", None) not in (404, 422):
        raise exc
    return RepoCIVerdict(target.repository, ref, GateStatus.UNKNOWN, f"GitHub could not read {ref}: {exc}")


def _history(gh: GitHubPort, target: CITarget, head: str) -> Iterator[tuple[str, Sequence[CheckRun]]]:
    """The commits before ``head``, newest first, each with its check runs, fetched only when asked."""
    shas = gh.branch_commits(target.repository, target.branch, LAST_GREEN_WALK + 1)
    earlier = [s for s in shas if s != head] if head in shas else shas[1:]
    for sha in earlier[:LAST_GREEN_WALK]:
        yield sha, gh.check_runs(target.repository, sha)


def _newest_rc_tag(backend: Ports) -> str | None:
    from cockpit.loaders.branch import rc_tags

    tags = rc_tags(backend)
    return tags[-1] if tags else None


def _counts(gh: GitHubPort) -> tuple[int, int]:
    return gh.thread_request_counts()
