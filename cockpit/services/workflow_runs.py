"""Judge a checklist step that a release workflow performs, from that workflow's runs and the dispatch journal.

GitHub's run listing says which workflow ran, on which ref, for which event, who started it and how it
ended, but never with which inputs: the release workflows of pytorch/test-infra set no ``run-name``, so a
run of ``release-pypi.yml`` for torchvision looks like one for torchao, and a dry run like a real one.
The inputs are known only for the runs the cockpit started itself (the journal in the state file). So:

- done (green): a real run (not a dry run) with this release's inputs, on the right ref, succeeded;
- red: the newest such run failed (or the newest dry run failed, when no real run was made yet);
- amber: such a run is queued, in progress, or waiting for a reviewer's approval (status ``waiting``);
  also a run that succeeded but is not in the journal: its inputs are unknown, a person checks it and
  signs the step (never green on a guess);
- unknown: no run yet, or only a dry run that passed (the real run is still ahead).

A list of values for one input (packages) asks for one real run per value; the step is done once each is.
Runs on another ref or for another event are set aside, and so are journal entries with other inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cockpit.domain.checklist import Dispatch, StepWorkflow
from cockpit.domain.ci import WorkflowRun
from cockpit.domain.gates import Gate, GateStatus, worst

GATE = "workflow_run"
TITLE = "Release workflow run"
IN_PROGRESS = ("queued", "in_progress", "waiting", "requested", "pending")
UNKNOWN_INPUTS = "succeeded, inputs unknown"


def gate_key(step_id: str) -> str:
    """The name a step's workflow gate is answered under: ``workflow_run[stage_pypi]``."""
    return f"{GATE}[{step_id}]"


@dataclass(frozen=True)
class _Verdict:
    status: GateStatus
    line: str
    signable: bool = False


def judge_workflow_step(
    step_id: str,
    title: str,
    spec: StepWorkflow,
    runs: Sequence[WorkflowRun],
    journal: Sequence[Dispatch],
    *,
    workflow: str,
) -> Gate:
    """The gate of step ``step_id`` from ``runs`` (the workflow file's newest runs) and ``journal`` (the
    dispatches the cockpit made; ``workflow`` is how the journal names this workflow, ``owner/name:path``)."""
    where = f"{spec.file_name} on {spec.ref}"
    kept = [r for r in runs if r.head_branch == spec.ref and (not r.event or r.event == spec.event)]
    notes = []
    if len(kept) < len(runs):
        notes.append(f"{len(runs) - len(kept)} run(s) of {spec.file_name} on another ref or event set aside")
    mine = {d.run_id: d for d in journal if d.workflow == workflow and d.run_id and not d.problem}
    pending = [d for d in journal if d.workflow == workflow and not d.run_id and not d.problem]
    for d in pending:
        notes.append(
            f"journal: dispatched by {d.by} at {d.dispatched_at}, no run id recorded (the dispatch may have failed)"
        )
    newest = sorted(kept, key=lambda r: (r.created_at is not None, r.created_at, r.id), reverse=True)
    verdicts = [(label, _judge(newest, mine, wanted, where)) for label, wanted in _wanted(spec)]
    status = worst([v.status for _, v in verdicts])
    if len(verdicts) == 1:
        summary = verdicts[0][1].line
        details = tuple(notes)
    else:
        done = sum(v.status is GateStatus.GREEN for _, v in verdicts)
        first = next((f"{label}: {v.line}" for label, v in verdicts if v.status is status), "")
        summary = f"{done} of {len(verdicts)} runs done" + ("" if status is GateStatus.GREEN else f"; {first}")
        details = tuple(f"{label}: {v.line}" for label, v in verdicts) + tuple(notes)
    signable = status is GateStatus.AMBER and all(v.signable for _, v in verdicts if v.status is GateStatus.AMBER)
    return Gate(gate_key(step_id), TITLE, status, summary, details, signable=signable)


def _wanted(spec: StepWorkflow) -> list[tuple[str, dict[str, str]]]:
    """Each set of inputs a real run is needed for, labelled (``package=torchvision``) when there are several."""
    fixed = {name: values[0] for name, values in spec.inputs if len(values) == 1}
    several = next(((name, values) for name, values in spec.inputs if len(values) > 1), None)
    if several is None:
        return [("", fixed)]
    name, values = several
    return [(f"{name}={value}", {**fixed, name: value}) for value in values]


def _matches(dispatch: Dispatch, wanted: dict[str, str]) -> bool:
    return all((dispatch.input(name) or "").strip().lower() == value.strip().lower() for name, value in wanted.items())


def _judge(runs: list[WorkflowRun], journal: dict[int, Dispatch], wanted: dict[str, str], where: str) -> _Verdict:
    real: list[tuple[WorkflowRun, Dispatch]] = []
    dry: list[tuple[WorkflowRun, Dispatch]] = []
    unknown: list[WorkflowRun] = []
    for run in runs:
        entry = journal.get(run.id)
        if entry is None:
            unknown.append(run)
        elif _matches(entry, wanted):
            (dry if entry.dry_run else real).append((run, entry))
    success = next(((r, e) for r, e in real if _succeeded(r)), None)
    if success is not None:
        return _Verdict(GateStatus.GREEN, _line(success[0], "succeeded", success[1]))
    if real:
        run, entry = real[0]
        if run.status in IN_PROGRESS or run.status != "completed":
            return _Verdict(GateStatus.AMBER, _line(run, _progress(run), entry))
        return _Verdict(GateStatus.RED, _line(run, f"failed ({run.conclusion or 'no conclusion'})", entry))
    outside = next((r for r in unknown if _succeeded(r)), None)
    if outside is not None:
        by = outside.actor or "someone"
        line = (
            f"{UNKNOWN_INPUTS} (started by {by} at {_when(outside.created_at)} outside the cockpit): "
            f"sign it off after checking; {outside.html_url}"
        )
        return _Verdict(GateStatus.AMBER, line, signable=True)
    if dry:
        run, entry = dry[0]
        if run.status != "completed":
            return _Verdict(GateStatus.AMBER, _line(run, _progress(run), entry))
        if not _succeeded(run):
            return _Verdict(GateStatus.RED, _line(run, f"failed ({run.conclusion or 'no conclusion'})", entry))
        return _Verdict(GateStatus.UNKNOWN, _line(run, "passed; the real run is next", entry))
    busy = next((r for r in unknown if r.status != "completed"), None)
    if busy is not None:
        by = busy.actor or "someone"
        line = f"a run started outside the cockpit is {_progress(busy)} (inputs unknown, by {by}); {busy.html_url}"
        return _Verdict(GateStatus.AMBER, line)
    if unknown:
        r = unknown[0]
        line = (
            f"no run with these inputs yet; the newest run ({r.conclusion or r.status}, by {r.actor or 'someone'}, "
            f"inputs unknown) is {r.html_url}"
        )
        return _Verdict(GateStatus.UNKNOWN, line)
    return _Verdict(GateStatus.UNKNOWN, f"no run of {where} yet")


def _succeeded(run: WorkflowRun) -> bool:
    return run.status == "completed" and run.conclusion == "success"


def _progress(run: WorkflowRun) -> str:
    if run.status == "waiting":
        return "waiting for a reviewer to approve its deployment"
    return "in progress" if run.status == "in_progress" else run.status or "not finished"


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment is not None else "an unknown time"


def _line(run: WorkflowRun, what: str, entry: Dispatch) -> str:
    kind = "dry run" if entry.dry_run else "run"
    inputs = ", ".join(f"{k}={v}" for k, v in entry.inputs)
    # GitHub's word for who started it (the account that dispatched it), before the name the journal wrote
    # (the clone's git user.name): a sign-off is owned by a GitHub account, and so is a run
    started = f"started by {run.actor or entry.by or 'someone'} at {_when(run.created_at)}"
    return f"{kind} {run.id} {what} ({started}; {inputs}): {run.html_url}"
