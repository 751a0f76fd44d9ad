"""Is the release branch green? PyTorch's rules applied to the check runs of one commit.

A commit is green when every required workflow (matched by full-name regex) is present and all
its jobs concluded success, skipped or neutral. Shards of one job (``test (default, 1, 5,
linux.2xlarge)``) count as one job; jobs named "unstable" (or listed in the config) are set
aside and never make a commit red. Failures in workflows that are not required are listed as
advisory only: PyTorch ignores them for green-ness, and so does the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime

from cockpit.domain.ci import CheckRun, CITarget, JobVerdict, RepoCIVerdict, RunHistory
from cockpit.domain.gates import Gate, GateStatus, worst
from cockpit.domain.reports import CIReport
from cockpit.gates import gate_title

GATE_NAME = "ci_green"
GATE_TITLE = gate_title(GATE_NAME)

GOOD = frozenset({"success", "skipped", "neutral"})
BAD = frozenset({"failure", "cancelled", "timed_out", "action_required", "stale", "startup_failure"})
_SHARD = re.compile(r"\(\s*([^,()]+?)\s*,\s*\d+\s*,\s*\d+\s*(?:,[^()]*)?\)")
_NAMES_SHOWN = 3


def fold_shard(name: str) -> str:
    """``test (default, 1, 5, linux.2xlarge)`` -> ``test (default)``, also inside ``workflow / job (...)``.

    PyTorch marks a flaky configuration as a trailing ``unstable`` inside the parentheses; the
    marker survives folding (``test (default, unstable)``) so the job is still set aside.
    """
    return _SHARD.sub(_fold_match, name)


def _fold_match(match: re.Match[str]) -> str:
    marker = ", unstable" if "unstable" in match.group(0).casefold() else ""
    return f"({match.group(1)}{marker})"


def is_unstable(name: str, extra: Sequence[str] = ()) -> bool:
    """True when the job's name says "unstable" or the config lists it (raw or shard-folded name)."""
    if "unstable" in name.casefold():
        return True
    listed = {e.casefold() for e in extra} | {fold_shard(e).casefold() for e in extra}
    return name.casefold() in listed or fold_shard(name).casefold() in listed


def rc_target(target: CITarget) -> CITarget:
    """The target for judging an RC tag: its binary-build workflows are what must be green there."""
    if not target.binary_workflows:
        return target
    return replace(target, required_workflows=target.binary_workflows)


def ci_verdict(target: CITarget, runs: Sequence[CheckRun], *, ref: str, head_sha: str = "") -> RepoCIVerdict:
    """Judge one commit's check runs against ``target``'s required workflows.

    With no required workflows configured every workflow counts. RED on any failed job of a
    required workflow; AMBER while one is queued or running, or when one has not started; GREEN
    otherwise. The reason says which, in words.
    """
    jobs = _fold(runs)
    workflows = sorted({j.workflow for j in jobs})
    patterns = [_pattern(p) for p in target.required_workflows]
    required = {w for w in workflows if not patterns or any(p.fullmatch(w) for p in patterns)}
    missing = tuple(
        raw
        for raw, p in zip(target.required_workflows, patterns, strict=True)
        if not any(p.fullmatch(w) for w in workflows)
    )

    unstable: list[JobVerdict] = []
    counted: list[JobVerdict] = []
    for job in jobs:
        aside = job.workflow.casefold() == "unstable" or is_unstable(job.name, target.unstable_jobs)
        aside = aside or is_unstable(f"{job.workflow} / {job.name}", target.unstable_jobs)
        (unstable if aside else counted).append(job)
    failed = [j for j in counted if j.workflow in required and j.conclusion in BAD]
    pending = [j for j in counted if j.workflow in required and not _done(j)]
    advisory = [j for j in counted if j.workflow not in required and j.conclusion in BAD]

    if failed:
        status = GateStatus.RED
    elif pending or missing:
        status = GateStatus.AMBER
    else:
        status = GateStatus.GREEN
    reason = _reason(status, failed, pending, missing, counted, required, unstable)
    return RepoCIVerdict(
        repository=target.repository,
        ref=ref,
        status=status,
        reason=reason,
        failed=tuple(failed),
        pending=tuple(pending),
        unstable=tuple(unstable),
        missing_workflows=missing,
        job_count=len(counted),
        head_sha=head_sha or next((r.head_sha for r in runs if r.head_sha), ""),
        advisory_failed=tuple(advisory),
    )


def last_green(target: CITarget, history: Iterable[tuple[str, Sequence[CheckRun]]]) -> tuple[str | None, int | None]:
    """The newest green commit of ``history`` (newest first) and how many commits it is behind head.

    ``history`` may be lazy: it is read only up to the first green commit, so a loader that fetches
    each commit's check runs on demand pays only for the commits actually walked.
    """
    for behind, (sha, runs) in enumerate(history):
        if ci_verdict(target, runs, ref=sha, head_sha=sha).status is GateStatus.GREEN:
            return sha, behind
    return None, None


def ci_gate(branch_verdicts: Sequence[RepoCIVerdict], rc_verdicts: Sequence[RepoCIVerdict] = ()) -> Gate:
    """``ci_green``: the worst verdict of every branch head and RC tag, naming the repositories at fault."""
    verdicts = [*branch_verdicts, *rc_verdicts]
    if not verdicts:
        return Gate(GATE_NAME, GATE_TITLE, GateStatus.UNKNOWN, "no CI results: no repositories configured or loaded")
    status = worst([v.status for v in verdicts])
    details = tuple(f"{v.repository} @ {v.ref}: {v.status.value}: {v.reason}" for v in verdicts)
    if status is GateStatus.GREEN:
        return Gate(GATE_NAME, GATE_TITLE, status, f"all {len(verdicts)} green", details)
    at_fault = [v for v in verdicts if v.status is status]
    # The status is said beside the summary wherever it is shown: the summary names who, not the colour again;
    # for an unknown verdict, also why (what GitHub answered), as a pane that fails to load would.
    why = f": {at_fault[0].reason}" if status is GateStatus.UNKNOWN else ""
    return Gate(GATE_NAME, GATE_TITLE, status, ", ".join(f"{v.repository} @ {v.ref}" for v in at_fault) + why, details)


BranchRuns = tuple[CITarget, str, Sequence[CheckRun], Iterable[tuple[str, Sequence[CheckRun]]]]
RCRuns = tuple[CITarget, str, Sequence[CheckRun]]


def ci_report(
    branches: Sequence[RepoCIVerdict | BranchRuns],
    rc_builds: Sequence[RepoCIVerdict | RCRuns] = (),
    *,
    requests: int = 0,
    not_modified: int = 0,
    notes: Sequence[str] = (),
    history: Sequence[RunHistory] = (),
) -> CIReport:
    """The CI pane's report: a verdict per branch head and RC tag, and their gate.

    Each entry is a ready ``RepoCIVerdict`` or the raw material: for a branch
    ``(target, ref, head_runs, history)`` with ``history`` the earlier commits newest first as
    ``(sha, runs)`` (for the last green commit); for an RC ``(target, tag, runs)``, judged on the
    target's binary-build workflow (``rc_target``). ``requests`` / ``not_modified``: what the load
    cost on GitHub; ``notes``: configured targets that could not be judged, in words; ``history``:
    the newest runs on each release branch, for the CI history picture.
    """
    branch_verdicts = tuple(b if isinstance(b, RepoCIVerdict) else branch_verdict(*b) for b in branches)
    rc_verdicts = tuple(
        r if isinstance(r, RepoCIVerdict) else ci_verdict(rc_target(r[0]), r[2], ref=r[1]) for r in rc_builds
    )
    gate = ci_gate(branch_verdicts, rc_verdicts)
    return CIReport(branch_verdicts, rc_verdicts, gate, requests, not_modified, tuple(notes), tuple(history))


def branch_verdict(
    target: CITarget,
    ref: str,
    runs: Sequence[CheckRun],
    history: Iterable[tuple[str, Sequence[CheckRun]]] = (),
    head_sha: str = "",
) -> RepoCIVerdict:
    """``ci_verdict`` of a branch head plus where its last green commit is (0 behind: head is green).

    ``history`` (the commits before the head, newest first) is not read at all when the head is green.
    """
    verdict = ci_verdict(target, runs, ref=ref, head_sha=head_sha)
    if verdict.status is GateStatus.GREEN:
        return replace(verdict, last_green_sha=verdict.head_sha or None, commits_behind_green=0)
    sha, behind = last_green(target, history)
    return replace(verdict, last_green_sha=sha, commits_behind_green=None if behind is None else behind + 1)


def _fold(runs: Sequence[CheckRun]) -> list[JobVerdict]:
    groups: dict[tuple[str, str], list[CheckRun]] = {}
    for run in runs:
        groups.setdefault((run.workflow or "", fold_shard(run.name or "")), []).append(run)
    return [_fold_one(workflow, name, shards) for (workflow, name), shards in groups.items()]


def _fold_one(workflow: str, name: str, shards: list[CheckRun]) -> JobVerdict:
    bad = [s for s in shards if s.status == "completed" and s.conclusion in BAD]
    waiting = [s for s in shards if not (s.status == "completed" and s.conclusion in GOOD | BAD)]
    face = (bad or waiting or shards)[0]
    status = "completed" if bad or not waiting else face.status
    conclusion = face.conclusion if bad or not waiting else None
    durations = [_seconds(s.started_at, s.completed_at) for s in shards]
    known = [d for d in durations if d is not None]
    return JobVerdict(
        name=name,
        workflow=workflow,
        status=status,
        conclusion=conclusion,
        html_url=face.html_url,
        run_id=face.run_id,
        duration_s=max(known) if known else None,
    )


def _done(job: JobVerdict) -> bool:
    return job.status == "completed" and job.conclusion in GOOD | BAD


def _pattern(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error:  # a config typo must not crash the pane: take it literally
        return re.compile(re.escape(text))


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    try:
        return (end - start).total_seconds() if start and end else None
    except TypeError:  # naive and aware datetimes mixed
        return None


def _reason(
    status: GateStatus,
    failed: list[JobVerdict],
    pending: list[JobVerdict],
    missing: tuple[str, ...],
    counted: list[JobVerdict],
    required: set[str],
    unstable: list[JobVerdict],
) -> str:
    parts = []
    for workflow in sorted({j.workflow for j in failed}):
        names = [j.name for j in failed if j.workflow == workflow]
        parts.append(f"{workflow}: {_jobs(len(names))} failed: {_names(names)}")
    if pending:
        names = [f"{j.workflow} / {j.name}" for j in pending]
        parts.append(f"{_jobs(len(names))} pending: {_names(names)}")
    parts += [f"{w} not started" for w in missing]
    if status is GateStatus.GREEN:
        judged = sum(1 for j in counted if j.workflow in required)
        parts.append(f"all {_jobs(judged)} of {', '.join(sorted(required)) or 'no workflow'} passed")
    bad_unstable = sum(1 for j in unstable if j.conclusion in BAD)
    if bad_unstable:
        parts.append(f"{_jobs(bad_unstable)} unstable failing (ignored)")
    return "; ".join(parts)


def _jobs(n: int) -> str:
    return "1 job" if n == 1 else f"{n} jobs"


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:_NAMES_SHOWN])
    return shown if len(names) <= _NAMES_SHOWN else f"{shown} and {len(names) - _NAMES_SHOWN} more"
