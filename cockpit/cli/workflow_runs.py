"""``cockpit workflows start|watch|rerun|cancel|approve|reject``: release day's workflows from the command line.

    cockpit workflows start stage_pypi                  # the dry run, with this release's inputs
    cockpit workflows start stage_pypi --wait           # ... and wait, a progress line on stderr
    cockpit workflows start stage_pypi --real --confirm 2.5.0 --wait
    cockpit workflows watch 123456 [--wait]
    cockpit workflows rerun 123456 | cancel 123456
    cockpit workflows approve 123456 --comment "staged wheels inspected" --confirm 2.5.0
    cockpit workflows reject 123456 --comment "wrong package"

``start`` takes a checklist step (its id, or its workflow's file name) and runs through the same
action registry as the checklist's keys: the same refusals (read-only, real run before a successful
dry run with the same inputs, an earlier dispatch not yet found), the same audit entry, the same
journal. Output: one JSON document on stdout (``{"dispatch": ..., "watch": ...}``); exit status 0
when done (and, with ``--wait``, the run succeeded), 1 when refused or the run did not succeed, 2 for
bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from cockpit.errors import CockpitError, ConfigError

if TYPE_CHECKING:
    from cockpit.cockpit_backend import CockpitBackend
    from cockpit.domain.checklist import ChecklistStep
    from cockpit.domain.workflows import RunWatch

WAIT_LIMIT_S = 6 * 3600
"""The longest ``--wait`` waits for one run (the release workflows take minutes to an hour or two)."""


def run(args: argparse.Namespace) -> int:
    from cockpit.bootstrap import build_backend
    from cockpit.cli.commands import load

    config = load(args)
    writes = args.workflow_command in ("start", "rerun", "cancel", "approve", "reject")
    backend = build_backend(config, read_only=bool(args.read_only) or not writes, take_over=args.take_over)
    try:
        return _do(backend, args)
    finally:
        backend.state.close()


def _do(backend: CockpitBackend, args: argparse.Namespace) -> int:
    command = args.workflow_command
    if command == "start":
        return _start(backend, args)
    run_id = _run_id(args.target)
    repository = _repository(backend)
    if command == "watch":
        return _print_watch(backend, repository, run_id, wait=args.wait, interval=args.interval)
    from cockpit.cli.commands import tell_interrupted
    from cockpit.domain.workflows import RunTarget

    target = RunTarget(repository, run_id, comment=args.comment or "")
    tell_interrupted(backend.actions)
    if command in ("approve", "reject"):
        from cockpit.actions.dispatching import watch

        pending = watch(backend.release_workflows, repository, run_id).pending
        target = RunTarget(
            repository,
            run_id,
            environments=tuple((p.environment_id, p.environment) for p in pending),
            comment=args.comment or "",
        )
    result = backend.actions.run(
        f"workflow.{command}",
        target,
        confirmed=True,
        typed=args.confirm,
        expected_typed=backend.config.release.version,
    )
    print(json.dumps({"ok": result.ok, "message": result.message}, indent=2))
    return 0 if result.ok else 1


def _start(backend: CockpitBackend, args: argparse.Namespace) -> int:
    from cockpit.actions.release_workflows import start_form
    from cockpit.services.dispatch_form import StartRequest

    step = _step(backend, args.target)
    from cockpit.cli.commands import tell_interrupted

    tell_interrupted(backend.actions)  # a dispatch cut short is looked up first: its run is not started twice
    form = start_form(backend, step, package=args.package or "", real=args.real)
    for line in form.unfinished:
        print(f"cockpit: {line}", file=sys.stderr)
    values = dict(form.values)
    for given in args.input or ():
        name, sep, value = given.partition("=")
        if not sep or not name:
            raise ConfigError(f"--input {given!r}: expected NAME=VALUE")
        values[name] = value
    request = StartRequest(form, tuple(values.items()), dry_run=not args.real)
    action_id = "workflow.real_run" if args.real else "workflow.dry_run"
    result = backend.actions.run(
        action_id, request, confirmed=True, typed=args.confirm, expected_typed=backend.config.release.version
    )
    out: dict[str, Any] = {"ok": result.ok, "message": result.message, "request": request.describe()}
    if not result.ok:
        print(json.dumps(out, indent=2))
        return 1
    run_id = _journalled_run(backend, form.spec)
    out["run_id"] = run_id
    if args.wait and run_id:
        w = _wait(backend, form.spec.repository, run_id, interval=args.interval)
        out["watch"] = watch_json(w)
        print(json.dumps(out, indent=2))
        return 0 if w.run.conclusion == "success" else 1
    print(json.dumps(out, indent=2))
    return 0


def _journalled_run(backend: CockpitBackend, spec: Any) -> int | None:
    from cockpit.services.checklist_workflow import workflow_id

    mine = [d for d in backend.state.dispatches() if d.workflow == workflow_id(spec)]
    return mine[-1].run_id or None if mine else None


def _print_watch(backend: CockpitBackend, repository: str, run_id: int, *, wait: bool, interval: float) -> int:
    from cockpit.actions.dispatching import watch

    w = (
        _wait(backend, repository, run_id, interval=interval)
        if wait
        else watch(backend.release_workflows, repository, run_id)
    )
    print(json.dumps(watch_json(w), indent=2))
    return 0 if not wait or w.run.conclusion == "success" else 1


def _wait(backend: CockpitBackend, repository: str, run_id: int, *, interval: float) -> RunWatch:
    """Watch until the run finishes (or waits for an approval nobody here gives), a line on stderr per change."""
    from cockpit.actions.dispatching import watch
    from cockpit.services.run_watch import watch_lines

    said = ""
    deadline = time.monotonic() + WAIT_LIMIT_S
    while True:
        w = watch(backend.release_workflows, repository, run_id)
        line = watch_lines(w)[0]
        if line != said:
            print(f"cockpit: {line}", file=sys.stderr, flush=True)
            said = line
        if w.finished or w.pending or time.monotonic() > deadline:
            return w
        time.sleep(max(interval, 0.05))


def watch_json(w: RunWatch) -> dict[str, Any]:
    run = w.run
    return {
        "run": {
            "id": run.id,
            "name": run.name,
            "status": run.status,
            "conclusion": run.conclusion,
            "actor": run.actor,
            "created_at": run.created_at,
            "attempt": run.run_attempt,
            "url": run.html_url,
        },
        "jobs": [
            {
                "id": job.id,
                "name": job.name,
                "status": job.status,
                "conclusion": job.conclusion,
                "failed_steps": [s.name for s in job.steps if s.conclusion in ("failure", "timed_out")],
                "log_tail": list(w.log_of(job.id)),
            }
            for job in w.jobs
        ],
        "waiting_for": [
            {
                "environment": p.environment,
                "reviewers": list(p.reviewers),
                "you_may_approve": p.current_user_can_approve,
            }
            for p in w.pending
        ],
        "problems": list(w.problems),
    }


def _step(backend: CockpitBackend, name: str | None) -> ChecklistStep:
    steps = [s for s in backend.checklist_steps() if s.workflow is not None]
    if not name:
        raise ConfigError("workflows start: name the step (" + ", ".join(s.id for s in steps) + ")")
    for step in steps:
        if name in (step.id, step.workflow.file_name if step.workflow else ""):
            return step
    known = ", ".join(f"{s.id} ({s.workflow.file_name})" for s in steps if s.workflow) or "none"
    raise ConfigError(f"workflows start: no checklist step '{name}' performed by a workflow (known: {known})")


def _run_id(text: str | None) -> int:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 15:
        raise ConfigError(f"expected a run id (digits), got {text!r}")
    return int(text)


def _repository(backend: CockpitBackend) -> str:
    cfg = backend.config.evidence.release_workflows
    if cfg is None:
        raise CockpitError("no release workflows are configured ([evidence.release_workflows])", title="Workflows")
    return cfg.repository
