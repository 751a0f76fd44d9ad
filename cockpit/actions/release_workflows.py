"""Release-day workflow actions: start a step's workflow (dry run, then the real run), re-run a run's
failed jobs, cancel it, approve or reject the deployment it waits for.

Targets: a ``StartRequest`` (``cockpit.services.dispatch_form``) for the starts; a ``RunTarget`` for the
rest. The real run and an approval cannot be undone (the runbook's one-shot PyPI promotion): they need
the version typed back. Every attempt is audited by the registry; the dispatch itself is journalled in
the state file before it is sent (``cockpit.actions.dispatching``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from cockpit.actions.intents import DONE, NOT_DONE, UNKNOWN, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.workflows import RunTarget
from cockpit.errors import ActionRefused

T = TypeVar("T")

if TYPE_CHECKING:
    from cockpit.domain.checklist import ChecklistStep, StepWorkflow
    from cockpit.ports import Ports as CockpitBackend
    from cockpit.services.dispatch_form import StartForm, StartRequest


def workflow_of(backend: CockpitBackend, step: ChecklistStep) -> StepWorkflow:
    """The step's workflow for this release (the configured repository and ref, the version filled in)."""
    from cockpit.loaders.workflow_steps import release_spec

    cfg = backend.config.evidence.release_workflows
    if step.workflow is None or cfg is None:
        raise ActionRefused(f"'{step.title}' is not performed by a release workflow here")
    return release_spec(backend, cfg, step)


def start_form(backend: CockpitBackend, step: ChecklistStep, *, package: str = "", real: bool = False) -> StartForm:
    """The start form of ``step``'s workflow (reads GitHub: call it from a worker)."""
    from cockpit.actions.dispatching import start_form as form

    spec = workflow_of(backend, step)
    now = backend.clock
    return form(
        backend.release_workflows,
        backend.state,
        step,
        spec,
        package=package,
        real=real,
        clock=lambda: now().timestamp(),
    )


def dispatched(backend: CockpitBackend, intent: Intent) -> Finding:
    """After an interruption: did the dispatch of the intent's workflow make a run? Its journal entries with no
    run are looked up (``dispatching.settle_workflow``: completed with the one run found, given up after
    ``GIVE_UP_S`` without one) and the answer is what the journal then holds."""
    from cockpit.actions.dispatching import settle_workflow
    from cockpit.services.dispatch_form import unfinished

    workflow = f"{intent.where}:{intent.what}"
    waiting = {d.key for d in unfinished(backend.state.dispatches(), workflow)}
    if not waiting:
        return Finding(NOT_DONE, f"no dispatch of {intent.what} was journalled without its run: nothing was sent")
    now = backend.clock
    said = settle_workflow(
        backend.release_workflows, backend.state, intent.where, intent.what, intent.key, clock=lambda: now().timestamp()
    )
    entries = [d for d in backend.state.dispatches() if d.key in waiting]
    if entries and all(d.run_id for d in entries):
        return Finding(DONE, "; ".join(said) + ": recorded in the journal, not started again")
    if entries and all(d.run_id or d.no_run for d in entries):
        return Finding(NOT_DONE, "; ".join(said))
    return Finding(UNKNOWN, "; ".join(said) or f"the journal's dispatches of {intent.what} cannot be read")


def latest_run(backend: CockpitBackend, step: ChecklistStep) -> tuple[str, int] | None:
    """(repository, run id) of the latest run of ``step``'s workflow: the one the cockpit started last,
    else the newest on its ref; None when it has none."""
    from cockpit.services.checklist_workflow import workflow_id

    spec = workflow_of(backend, step)
    mine = [d.run_id for d in backend.state.dispatches() if d.workflow == workflow_id(spec) and d.run_id]
    if mine:
        return spec.repository, int(mine[-1])
    runs = backend.release_workflows.runs(spec.repository, workflow=spec.file_name, branch=spec.ref, limit=1)
    return (spec.repository, runs[0].id) if runs else None


def register(reg: ActionRegistry, backend: CockpitBackend) -> None:
    from cockpit.actions import dispatching

    def changes_runs(act: Callable[[T], str]) -> Callable[[T], str]:
        """``act``, after which the steps judged from the workflows' runs are read again (never reused)."""

        def run(target: T) -> str:
            try:
                return act(target)
            finally:
                backend.shared.workflow_runs.forget()

        return run

    @changes_runs
    def start(request: StartRequest) -> str:
        made = dispatching.start(backend.release_workflows, backend.state, request, by=reg.who)
        kind = "dry run" if request.dry_run else "real run"
        spec = request.form.spec
        if made.run_id is None:
            return f"started the {kind} of {spec.file_name}; its run is not known yet: {made.note}"
        return f"started the {kind} of {spec.file_name}: run {made.run_id} {made.html_url}".rstrip()

    def start_refusal(request: StartRequest) -> str | None:
        if not request.dry_run and request.form.real_refused:
            return request.form.real_refused
        return None

    for action_id, title, danger, dry in (
        ("workflow.dry_run", "Start the dry run", Danger.MUTATING, True),
        ("workflow.real_run", "Start the real run", Danger.IRREVERSIBLE, False),
    ):

        def applicable(request: StartRequest, dry: bool = dry, action_id: str = action_id) -> str | None:
            if request.dry_run != dry:
                return f"this is {'a dry run' if request.dry_run else 'the real run'}, not what {action_id} starts"
            return start_refusal(request)

        reg.register(
            Action(
                action_id,
                title,
                danger,
                "checklist",
                run=start,
                describe=lambda r: r.describe(),
                applicable=applicable,
                label=lambda r: f"{r.form.spec.repository}:{r.form.spec.path}",
                intent=lambda r: Intent("dispatch", r.form.spec.repository, r.form.spec.path, r.form.spec.ref),
                look=lambda intent: dispatched(backend, intent),
            )
        )

    @changes_runs
    def rerun(t: RunTarget) -> str:
        backend.release_workflows.rerun_failed_jobs(t.repository, t.run_id)
        return f"re-running the failed jobs of run {t.run_id} (a new attempt)"

    @changes_runs
    def cancel(t: RunTarget) -> str:
        backend.release_workflows.cancel(t.repository, t.run_id)
        return f"cancelling run {t.run_id}"

    def review(t: RunTarget, *, approve: bool) -> str:
        if not t.environments:
            raise ActionRefused(f"run {t.run_id} waits for no approval")
        if not t.comment.strip():
            raise ActionRefused("a review needs a comment saying why")
        ids = tuple(i for i, _ in t.environments)
        done = backend.release_workflows.review_deployments(
            t.repository, t.run_id, ids, approve=approve, comment=t.comment
        )
        names = ", ".join(n for _, n in t.environments)
        if approve:
            return f"approved run {t.run_id} to deploy to {names}" + (f" (GitHub: {', '.join(done)})" if done else "")
        return f"rejected run {t.run_id}'s deployment to {names}"

    def post(path: str) -> Callable[[RunTarget], str]:
        return lambda t: f"POST /repos/{t.repository}/actions/runs/{t.run_id}/{path}"

    def review_text(verb: str) -> Callable[[RunTarget], str]:
        def text(t: RunTarget) -> str:
            names = ", ".join(n for _, n in t.environments) or "no environment"
            return (
                f"POST /repos/{t.repository}/actions/runs/{t.run_id}/pending_deployments "
                f"state={verb} environments={names} comment={t.comment!r}"
            )

        return text

    for action in (
        Action(
            "workflow.rerun",
            "Re-run failed jobs",
            Danger.MUTATING,
            "checklist",
            run=rerun,
            describe=post("rerun-failed-jobs"),
        ),
        Action("workflow.cancel", "Cancel the run", Danger.MUTATING, "checklist", run=cancel, describe=post("cancel")),
        Action(
            "workflow.approve",
            "Approve the deployment",
            Danger.IRREVERSIBLE,
            "checklist",
            run=changes_runs(lambda t: review(t, approve=True)),
            describe=review_text("approved"),
        ),
        Action(
            "workflow.reject",
            "Reject the deployment",
            Danger.MUTATING,
            "checklist",
            run=changes_runs(lambda t: review(t, approve=False)),
            describe=review_text("rejected"),
        ),
    ):
        reg.register(action)
