"""The promotion checklist: steps from a template and the sign-offs recorded against them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from cockpit.domain.gates import Gate


class StepKind(StrEnum):
    """How the runbook marks a step: ``automatic`` (a workflow or a push does the work, then it is checked),
    ``gate`` (a validation that must pass before going on), ``manual`` (a person acts and signs).

    ``automatic`` and ``gate`` steps are decided by their gate; a ``manual`` step by a signature, with the
    gate it names shown beside it."""

    MANUAL = "manual"
    AUTOMATIC = "automatic"
    GATE = "gate"

    @property
    def judged(self) -> bool:
        """Decided by a gate rather than by a signature."""
        return self is not StepKind.MANUAL


@dataclass(frozen=True)
class StepWorkflow:
    """The workflow that performs a step, and what tells this release's runs from the others.

    ``repository`` and ``path`` name the file (``pytorch/test-infra``, ``.github/workflows/release-pypi.yml``);
    its runs are the ones started by ``event`` on ``ref``. ``inputs``: the dispatch inputs that identify this
    release, each with the values that count (a list means one run per value: one per package);
    ``real_run``: the input and value that make a run real rather than a dry run (None when the workflow
    has no dry run). ``source``: the repository, file and commit these were read from.
    """

    repository: str
    path: str
    ref: str
    event: str = "workflow_dispatch"
    inputs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    real_run: tuple[str, str] | None = None
    source: str = ""

    @property
    def file_name(self) -> str:
        """``release-pypi.yml``: GitHub takes it where it takes the workflow's id."""
        return self.path.rsplit("/", 1)[-1]

    def is_dry_run(self, inputs: dict[str, str]) -> bool:
        """Whether a dispatch with ``inputs`` is a dry run: its dry-run input is anything but the real value
        (a missing input takes the workflow's default, which is the dry run)."""
        if self.real_run is None:
            return False
        name, real = self.real_run
        return str(inputs.get(name, "")).strip().lower() != real.lower()


@dataclass(frozen=True)
class Dispatch:
    """One entry of the dispatch journal: a workflow run the cockpit started, and the inputs it sent.

    Written before the dispatch is sent (``run_id`` 0) and completed with the run's id once GitHub says
    which run it made: GitHub's run listing never reports a dispatch's inputs, so this is the only place
    they are known. ``workflow`` is ``owner/name:path``."""

    key: str
    workflow: str
    inputs: tuple[tuple[str, str], ...]
    dry_run: bool
    ref: str
    dispatched_at: str  # ISO 8601, UTC
    by: str
    run_id: int = 0
    problem: str = ""  # what was wrong with this entry of the state file (then it is not counted)
    no_run: str = ""  # why this dispatch is known to have made no run (looked for long enough): not awaited

    def input(self, name: str) -> str | None:
        return next((v for k, v in self.inputs if k == name), None)


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
    minor_only: bool = False  # skipped for a patch release (the runbook's compatibility-matrix step)
    runbook: int | None = None  # the runbook's step number this step is, or is part of
    needs: str | None = None  # the step whose gate must be green before this one may be run, ticked or signed
    workflow: StepWorkflow | None = None  # the workflow that performs it: judged from that workflow's runs


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
    intent: tuple[tuple[str, str], ...] = ()
    """On a ``started`` entry: what the action was about to change, to look at after an interruption
    (``cockpit.actions.intents.Intent``: kind, where, what, key)."""
