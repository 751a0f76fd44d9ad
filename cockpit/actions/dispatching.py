"""Start, find and watch the release workflows' runs: the journal first, then GitHub, then the journal.

One confirmation makes exactly one dispatch: the dispatch is written to the state file's journal
(``[dispatches.*]``) before the POST, and completed with the run's id when GitHub names it (its
``return_run_details`` answer, or the one run found after an older 204). A dispatch whose run is not
known (the cockpit was stopped between, the answer timed out, two runs fitted) is looked up again
before the next start of that workflow is offered: ``settle`` completes what it can and says what it
could not, and ``start`` refuses while one is still unresolved.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cockpit.domain.workflows import FINISHED, RunWatch
from cockpit.errors import ActionRefused, CockpitError
from cockpit.services.checklist_workflow import workflow_id
from cockpit.services.dispatch_form import (
    StartForm,
    StartRequest,
    prefill,
    problems,
    real_run_refusal,
    unfinished,
)

if TYPE_CHECKING:
    from cockpit.domain.checklist import ChecklistStep, Dispatch, StepWorkflow
    from cockpit.domain.workflows import Dispatched, PendingDeployment, WorkflowRun
    from cockpit.ports import ReleaseWorkflowsPort as GitHubActions
    from cockpit.ports import SessionState as StateStore

GIVE_UP_S = 600
"""A dispatch with no run after this long made none (GitHub creates a dispatched run within seconds)."""
LOG_LINES = 30
"""How much of a failed job's log a watch shows: its tail, where the error usually is."""


def _epoch(stamp: str) -> float | None:
    try:
        return float(calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, TypeError):
        return None


def settle(
    client: GitHubActions, store: StateStore, spec: StepWorkflow, *, clock: Callable[[], float] = time.time
) -> list[str]:
    """Look up the run of every dispatch of ``spec``'s workflow the journal holds without one; complete
    the entries found (one fitting run), give up on those with none after ``GIVE_UP_S``, and say, per
    entry, what was found. A read-only session only looks."""
    return settle_workflow(client, store, spec.repository, spec.path, spec.ref, clock=clock)


def settle_workflow(
    client: GitHubActions, store: StateStore, repository: str, path: str, ref: str, *, clock: Callable[[], float]
) -> list[str]:
    """``settle`` for the workflow at ``path`` of ``repository`` (on ``ref`` unless an entry names its own),
    as an interrupted dispatch's intent names it."""
    said = []
    journal = store.dispatches()  # read once
    claimed = {d.run_id for d in journal if d.run_id}  # the runs entries already own
    file_name = path.rsplit("/", 1)[-1]
    for entry in unfinished(journal, f"{repository}:{path}"):
        since = _epoch(entry.dispatched_at)
        if since is None:
            said.append(f"dispatch {entry.key}: its time '{entry.dispatched_at}' cannot be read; look on GitHub")
            continue
        found = client.find_dispatched_run(repository, file_name, entry.ref or ref, since=since)
        left = [run_id for run_id in found.candidates if run_id not in claimed]
        if len(left) == 1:
            claimed.add(left[0])  # a later entry of this look-up cannot take it too
            if not store.read_only:
                store.complete_dispatch(entry.key, left[0])
            how = "the one run of it since then that no other dispatch of the journal owns"
            said.append(f"dispatch {entry.key} ({entry.dispatched_at}): run {left[0]} ({how})")
        elif not left and clock() - since > GIVE_UP_S:
            why = f"no run appeared within {GIVE_UP_S // 60} minutes: the dispatch made none"
            if not store.read_only:
                store.give_up_dispatch(entry.key, why)
            said.append(f"dispatch {entry.key} ({entry.dispatched_at}): {why}")
        elif not left:
            said.append(
                f"dispatch {entry.key} ({entry.dispatched_at}): no run of it found yet; looked again at the next start"
            )
        else:
            shown = ", ".join(str(i) for i in left)
            said.append(f"dispatch {entry.key} ({entry.dispatched_at}): ambiguous, runs {shown} fit; look on GitHub")
    return said


def still_unresolved(store: StateStore, spec: StepWorkflow) -> list[Dispatch]:
    return unfinished(store.dispatches(), workflow_id(spec))


def start_form(
    client: GitHubActions,
    store: StateStore,
    step: ChecklistStep,
    spec: StepWorkflow,
    *,
    package: str = "",
    real: bool = False,
    clock: Callable[[], float] = time.time,
) -> StartForm:
    """The form for starting ``step``'s workflow: the file read on the ref it will run on (an unreadable
    file raises, naming it), the values for this release, earlier dispatches looked up first."""
    found = settle(client, store, spec, clock=clock)
    file = client.workflow_file(spec.repository, spec.path, spec.ref)
    if not file.dispatchable:
        raise ActionRefused(f"{spec.path} on {spec.ref} has no workflow_dispatch trigger: it cannot be started")
    values = prefill(spec, file, package=package, real=real)
    form = StartForm(
        step.id, step.title, spec, file, tuple(values.items()), unfinished=tuple(found), once=step.irreversible
    )
    return _with_real_refusal(client, store, form, values)


def _with_real_refusal(client: GitHubActions, store: StateStore, form: StartForm, values: dict[str, str]) -> StartForm:
    from dataclasses import replace

    real = {**values, form.spec.real_run[0]: form.spec.real_run[1]} if form.spec.real_run else values
    why = real_refusal(client, store, form.spec, values) or _already_started(
        client, store, form.spec, real, dry_run=False, once=form.once
    )
    return replace(form, real_refused=why)


def real_refusal(client: GitHubActions, store: StateStore, spec: StepWorkflow, values: dict[str, str]) -> str:
    """Why the real run with ``values`` is not offered yet ("" when a matching dry run succeeded)."""
    journal = store.dispatches()
    runs: dict[int, WorkflowRun] = {}
    for entry in journal:
        if entry.workflow == workflow_id(spec) and entry.dry_run and entry.run_id and not entry.problem:
            runs.setdefault(entry.run_id, client.run(spec.repository, entry.run_id))
    return real_run_refusal(spec, values, journal, runs, workflow=workflow_id(spec))


def start(
    client: GitHubActions,
    store: StateStore,
    request: StartRequest,
    *,
    by: str,
    clock: Callable[[], float] = time.time,
) -> Dispatched:
    """Send one dispatch for ``request``, journalled before and completed after. Refused (nothing sent)
    when the values are wrong, when an earlier dispatch of this workflow is still unresolved, when the
    workflow file changed since the form was read, or (for the real run) before a matching dry run
    succeeded."""
    form, spec = request.form, request.form.spec
    values = request.inputs
    wrong = problems(form.file, values)
    if wrong:
        raise ActionRefused("; ".join(wrong))
    waiting = still_unresolved(store, spec)
    if waiting:
        keys = ", ".join(d.key for d in waiting)
        raise ActionRefused(f"an earlier dispatch of {spec.file_name} ({keys}) has no known run yet: look it up first")
    if spec.real_run is not None and spec.is_dry_run(values) != request.dry_run:
        raise ActionRefused(f"{spec.real_run[0]}={values.get(spec.real_run[0], '')} does not make the run asked for")
    now = client.workflow_file(spec.repository, spec.path, spec.ref)
    if now.sha != form.file.sha:
        raise ActionRefused(f"{spec.path} changed on {spec.ref} since the form was read: open the form again")
    if not request.dry_run:
        why = real_refusal(client, store, spec, values)
        if why:
            raise ActionRefused(why)
    again = _already_started(client, store, spec, values, dry_run=request.dry_run, once=request.form.once)
    if again:
        raise ActionRefused(again)
    key = store.journal_dispatch(workflow_id(spec), values, dry_run=request.dry_run, ref=spec.ref, by=by)
    sent = clock()
    try:
        made = client.dispatch(spec.repository, spec.file_name, spec.ref, values, since=sent)
    except CockpitError as exc:
        raise CockpitError(
            f"{exc.message} (journalled as {key}: the run it may have made is looked up before the next start)",
            title=exc.title,
        ) from exc
    if made.run_id is not None:
        store.complete_dispatch(key, made.run_id)
    return made


def _already_started(
    client: GitHubActions,
    store: StateStore,
    spec: StepWorkflow,
    values: dict[str, str],
    *,
    dry_run: bool,
    once: bool = True,
) -> str:
    """Why this start would repeat one already made: the same run (same inputs, same kind) is still going,
    or the real run of an irreversible step (``once``: PyPI takes a file once) already succeeded. A step that
    may be done again (staging again after a fix) may run for real again. "" when a new dispatch is what the
    user asks for."""
    from cockpit.services.dispatch_form import same_inputs

    same = [
        d
        for d in store.dispatches()
        if not d.problem
        and d.run_id
        and d.workflow == workflow_id(spec)
        and d.dry_run == dry_run
        and same_inputs(spec, dict(d.inputs), values)
    ]
    if not same:
        return ""
    latest = same[-1]
    run = client.run(spec.repository, latest.run_id)
    kind = "dry run" if dry_run else "real run"
    if run.status != FINISHED:
        return (
            f"the {kind} with these inputs is already started: run {run.id} is {run.status} ({run.html_url}); watch it"
        )
    if not dry_run and once and run.conclusion == "success":
        return f"the real run with these inputs already succeeded: run {run.id} ({run.html_url})"
    return ""


def watch(client: GitHubActions, repository: str, run_id: int, *, log_lines: int = LOG_LINES) -> RunWatch:
    """Read run ``run_id`` once: its jobs, the log tail of each failed job, its pending approvals."""
    run = client.run(repository, run_id)
    jobs = client.jobs(repository, run_id)
    logs: list[tuple[int, tuple[str, ...]]] = []
    said: list[str] = []
    for job in jobs:
        if job.failed:
            try:
                logs.append((job.id, client.job_log_tail(repository, job.id, lines=log_lines)))
            except CockpitError as exc:
                said.append(f"the log of job '{job.name}' could not be read: {exc.message}")
    pending: Sequence[PendingDeployment] = ()
    if run.waiting:
        try:
            pending = client.pending_deployments(repository, run_id)
        except CockpitError as exc:
            said.append(f"the approvals this run waits for could not be read: {exc.message}")
    return RunWatch(repository, run, tuple(jobs), tuple(logs), tuple(pending), tuple(said))
