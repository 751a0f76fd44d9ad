"""The dispatch journal in the state file: which workflow runs the cockpit started, with which inputs.

GitHub's run listing never says with which inputs a ``workflow_dispatch`` run was started (pytorch/test-infra's
release workflows set no ``run-name``), so a run of ``release-pypi.yml`` cannot be told from a dry run, or from
one for another package, by asking GitHub. The cockpit writes each dispatch here BEFORE it sends it, then
completes the entry with the run's id once GitHub names the run; a run whose id is here is known.

    [dispatches.d0001]
    workflow = "pytorch/test-infra:.github/workflows/release-pypi.yml"
    inputs = { dryrun = "disabled", package = "torchvision" }
    dry_run = false
    ref = "main"
    dispatched_at = "2026-08-21T15:00:00Z"
    by = "alice"
    run_id = 123456          # 0 until GitHub names the run
    no_run = ""              # or why it made none (no run appeared in the time GitHub takes): not awaited

An entry a person or a tool damaged is not counted: it carries a ``problem`` naming the key and what was
expected, and the step it would have decided stays as if the run were unknown (never green on a guess).
"""

from __future__ import annotations

from typing import Any

from cockpit.domain.checklist import Dispatch
from cockpit.domain.text import inert

_MAX_INPUTS = 50


def new_key(table: dict[str, Any]) -> str:
    """The next free key, ``d0001`` and up, in the order the entries were written."""
    n = len(table) + 1
    while f"d{n:04d}" in table:
        n += 1
    return f"d{n:04d}"


def dispatch_entry(
    workflow: str, inputs: dict[str, str], *, dry_run: bool, ref: str, when: str, by: str
) -> dict[str, Any]:
    """The state-file entry of a dispatch about to be sent (``run_id`` 0 until the run is known)."""
    return {
        "workflow": workflow,
        "inputs": {str(k): str(v) for k, v in inputs.items()},
        "dry_run": bool(dry_run),
        "ref": ref,
        "dispatched_at": when,
        "by": by,
        "run_id": 0,
    }


def read_dispatch(key: str, entry: Any, *, where: str) -> Dispatch:
    """The journal entry ``key``, or one with a ``problem`` (not counted) when a value is not what it should be."""
    if not isinstance(entry, dict):
        return Dispatch(
            inert(key), "", (), False, "", "", "", problem=f"{where}: expected a table, got {_shown(entry)}"
        )
    text = {name: entry.get(name) for name in ("workflow", "ref", "dispatched_at", "by")}
    bad = next((name for name, value in text.items() if not isinstance(value, str)), None)
    problem = f"{where}, key '{bad}': expected a text, got {_shown(text[bad])}" if bad else ""
    raw_inputs = entry.get("inputs", {})
    inputs: tuple[tuple[str, str], ...] = ()
    if (
        not isinstance(raw_inputs, dict)
        or len(raw_inputs) > _MAX_INPUTS
        or not all(isinstance(v, str) for v in raw_inputs.values())
    ):
        problem = problem or f"{where}, key 'inputs': expected a table of input = text, got {_shown(raw_inputs)}"
    else:
        inputs = tuple((inert(k), inert(v)) for k, v in raw_inputs.items())
    dry_run = entry.get("dry_run")
    if not isinstance(dry_run, bool):
        problem = problem or f"{where}, key 'dry_run': expected true or false, got {_shown(dry_run)}"
    run_id = entry.get("run_id", 0)
    if not isinstance(run_id, int) or isinstance(run_id, bool) or run_id < 0:
        problem = problem or f"{where}, key 'run_id': expected a run id (0 until known), got {_shown(run_id)}"
        run_id = 0
    no_run = entry.get("no_run", "")
    if not isinstance(no_run, str):
        problem = problem or f"{where}, key 'no_run': expected a text, got {_shown(no_run)}"
        no_run = ""
    return Dispatch(
        key=inert(key),
        workflow=inert(text["workflow"]) if isinstance(text["workflow"], str) else "",
        inputs=inputs,
        dry_run=dry_run is True,
        ref=inert(text["ref"]) if isinstance(text["ref"], str) else "",
        dispatched_at=inert(text["dispatched_at"]) if isinstance(text["dispatched_at"], str) else "",
        by=inert(text["by"]) if isinstance(text["by"], str) else "",
        run_id=run_id,
        problem=problem,
        no_run=inert(no_run)[:200],
    )


def _shown(value: Any) -> str:
    return inert(repr(value))[:60]
