"""A watched run as text lines: the CLI's progress and the watch screen's body (``gh run watch``'s picture). Pure."""

from __future__ import annotations

from cockpit.domain.workflows import FINISHED, RunWatch

__all__ = ["watch_lines"]


def watch_lines(w: RunWatch) -> list[str]:
    """The watch as text lines (the CLI's progress and the watch screen's body)."""
    run = w.run
    state = run.conclusion if w.finished else run.status
    lines = [f"run {run.id} · {run.name} · {state} · started by {run.actor} · {run.created_at} · {run.html_url}"]
    for job in w.jobs:
        lines.append(f"  {_mark(job.status, job.conclusion)} {job.name} ({job.conclusion or job.status})")
        for step in job.steps:
            if step.conclusion not in (None, "success", "skipped") or step.status != FINISHED:
                lines.append(f"      {_mark(step.status, step.conclusion)} {step.number}. {step.name}")
        tail = w.log_of(job.id)
        if tail:
            lines.append(f"    the last {len(tail)} lines of its log:")
            lines += [f"    | {line}" for line in tail]
    for deployment in w.pending:
        who = ", ".join(deployment.reviewers) or "its reviewers"
        can = "you may approve it" if deployment.current_user_can_approve else "you may not approve it"
        lines.append(f"  waits for approval to deploy to {deployment.environment} (by {who}; {can})")
    lines += [f"  ! {problem}" for problem in w.problems]
    return lines


def _mark(status: str, conclusion: str | None) -> str:
    if status != FINISHED:
        return "…"
    return {"success": "✓", "skipped": "-", None: "?"}.get(conclusion, "✗")
