"""CI actions: re-run the failed jobs of a repository's failing runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.actions.registry import Action, ActionRegistry, Danger

if TYPE_CHECKING:
    from cockpit.ports import Ports


def register(reg: ActionRegistry, backend: Ports) -> None:

    def failed_runs(verdict: Any) -> list[int]:
        return sorted({j.run_id for j in verdict.failed if j.run_id is not None})

    def rerun(verdict: Any) -> str:
        runs = failed_runs(verdict)
        for run_id in runs:
            backend.github.rerun_failed_jobs(verdict.repository, run_id)
        return f"re-ran failed jobs of {len(runs)} run(s) in {verdict.repository}"

    reg.register(
        Action(
            "ci.rerun",
            "Re-run failed jobs",
            Danger.MUTATING,
            "ci",
            run=rerun,
            applicable=lambda v: None if failed_runs(v) else f"{v.repository} has no failed jobs to re-run",
            describe=lambda v: "; ".join(
                f"POST /repos/{v.repository}/actions/runs/{r}/rerun-failed-jobs" for r in failed_runs(v)
            ),
        )
    )
