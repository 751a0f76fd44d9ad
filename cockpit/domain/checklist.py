"""The promotion checklist: steps from a template and the sign-offs recorded against them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


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
    step_id: str
    done: bool
    who: str
    when: str  # ISO 8601, UTC
    note: str = ""


@dataclass(frozen=True)
class AuditEntry:
    when: str
    who: str
    action: str
    target: str
    outcome: str
    detail: str = ""
