"""Every action the cockpit offers, registered against a backend's adapters.

Targets are domain objects: a ``MilestoneItem``, a ``PickRow``, a ``RepoCIVerdict``, an
``ItemDiff``, a checklist step id. Each action's ``describe`` is its exact dry-run text.
"""

from __future__ import annotations

import webbrowser
from typing import TYPE_CHECKING, Any

from cockpit.actions.registry import Action, Danger
from cockpit.domain.github import ItemState
from cockpit.errors import ActionRefused

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def _open(url: str) -> str:
    if not url:
        raise ActionRefused("this row has no URL to open")
    webbrowser.open(url)
    return f"opened {url}"


def _validation_key(backend: "CockpitBackend", item: Any) -> str:
    return f"{backend.repository}#{item.number}:validation"


def register_actions(backend: "CockpitBackend") -> None:
    """Register the milestone, cherry-pick, CI, branch-diff and checklist actions."""
    reg, gh, repo = backend.actions, backend.github, backend.repository
    rel = backend.config.release

    def url_of(target: Any) -> str:
        return getattr(target, "html_url", "") or getattr(getattr(target, "request", None), "html_url", "")

    for pane in ("milestone", "picks", "ci", "branch"):
        reg.register(Action(f"{pane}.open", "Open in browser", Danger.SAFE, pane,
                            run=lambda t: _open(url_of(t)), describe=lambda t: f"open {url_of(t)}"))

    # -- milestone --
    reg.register(Action(
        "milestone.remove", "Remove from milestone", Danger.MUTATING, "milestone",
        run=lambda item: (gh.set_milestone(repo, item.number, None), f"#{item.number} removed from the milestone")[1],
        describe=lambda item: f"PATCH /repos/{repo}/issues/{item.number} {{\"milestone\": null}}",
    ))

    def validation_text(item: Any) -> str:
        return backend.config.validation_comment.format(version=rel.version, number=item.number, branch=rel.branch)

    def validate(item: Any) -> str:
        comment = gh.create_comment(repo, item.number, validation_text(item))
        backend.state.ledger_put(_validation_key(backend, item), comment.id)
        return f"validation comment posted on #{item.number}"

    def validate_applicable(item: Any) -> str | None:
        if item.state is ItemState.OPEN:
            return f"#{item.number} is still open: validate closed items only"
        if backend.state.ledger_get(_validation_key(backend, item)) is not None:
            return f"#{item.number} already has its validation comment (posted from this session)"
        return None

    reg.register(Action(
        "milestone.validate", "Post validation comment", Danger.MUTATING, "milestone",
        run=validate, applicable=validate_applicable,
        describe=lambda item: f"POST /repos/{repo}/issues/{item.number}/comments: {validation_text(item)!r}",
    ))

    # -- cherry-picks: target is (trunk_pr_number, category, fixes_url or None) --
    def bot_text(target: tuple[int, str, str | None]) -> str:
        from cockpit.services.pick_parser import bot_command

        _, category, fixes = target
        return bot_command(branch=rel.branch, category=category, fixes=fixes)

    def bot_applicable(target: tuple[int, str, str | None]) -> str | None:
        try:
            bot_text(target)
        except ValueError as exc:
            return str(exc)
        return None

    reg.register(Action(
        "picks.bot_command", "Post cherry-pick command", Danger.MUTATING, "picks",
        run=lambda t: (gh.create_comment(repo, t[0], bot_text(t)), f"posted on #{t[0]}: {bot_text(t)}")[1],
        applicable=bot_applicable,
        describe=lambda t: f"comment on #{t[0]}: {bot_text(t)}",
    ))
    reg.register(Action(
        "picks.reply", "Reply on the tracker", Danger.MUTATING, "picks",
        run=lambda text: (gh.create_comment(repo, rel.tracker_issue, text), f"replied on #{rel.tracker_issue}")[1],
        describe=lambda text: f"comment on #{rel.tracker_issue}: {text!r}",
    ))

    # -- CI: target is a RepoCIVerdict --
    def failed_runs(verdict: Any) -> list[int]:
        return sorted({j.run_id for j in verdict.failed if j.run_id is not None})

    def rerun(verdict: Any) -> str:
        runs = failed_runs(verdict)
        for run_id in runs:
            gh.rerun_failed_jobs(verdict.repository, run_id)
        return f"re-ran failed jobs of {len(runs)} run(s) in {verdict.repository}"

    reg.register(Action(
        "ci.rerun", "Re-run failed jobs", Danger.MUTATING, "ci",
        run=rerun,
        applicable=lambda v: None if failed_runs(v) else f"{v.repository} has no failed jobs to re-run",
        describe=lambda v: "; ".join(f"POST /repos/{v.repository}/actions/runs/{r}/rerun-failed-jobs" for r in failed_runs(v)),
    ))

    # -- branch diff: target is an ItemDiff (or a RevertOwed) --
    def shas(target: Any) -> list[str]:
        if hasattr(target, "revert_sha"):
            return [target.revert_sha]
        return list(target.commits)

    def pick_command(target: Any) -> str:
        return " && ".join(f"git cherry-pick -x {sha}" for sha in shas(target))

    reg.register(Action(
        "branch.copy_pick", "Copy cherry-pick command", Danger.SAFE, "branch",
        run=pick_command, describe=pick_command,
        applicable=lambda t: None if shas(t) else "no trunk commit is known for this row",
    ))

    def branch_name(target: Any) -> str:
        number = getattr(target, "number", None) or getattr(target, "reverted_pr", None) or shas(target)[0][:10]
        return f"cherry-pick-{number}-{rel.branch.replace('/', '-')}"

    def pick_branch(target: Any) -> str:
        name = branch_name(target)
        backend.git.create_branch(name, rel.branch)
        backend.git.cherry_pick(shas(target), branch=name)
        return f"made local branch {name} from {rel.branch} with {len(shas(target))} pick(s); nothing pushed"

    reg.register(Action(
        "branch.pick_branch", "Make local pick branch", Danger.MUTATING, "branch",
        run=pick_branch,
        applicable=lambda t: None if shas(t) else "no trunk commit is known for this row",
        describe=lambda t: f"git branch {branch_name(t)} {rel.branch} && {pick_command(t)} (on {branch_name(t)}; never pushed)",
    ))

    # -- checklist --
    def toggle(step_id: str) -> str:
        current = backend.state.signoffs().get(step_id)
        done = not (current and current.done)
        backend.state.set_signoff(step_id, done=done, who=backend.who,
                                  note=current.note if current else "",
                                  when=backend.clock().isoformat(timespec="seconds"))
        return f"{step_id} {'signed off' if done else 'reopened'} by {backend.who}"

    reg.register(Action(
        "checklist.toggle", "Tick or untick a step", Danger.MUTATING, "checklist",
        run=toggle, describe=lambda step_id: f"record in {backend.state.path}: {step_id} by {backend.who}",
    ))

    def note(target: tuple[str, str]) -> str:
        backend.state.set_note(target[0], target[1])
        return f"note saved on {target[0]}"

    reg.register(Action(
        "checklist.note", "Add a note to a step", Danger.MUTATING, "checklist",
        run=note, describe=lambda t: f"record note on {t[0]} in {backend.state.path}",
    ))
