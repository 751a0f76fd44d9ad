"""Every operation that changes the world, registered once with its danger level and dry-run text.

Key bindings, the command palette and the CLI all run actions through ``ActionRegistry.run``, which
enforces the read-only promise and the confirmations, and writes each attempt to the audit log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from cockpit.actions.intents import INTERRUPTED, STARTED, UNKNOWN, Finding, Intent
from cockpit.domain.checklist import AuditEntry
from cockpit.domain.stamps import utc_stamp
from cockpit.errors import ActionRefused, CockpitError

if TYPE_CHECKING:
    from cockpit.state.store import StateStore


class Danger(StrEnum):
    """How much care an action needs: ``safe`` runs at once (open, copy) and is not audited;
    ``mutating`` needs a confirmation; ``irreversible`` needs the version typed back."""

    SAFE = "safe"
    MUTATING = "mutating"
    IRREVERSIBLE = "irreversible"


@dataclass(frozen=True)
class Action:
    """One registered operation.

    ``describe(target)`` is the exact dry-run text (the command or request that would be made);
    ``run(target)`` does it and returns a one-line result; ``applicable(target)`` returns why it
    cannot run now, or None. ``label(target)`` names the target in the audit log (default: its URL,
    ``#number`` or ``str``).
    """

    id: str
    title: str
    danger: Danger
    pane: str
    run: Callable[[Any], str]
    describe: Callable[[Any], str]
    applicable: Callable[[Any], str | None] | None = None
    label: Callable[[Any], str] | None = None
    local: bool = False
    """It changes only the state file (a tick, a note): no intent is written first, its record is its audit entry."""
    intent: Callable[[Any], Intent] | None = None
    """What the action is about to change (kind, where, what, key), written with its ``started`` entry."""
    look: Callable[[Intent], Finding] | None = None
    """After an interruption: whether the intended change reached the world (``cockpit.actions.intents``)."""


@dataclass(frozen=True)
class ActionResult:
    ok: bool
    message: str


class ActionRegistry:
    """The actions of one session, and the only way to run them.

    The session is read-only when ``read_only`` is given or when the state store itself is
    read-only (another session holds the lock, or the file could not be read): acting without an
    audit record is not allowed.
    """

    def __init__(
        self,
        state: StateStore,
        *,
        read_only: bool,
        who: str | Callable[[], str],
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.state = state
        self._read_only = read_only
        self._who = who
        self._clock = clock
        self._actions: dict[str, Action] = {}

    @property
    def who(self) -> str:
        """Who acts: given as a name, or asked for when first needed (it may read git's config)."""
        return self._who() if callable(self._who) else self._who

    @property
    def read_only(self) -> bool:
        return self._read_only or self.state.read_only

    @property
    def read_only_reason(self) -> str:
        """ "read-only session", with why and what to do when the session meant to write (lock held
        elsewhere, state file unreadable; the backend is then read-only too, so check the store first)."""
        problem = self.state.problem
        return f"read-only session ({problem})" if problem else "read-only session"

    def register(self, action: Action) -> Action:
        """Add an action; ids are unique."""
        if action.id in self._actions:
            raise CockpitError(f"action '{action.id}' is registered twice", title="Actions")
        self._actions[action.id] = action
        return action

    def get(self, action_id: str) -> Action:
        try:
            return self._actions[action_id]
        except KeyError:
            known = ", ".join(sorted(self._actions)) or "none"
            raise ActionRefused(f"no action named '{action_id}' (known: {known})") from None

    def all(self) -> list[Action]:
        """Every action, in registration order."""
        return list(self._actions.values())

    def for_pane(self, pane: str) -> list[Action]:
        return [a for a in self._actions.values() if a.pane == pane]

    def dry_run(self, action_id: str, target: Any) -> str:
        """The exact command or request the action would make, without making it."""
        return _describe(self.get(action_id), target)

    def refusal(self, action_id: str, target: Any) -> str | None:
        """Why the action cannot run now on ``target`` (read-only, not applicable), or None."""
        action = self.get(action_id)
        why_not: str | None = None
        if action.applicable is not None:
            try:
                why_not = action.applicable(target)
            except CockpitError as exc:
                why_not = f"{action.title} cannot tell whether it applies: {exc}"
        if action.danger is not Danger.SAFE and self.read_only:
            # what it would do, only where it would do it (issue 32: a viewer's v on an open issue described
            # a POST the writing cockpit refuses)
            said = (
                f"{action.title} does not apply ({why_not})"
                if why_not
                else f"{action.title} would {_describe(action, target)}"
            )
            return f"{self.read_only_reason}: {said}"
        return why_not

    def run(
        self,
        action_id: str,
        target: Any,
        *,
        confirmed: bool,
        typed: str | None = None,
        expected_typed: str | None = None,
    ) -> ActionResult:
        """Run the action if allowed; never raises ``CockpitError`` (it becomes ``ok=False``).

        Mutating actions need ``confirmed``; irreversible ones need ``typed == expected_typed``
        (the version typed back). Every attempt of a non-safe action is audited, in the same write
        of the state file as what the action recorded there (a sign-off, a note, the ledger): a
        kill leaves both or neither.
        """
        action = self.get(action_id)
        if action.danger is Danger.SAFE or self.read_only:
            return self._run(action, target, confirmed=confirmed, typed=typed, expected_typed=expected_typed)
        may = self._reason(action, target, confirmed=confirmed, typed=typed, expected_typed=expected_typed) is None
        if may and not action.local:
            try:  # the intent reaches the file before anything outside changes: a kill leaves a trace
                self.state.audit(self._intent_entry(action, target))
            except CockpitError as exc:
                return ActionResult(False, f"{action.title} was not started: the state file cannot record it: {exc}")
        result: ActionResult | None = None
        try:
            with self.state.one_write():
                result = self._run(action, target, confirmed=confirmed, typed=typed, expected_typed=expected_typed)
        except CockpitError as exc:  # the write failed: neither the action's record nor its audit entry is kept
            if result is None:
                return ActionResult(False, f"{action.title} failed and could not be recorded in the state file: {exc}")
            # what the action did outside stays done; the command must still fail: a write it attempted failed
            return ActionResult(False, f"{result.message}; but the state file was not written: {exc}")
        return result

    def _run(
        self, action: Action, target: Any, *, confirmed: bool, typed: str | None, expected_typed: str | None
    ) -> ActionResult:
        reason = self._reason(action, target, confirmed=confirmed, typed=typed, expected_typed=expected_typed)
        if reason is not None:
            return self._finish(action, target, "refused", reason, ok=False)
        try:
            message = action.run(target)
        except CockpitError as exc:
            return self._finish(action, target, "failed", str(exc), ok=False)
        except Exception as exc:
            self._finish(action, target, "failed", f"unexpected {type(exc).__name__}: {exc}", ok=False)
            raise
        return self._finish(action, target, "ok", message, ok=True)

    def _reason(
        self, action: Action, target: Any, *, confirmed: bool, typed: str | None, expected_typed: str | None
    ) -> str | None:
        """Why the action may not run now: refused, not confirmed, the version not typed back; None when it may."""
        action_id = action.id
        reason = self.refusal(action_id, target)
        if reason is None and action.danger is Danger.MUTATING and not confirmed:
            reason = f"{action.title} needs a confirmation first; it would {_describe(action, target)}"
        if reason is None and action.danger is Danger.IRREVERSIBLE:
            if not expected_typed:
                reason = f"{action.title} cannot be undone and has no confirmation text to type"
            elif typed != expected_typed:
                shown = "nothing" if not typed else f"'{typed}'"
                reason = f"{action.title} cannot be undone: type '{expected_typed}' to confirm (got {shown})"
        return reason

    def _entry(self, action: Action, target: Any, outcome: str, detail: str) -> AuditEntry:
        return AuditEntry(utc_stamp(self._clock()), self.who, action.id, _label(action, target), outcome, detail)

    def _intent_entry(self, action: Action, target: Any) -> AuditEntry:
        """The ``started`` entry, carrying what the action is about to change when it can say (a look-up that
        fails here fails the action too: then the entry says why it has no intent)."""
        entry = self._entry(action, target, STARTED, "the action started; its outcome follows")
        if action.intent is None:
            return entry
        try:
            intent = action.intent(target)
        except CockpitError as exc:
            return replace(entry, detail=f"the action started; its outcome follows (what it changes is unknown: {exc})")
        return replace(entry, intent=tuple(intent.fields().items()))

    def interrupted(self) -> list[str]:
        """The actions that started and never told their outcome (the cockpit was stopped or killed in between),
        each looked up in the world when the action can look (``Action.look``) and said in a line; recorded in
        the audit log (``done``, ``not done`` or ``unknown`` with the evidence; ``interrupted`` when the action
        cannot look) so each is told once. Reads GitHub or git: call it from a worker."""
        from cockpit.actions.intents import unfinished

        if self.read_only:
            return []
        said = []
        for entry in unfinished(self.state.audit_log()):
            action = self._actions.get(entry.action)
            title = action.title if action is not None else entry.action
            start = f"{title} on {entry.target}, started {entry.when} by {entry.who}, never finished"
            finding = self._look(action, entry)
            if finding is None:
                line = f"{start}: did it happen?"
                outcome = INTERRUPTED
            else:
                line = f"{start}; looked: {finding.outcome}: {finding.evidence}"
                outcome = finding.outcome
            self.state.audit(AuditEntry(utc_stamp(self._clock()), entry.who, entry.action, entry.target, outcome, line))
            said.append(line)
        return said

    @staticmethod
    def _look(action: Action | None, entry: AuditEntry) -> Finding | None:
        intent = Intent.read(dict(entry.intent))
        if action is None or action.look is None or intent is None:
            return None
        try:
            return action.look(intent)
        except CockpitError as exc:
            return Finding(UNKNOWN, f"the world could not be read ({exc}); look before trying again")
        except ValueError:  # a hand-edited intent: "#abc" where a number was written
            shown = ", ".join(f"{k}={v!r}" for k, v in intent.fields().items())
            return Finding(UNKNOWN, f"its intent in the state file cannot be read ({shown}); look before trying again")

    def _finish(self, action: Action, target: Any, outcome: str, message: str, *, ok: bool) -> ActionResult:
        if action.danger is Danger.SAFE or self.read_only:
            return ActionResult(ok, message)
        entry = self._entry(action, target, outcome, message)
        try:
            self.state.audit(entry)
        except CockpitError as exc:
            return ActionResult(False, f"{message}; but the audit log was not written: {exc}")
        return ActionResult(ok, message)


def _describe(action: Action, target: Any) -> str:
    try:
        return action.describe(target)
    except CockpitError as exc:
        return f"(cannot describe {action.title}: {exc})"


def _label(action: Action, target: Any) -> str:
    if action.label is not None:
        try:
            return action.label(target)
        except CockpitError:
            pass
    if isinstance(target, (str, int)):
        return str(target)
    url = getattr(target, "html_url", "")
    if isinstance(url, str) and url:
        return url
    number = getattr(target, "number", None)
    if isinstance(number, int):
        return f"#{number}"
    text = str(target)
    return text if len(text) <= 120 else text[:117] + "..."
