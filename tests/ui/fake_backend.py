"""A hand-made release (acme/torchlet 2.5.0) behind the Backend protocol, for UI tests and demos.

Nothing here touches the network, git or the clock: every time is fixed relative to ``NOW``.
``FakeRegistry`` implements the ``ActionCatalog`` protocol and records what ran; ``FakeState``
implements ``SessionState`` in memory (sign-offs, notes, preferences, the ledger). Together they
make ``FakeBackend`` a whole ``Backend``: ``tests/unit/test_seams.py`` has the type checker say so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fake_world import (  # a sibling module: pytest puts tests/ui on sys.path
    CHECKLIST_STEPS,
    branch_report,
    ci_report,
    milestone_report,
    picks_report,
    storage_report,
)

from cockpit.config import Config, GitConfig, GitHubConfig
from cockpit.domain.checklist import Dispatch, Signoff, StepKind
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, ItemState, Milestone, MilestoneItem
from cockpit.domain.release import Release
from cockpit.domain.reports import ChecklistReport, GoNoGo, StepView
from cockpit.errors import ActionRefused, CockpitError
from cockpit.gates import gate_title
from cockpit.services.checklist import standing_override
from cockpit.services.overview import BLOCKING  # the gates that hold GO, as the registry declares them
from cockpit.services.triage import triage_report as _triage_report
from cockpit.state.read_only import ReadOnlyReason

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@dataclass
class FakeAction:
    id: str
    title: str
    danger: str
    pane: str


@dataclass
class ActionResult:
    ok: bool
    message: str


class FakeState:
    """In-memory sign-offs, notes, preferences and ledger, with the store's method names.

    It never changes behind the session's back and always writes (the registry decides what a
    read-only session may do); ``ledger`` may be filled in by a test ("#90877 was validated").
    """

    def __init__(self) -> None:
        self._signoffs: dict[str, Signoff] = {}
        self.prefs: dict[str, Any] = {}
        self.ledger: dict[str, int | str] = {}
        self.triage: dict[str, dict[str, bool]] = {}
        self.readings: dict[str, str] = {}  # confirmed readings of prose pick requests
        self.sizes: dict[str, dict[str, int]] = {}  # RC tag -> wheel filename -> bytes
        self.path = Path("/tmp/torchlet-session.toml")
        self.read_only = False
        self.problem: str | None = None
        self.why_read_only: ReadOnlyReason | None = None
        self.closed = False

    def reload_if_changed(self) -> bool:
        return False

    def close(self) -> None:
        self.closed = True

    def ledger_get(self, key: str) -> int | str | None:
        return self.ledger.get(key)

    def ledger_put(self, key: str, value: int | str) -> None:
        self.ledger[key] = value

    def pref(self, key: str, default: Any = None) -> Any:
        return self.prefs.get(key, default)

    def set_pref(self, key: str, value: Any) -> None:
        self.prefs[key] = value

    def pick_readings(self) -> dict[str, Any]:
        return dict(self.readings)

    def confirm_pick_reading(self, key: str, *, reading: str | None, who: str) -> None:
        if reading is None:
            self.readings.pop(key, None)
        else:
            self.readings[key] = reading

    def triage_answers(self) -> dict[str, dict[str, bool]]:
        return {key: dict(entry) for key, entry in self.triage.items()}

    def rc_sizes(self) -> dict[str, dict[str, int]]:
        return {tag: dict(sizes) for tag, sizes in self.sizes.items()}

    def record_rc_sizes(self, tag: str, sizes: dict[str, int]) -> bool:
        changed = self.sizes.get(tag) != sizes
        self.sizes[tag] = dict(sizes)
        return changed

    def dispatches(self) -> list[Dispatch]:
        return []

    def journal_dispatch(self, workflow: str, inputs: dict[str, str], *, dry_run: bool, ref: str, by: str) -> str:
        raise AssertionError("the UI tests' fake starts no workflow")

    def complete_dispatch(self, key: str, run_id: int) -> None:
        raise AssertionError("the UI tests' fake starts no workflow")

    def give_up_dispatch(self, key: str, why: str) -> None:
        raise AssertionError("the UI tests' fake starts no workflow")

    def set_triage_answer(self, key: str, question: str, value: bool | None) -> None:
        entry = self.triage.setdefault(key, {})
        if value is None:
            entry.pop(question, None)
        else:
            entry[question] = value

    def signoffs(self) -> dict[str, Signoff]:
        return dict(self._signoffs)

    def set_signoff(self, step_id: str, *, done: bool, who: str, note: str = "", when: str | None = None) -> None:
        old = self._signoffs.get(step_id)
        note = note or (old.note if old else "")
        self._signoffs[step_id] = Signoff(step_id, done, who, when or NOW.isoformat(), note)

    def sign_override(self, step_id: str, *, who: str, note: str, gate_status: str, gate_summary: str) -> None:
        old = self._signoffs.get(step_id)
        self._signoffs[step_id] = Signoff(
            step_id,
            True,
            who,
            NOW.isoformat(),
            old.note if old else "",
            override=True,
            gate_status=gate_status,
            gate_summary=gate_summary,
            override_note=note,
        )

    def set_note(self, step_id: str, note: str) -> None:
        old = self._signoffs.get(step_id) or Signoff(step_id, False, "rm", NOW.isoformat())
        self._signoffs[step_id] = replace(old, note=note)


ACTIONS = (
    FakeAction("milestone.open", "Open in browser", "safe", "milestone"),
    FakeAction("milestone.remove", "Remove from milestone", "mutating", "milestone"),
    FakeAction("milestone.validate", "Post the validation comment", "mutating", "milestone"),
    FakeAction("milestone.validate_all", "Post the validation comment on all closed issues", "mutating", "milestone"),
    FakeAction("milestone.validation_issue", "Create the validation issue", "mutating", "milestone"),
    FakeAction("picks.open", "Open the request in the browser", "safe", "picks"),
    FakeAction("picks.bot_command", "Post the cherry-pick bot command", "mutating", "picks"),
    FakeAction("picks.merge", "Merge the release PR", "mutating", "picks"),
    FakeAction("picks.confirm_reading", "Confirm the reading of a prose request", "mutating", "picks"),
    FakeAction("ci.rerun", "Re-run failed jobs", "mutating", "ci"),
    FakeAction("branch.open", "Open in browser", "safe", "branch"),
    FakeAction("branch.pick_branch", "Make a local pick branch", "mutating", "branch"),
    FakeAction("checklist.toggle", "Tick or untick a step", "mutating", "checklist"),
    FakeAction("checklist.note", "Add a note to a step", "mutating", "checklist"),
    FakeAction(
        "checklist.override", "Sign a step over its red or unknown gate (note required)", "mutating", "checklist"
    ),
    FakeAction("checklist.promote_pypi", "Upload the wheels to PyPI", "irreversible", "checklist"),
    FakeAction("triage.open", "Open in browser", "safe", "triage"),
    FakeAction("triage.answer", "Answer a patch-release criterion", "mutating", "triage"),
    FakeAction("triage.add_to_milestone", "Add to the patch milestone", "mutating", "triage"),
    FakeAction("triage.drop_label", "Drop the triage label", "mutating", "triage"),
)


class FakeRegistry:
    """The registry's API over ``ACTIONS``; ``runs`` lists ``(id, target)`` of what really ran.

    Targets are those of ``cockpit.actions.catalog``: MilestoneItem, PickRow,
    ``(trunk_pr, category, fixes_url | None)``, RepoCIVerdict, ItemDiff / RevertOwed, step id.
    """

    def __init__(self, state: FakeState, *, read_only: bool = False, who: str = "rm") -> None:
        self.state, self.read_only, self.who = state, read_only, who
        self.runs: list[tuple[str, Any]] = []
        self._actions = {a.id: a for a in ACTIONS}
        self.told: list[str] = []  # what ``interrupted`` tells, once
        self.told_in: list[str] = []  # the threads it was asked from

    def for_pane(self, pane: str) -> list[FakeAction]:
        return [a for a in ACTIONS if a.pane == pane]

    def all(self) -> list[FakeAction]:
        return list(self._actions.values())

    @property
    def read_only_reason(self) -> str:
        return "read-only session"

    def get(self, action_id: str) -> FakeAction:
        return self._actions[action_id]

    def dry_run(self, action_id: str, target: Any) -> str:
        number = getattr(target, "number", None)
        label = f"#{number}" if number is not None else getattr(target, "repository", None) or repr(target)
        return f"{action_id} {label}"

    def interrupted(self) -> list[str]:
        import threading

        self.told_in.append(threading.current_thread().name)
        told, self.told = self.told, []
        return told

    def refusal(self, action_id: str, target: Any) -> str | None:
        action = self._actions.get(action_id)
        if action is None:
            return f"no action '{action_id}'"
        if self.read_only and action.danger != "safe":
            return f"read-only session: {action.title} would run {self.dry_run(action_id, target)}"
        return None

    def run(
        self,
        action_id: str,
        target: Any,
        *,
        confirmed: bool,
        typed: str | None = None,
        expected_typed: str | None = None,
    ) -> ActionResult:
        reason = self.refusal(action_id, target)
        action = self._actions.get(action_id)
        if reason is None and action.danger != "safe" and not confirmed:
            reason = "not confirmed"
        if reason is None and action.danger == "irreversible" and typed != expected_typed:
            reason = f"type {expected_typed} to confirm"
        if reason:
            return ActionResult(False, reason)
        self.runs.append((action_id, target))
        if action_id == "checklist.toggle":
            old = self.state.signoffs().get(target)
            self.state.set_signoff(target, done=not (old and old.done), who=self.who)
        elif action_id == "checklist.override":
            if not target.note.strip():
                return ActionResult(False, "an override needs a note saying why; the note was empty")
            self.state.sign_override(
                target.step.id,
                who=self.who,
                note=target.note,
                gate_status=target.gate.status.value,
                gate_summary=target.gate.summary,
            )
        elif action_id == "checklist.note":
            self.state.set_note(*target)
        elif action_id == "picks.confirm_reading":
            self.state.confirm_pick_reading(target.key, reading=target.reading, who=self.who)
        elif action_id == "triage.answer":
            self.state.set_triage_answer(f"acme/torchlet#{target.candidate.number}", target.question, target.value)
        return ActionResult(True, f"{action.title}: done")


def triage_report(answers: dict[str, dict[str, bool]]):
    """Two regressions labelled for triage review and one already in the patch milestone."""

    def item(number: int, title: str, kind: ItemKind = ItemKind.ISSUE) -> MilestoneItem:
        return MilestoneItem(
            number,
            kind,
            title,
            ItemState.OPEN,
            f"https://github.com/acme/torchlet/issues/{number}",
            labels=("triage review",),
            author="user",
        )

    labelled = [
        item(9101, "torchlet.load crashes on 2.5.0 checkpoints"),
        item(9102, "Docs: wrong default in torchlet.nn.Linear"),
        item(9103, "Fix dataloader hang", ItemKind.PULL),
    ]
    return _triage_report(
        labelled,
        milestone=Milestone(7, "2.5.1", "open"),
        in_milestone={9103},
        answers=answers,
        repository="acme/torchlet",
        label="triage review",
    )


def _config() -> Config:
    release = Release("2.5.0", "acme/torchlet", "release/2.5", milestone=7, tracker_issue=900)
    return Config(
        path=Path("/tmp/cockpit.toml"),
        release=release,
        github=GitHubConfig(),
        git=GitConfig(clone=Path("/tmp/torchlet")),
    )


@dataclass
class FakeBackend:
    """The Backend protocol over hand-made reports. ``fail`` maps a loader name to the error it raises."""

    read_only: bool = False
    fail: dict[str, Exception] = field(default_factory=dict)
    on_load: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        self.config = _config()
        self.state = FakeState()
        self.actions = FakeRegistry(self.state, read_only=self.read_only)
        self.loads: list[str] = []

    def _load(self, name: str, build: Callable[[], Any]) -> Any:
        self.loads.append(name)
        if self.on_load:
            self.on_load(name)
        if name in self.fail:
            raise self.fail[name]
        return build()

    def load_milestone(self):
        return self._load("milestone", lambda: milestone_report(NOW))

    def load_picks(self):
        return self._load("picks", lambda: picks_report(NOW))

    def load_ci(self):
        return self._load("ci", ci_report)

    def load_branch_diff(self):
        return self._load("branch_diff", branch_report)

    def load_storage(self):
        return self._load("storage", storage_report)

    def load_repositories(self, ci=None):
        return ()

    def load_triage(self):
        return self._load("triage", lambda: triage_report(self.state.triage_answers()))

    def load_checklist(self, gates: dict[str, Gate]) -> ChecklistReport:
        self._load("checklist", lambda: None)
        signoffs = self.state.signoffs()
        views = []
        for step in CHECKLIST_STEPS:
            if step.kind is StepKind.AUTOMATIC:
                unknown = Gate(step.gate or "", step.title, GateStatus.UNKNOWN, "not loaded yet")
                gate = gates.get(step.gate or "") or unknown
                signoff = signoffs.get(step.id)
                views.append(StepView(step, signoff, gate, override=standing_override(signoff, gate)))
            else:
                views.append(StepView(step, signoffs.get(step.id)))
        open_steps = [v for v in views if v.step.required and not v.done]
        status = GateStatus.GREEN if not open_steps else GateStatus.RED
        summary = "every required step done" if not open_steps else f"{len(open_steps)} required steps open"
        return ChecklistReport(tuple(views), Gate("checklist", gate_title("checklist"), status, summary))

    def go_no_go(self, gates: dict[str, Gate], checklist: ChecklistReport) -> GoNoGo:
        unsigned = tuple(
            v.step.id for v in checklist.steps if v.step.kind is StepKind.MANUAL and v.step.required and not v.done
        )
        blocking = [gates[name] for name in BLOCKING if name in gates]
        go = len(blocking) == len(BLOCKING) and all(g.status is GateStatus.GREEN for g in blocking) and not unsigned
        return GoNoGo(go, tuple(gates.values()), unsigned)

    def rate_limit_text(self) -> str:
        return "GitHub 4,873/5,000 · 41 requests"

    def workflow_start_form(self, step_id: str):
        raise ActionRefused(f"the UI tests' fake has no release workflows ({step_id})")

    def latest_workflow_run(self, step_id: str):
        return None

    def forget_reused(self, panes=None) -> None:
        self.forgotten = getattr(self, "forgotten", 0) + 1
        self.forgotten_panes = [*getattr(self, "forgotten_panes", []), None if panes is None else tuple(panes)]

    def watch_run(self, repository: str, run_id: int):
        raise ActionRefused(f"the UI tests' fake has no run {run_id} of {repository}")


def failing(name: str, message: str) -> dict[str, Exception]:
    """A ``fail`` map for one loader raising a CockpitError with ``message``."""
    return {name: CockpitError(message, title="GitHub")}
