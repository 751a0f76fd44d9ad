"""Checklist actions: tick or untick a manual step, keep a note on it (in the state file)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.registry import Action, Danger

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def register(backend: "CockpitBackend") -> None:
    reg = backend.actions

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
