"""What the checklist's actions know of a step besides its text: whether it is done for good, and
the values its commands' placeholders take. Shared by the step actions and the override."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cockpit.domain.checklist import ChecklistStep
    from cockpit.ports import Ports


def locked_reason(backend: Ports, step_id: str) -> str | None:
    """Why the step is done for good (the version is already on PyPI), or may not be acted on yet (the
    runbook's order: an earlier step's gate is not green), or None.

    Read from the last storage load (the ``pypi_gate`` it left in the shared results) and the last checklist
    report (a step it shows blocked).
    """
    step = next((s for s in backend.checklist_steps() if s.id == step_id), None)
    if step is None:
        return None
    done = _done_for_good(backend, step)
    if done:
        return done
    report = backend.shared.checklist
    view = next((v for v in report.steps if v.step.id == step_id), None) if report is not None else None
    if view is not None and view.blocked:
        return f"'{step.title}' is {view.blocked}"
    if step.needs and view is None:
        return f"'{step.title}' waits for the checklist to be judged (it needs '{step.needs}' green first)"
    return None


def _done_for_good(backend: Ports, step: ChecklistStep) -> str | None:
    from cockpit.services.checklist import locked_reason as why

    if not step.gate:
        return None
    if step.gate == "pypi_promoted":  # the automatic PyPI step reads the same answer of PyPI
        step = replace(step, gate="pypi_not_published")
    return why(step, backend.shared.pypi_gate if step.gate == "pypi_not_published" else None) or None


def placeholder_values(backend: Ports) -> dict[str, str]:
    """``{version}``, ``{branch}``, ``{remote}`` from the config; ``{rc_tag}`` the next RC tag."""
    from cockpit.actions.rc_tag import next_rc_tag

    rel = backend.config.release
    return {
        "version": rel.version,
        "branch": rel.branch,
        "remote": backend.config.git.remote,
        "rc_tag": next_rc_tag(rel.version, backend.git.tags()),
    }
