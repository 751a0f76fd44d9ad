"""The promotion checklist: steps from a template and the sign-offs recorded against them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from cockpit.domain.gates import Gate


class StepKind(StrEnum):
    MANUAL = "manual"
    AUTOMATIC = "automatic"


@dataclass(frozen=True)
class ChecklistStep:
    id: str
    section: str
    title: str
    help: str = ""
    kind: StepKind = StepKind.MANUAL
    gate: str | None = None  # for automatic steps: the gate name it reads
    command: str | None = None
    dry_run: str | None = None
    irreversible: bool = False
    required: bool = True
    after_go: bool = False  # done after the go decision (the promotion itself): go/no-go does not wait for it
    action: str | None = None  # a built-in action `x` runs instead of the command ("rc_tag")
    patch_only: bool = False  # its section applies to patch releases only (2.5.1, not 2.5.0)


def _ignore(line: str) -> None:
    """Output nobody asked to see."""


@dataclass(frozen=True)
class StepRun:
    """The target of a step's command actions: the step, and where its output lines go (any thread)."""

    step: ChecklistStep
    on_line: Callable[[str], None] = field(default=_ignore, compare=False)


@dataclass(frozen=True)
class Signoff:
    """A person's tick on a step. ``override`` marks a tick given over a gate that was not green: the
    gate's status and summary at that moment are kept, with the note that says why (required)."""

    step_id: str
    done: bool
    who: str
    when: str  # ISO 8601, UTC
    note: str = ""
    override: bool = False
    gate_status: str = ""  # the gate's status when the override was signed: red / unknown
    gate_summary: str = ""
    override_note: str = ""
    problem: str = ""  # what was wrong with this entry of the state file (then it is not counted)


@dataclass(frozen=True)
class StepOverride:
    """The target of ``checklist.override``: sign ``step`` over ``gate`` (as the release manager saw it)."""

    step: ChecklistStep
    gate: Gate
    note: str


@dataclass(frozen=True)
class AuditEntry:
    when: str
    who: str
    action: str
    target: str
    outcome: str
    detail: str = ""
