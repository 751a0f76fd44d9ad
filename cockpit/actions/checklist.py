"""Checklist actions: tick or untick a manual step, keep a note on it (in the state file), and run a
step's dry run and command (output streamed to the caller, the result in the audit log)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cockpit.actions.checklist_override import register_override
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.actions.step_context import locked_reason, placeholder_values
from cockpit.domain.checklist import StepRun
from cockpit.domain.stamps import utc_stamp
from cockpit.errors import ActionRefused
from cockpit.gates import registry

if TYPE_CHECKING:
    from cockpit.ports import Ports

__all__ = ["StepRun", "locked_reason", "placeholder_values", "register"]


def register(reg: ActionRegistry, backend: Ports) -> None:

    def toggle(step_id: str) -> str:
        from cockpit.services.status_read import with_team_signoffs

        # as the pane shows it: a step another manager signed (status comment) is unticked, not signed again
        current = with_team_signoffs(backend.state.signoffs(), backend.shared.team_status).get(step_id)
        done = not (current and current.done)
        backend.state.set_signoff(
            step_id,
            done=done,
            who=backend.who,
            note=current.note if current else "",
            when=utc_stamp(backend.clock()),
        )
        return f"{step_id} {'signed off' if done else 'reopened'} by {backend.who}"

    def toggle_applies(step_id: str) -> str | None:
        step = next((s for s in backend.checklist_steps() if s.id == step_id), None)
        if step is not None and step.kind.judged:
            current = backend.state.signoffs().get(step_id)
            if not (current and current.done and current.override):
                return (
                    f"'{step.title}' is automatic: it follows its gate ({_title(step.gate)}); to sign it over a red or "
                    "unknown gate, override it with a note (checklist.override)"
                )
        return locked_reason(backend, step_id)

    reg.register(
        Action(
            "checklist.toggle",
            "Tick or untick a step",
            Danger.MUTATING,
            "checklist",
            run=toggle,
            describe=lambda step_id: f"record in {backend.state.path}: {step_id} by {backend.who}",
            applicable=toggle_applies,
            local=True,
        )
    )
    register_override(reg, backend)

    def note(target: tuple[str, str]) -> str:
        backend.state.set_note(target[0], target[1])
        return f"note saved on {target[0]}"

    reg.register(
        Action(
            "checklist.note",
            "Add a note to a step",
            Danger.MUTATING,
            "checklist",
            run=note,
            describe=lambda t: f"record note on {t[0]} in {backend.state.path}",
            local=True,
        )
    )

    def programs(target: StepRun, key: str):
        from cockpit.services.step_commands import step_programs

        text = getattr(target.step, key)
        if not text:
            raise ActionRefused(f"step '{target.step.id}' has no {key.replace('_', ' ')}")
        return step_programs(text, placeholder_values(backend), where=f"step '{target.step.id}', key '{key}'")

    def describe(key: str) -> Callable[[StepRun], str]:
        def text(target: StepRun) -> str:
            from cockpit.services.step_commands import shown

            return f"run in {backend.config.git.clone}: {shown(programs(target, key))}"

        return text

    def run(key: str) -> Callable[[StepRun], str]:
        return lambda target: backend.step_runner.run(programs(target, key), target.on_line)

    def applicable(key: str, irreversible: bool) -> Callable[[StepRun], str | None]:
        def why(target: StepRun) -> str | None:
            if not getattr(target.step, key):
                return f"'{target.step.title}' has no {key.replace('_', ' ')} to run"
            if key == "command" and target.step.irreversible != irreversible:
                kind = "cannot be undone" if target.step.irreversible else "can be undone"
                right = "checklist.run_irreversible" if target.step.irreversible else "checklist.run_command"
                return f"'{target.step.title}' {kind}: run it with {right}"
            return locked_reason(backend, target.step.id)

        return why

    commands = (  # id, title, danger, the step's key it runs, whether it is the irreversible one
        ("checklist.dry_run", "Dry-run the step's command", Danger.MUTATING, "dry_run", False),
        ("checklist.run_command", "Run the step's command", Danger.MUTATING, "command", False),
        (
            "checklist.run_irreversible",
            "Run the step's command (cannot be undone)",
            Danger.IRREVERSIBLE,
            "command",
            True,
        ),
    )
    for action_id, title, danger, key, irreversible in commands:
        reg.register(
            Action(
                action_id,
                title,
                danger,
                "checklist",
                run=run(key),
                describe=describe(key),
                applicable=applicable(key, irreversible),
                label=lambda target: target.step.id,
            )
        )


def _title(gate: str | None) -> str:
    """A gate's title for a sentence (its id only where no gate of that name is declared)."""
    spec = registry().get(gate or "")
    return spec.title if spec is not None else gate or "none named"
