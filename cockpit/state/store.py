"""The session state: checklist sign-offs, notes, acknowledgements, UI preferences, the
posted-comment ledger, triage answers, confirmed readings of prose pick requests, RC sizes and the
audit log, in one state file.

How the file is read, refused and written (atomically, under a lock, redacted) is
``state_file.StateFile``; this module is what a session records in it. Never holds a token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.domain.text import inert
from cockpit.errors import StateError
from cockpit.state.archive import append, audit_overflow, sizes_overflow
from cockpit.state.redaction import redact
from cockpit.state.state_file import SCHEMA, StateFile, describe_state_file, guarded, iso

__all__ = ["SCHEMA", "StateStore", "describe_state_file", "iso", "redact"]

if TYPE_CHECKING:  # the checklist types load with the checklist, after the first screen
    from cockpit.domain.checklist import AuditEntry, Dispatch, Signoff
    from cockpit.domain.picks import ReadingConfirmation

_PREF_TYPES = (str, int, float, bool, list)


class StateStore(StateFile):
    """One session's state file. Loads on construction; every mutator saves immediately.

    When the store is read-only (a viewer, a lock held elsewhere, a corrupt file: see
    ``StateFile``) every mutator raises ``ReadOnlyError`` and nothing at all is written.
    """

    @guarded
    def signoffs(self) -> dict[str, Signoff]:
        """Sign-offs by step id, each carrying the step's note; malformed entries are skipped.

        A step with a note but no sign-off appears as not done (``who`` and ``when`` empty).
        """
        from cockpit.domain.checklist import Signoff
        from cockpit.state.overrides import read_override

        notes = self.notes()
        out = {}
        for step_id, entry in self._table("signoffs").items():
            if isinstance(entry, dict):
                signoff = Signoff(
                    step_id=step_id,
                    done=entry.get("done") is True,
                    who=_text(entry.get("who")),
                    when=_text(entry.get("when")),
                    note=notes.get(step_id) or _text(entry.get("note")),
                )
                out[step_id] = read_override(signoff, entry, where=f"{self.path}: [signoffs.{step_id}]")
        for step_id, note in notes.items():
            out.setdefault(step_id, Signoff(step_id, False, "", "", note))
        return out

    @guarded
    def set_signoff(self, step_id: str, *, done: bool, who: str, note: str = "", when: str | None = None) -> Signoff:
        """Tick (or untick) a checklist step and save."""
        from cockpit.domain.checklist import Signoff

        table = self._mutable_table("signoffs")
        signoff = Signoff(step_id, bool(done), inert(who), when or iso(self._clock()), inert(note))
        table[step_id] = {"done": signoff.done, "who": signoff.who, "when": signoff.when, "note": signoff.note}
        self._save()
        saved = self._table("signoffs").get(redact(step_id), {})  # as written: redacted
        return Signoff(
            step_id, signoff.done, _text(saved.get("who")), _text(saved.get("when")), _text(saved.get("note"))
        )

    @guarded
    def sign_override(self, step_id: str, *, who: str, note: str, gate_status: str, gate_summary: str) -> Signoff:
        """Sign an automatic step over its gate (red or unknown), keeping the gate as it stood and the note; save."""
        from cockpit.state.overrides import override_entry

        table = self._mutable_table("signoffs")
        old = table.get(step_id)
        entry = override_entry(who, iso(self._clock()), note, gate_status, gate_summary)
        entry["note"] = _text(old.get("note")) if isinstance(old, dict) else ""
        table[step_id] = entry
        self._save()
        return self.signoffs()[redact(step_id)]

    @guarded
    def notes(self) -> dict[str, str]:
        """Free notes by step id (kept apart from sign-offs so a note survives unticking)."""
        return {k: inert(v) for k, v in self._table("notes").items() if isinstance(v, str)}

    @guarded
    def set_note(self, step_id: str, note: str) -> None:
        """Set a step's note (also on its sign-off, if any); an empty note removes it."""
        table = self._mutable_table("notes")
        note = inert(note)  # typed in a field, or given to the CLI: made inert before it is kept
        if note:
            table[step_id] = note
        else:
            table.pop(step_id, None)
        signoff = self._table("signoffs").get(step_id)
        if isinstance(signoff, dict):
            signoff["note"] = note
        self._save()

    @guarded
    def audit(self, entry: AuditEntry) -> None:
        """Append one entry to the audit log and save; past ``archive.AUDIT_LIMIT`` entries the oldest move to
        the archive beside the state file (``archive``)."""
        self._check_writable()
        log = self._data.get("audit")
        if not isinstance(log, list):
            log = self._data["audit"] = []
        record: dict[str, Any] = {
            "when": entry.when,
            "who": entry.who,
            "action": entry.action,
            "target": entry.target,
            "outcome": entry.outcome,
            "detail": entry.detail,
        }
        if entry.intent:
            record["intent"] = dict(entry.intent)
        log.append(record)
        moved, kept = audit_overflow(log)
        if moved:  # to the archive first: a kill before the state write leaves them twice, never lost
            append(self.path, [{"kind": "audit", **e} if isinstance(e, dict) else {"kind": "audit"} for e in moved])
            self._data["audit"] = kept
        self._save()

    @guarded
    def audit_log(self) -> list[AuditEntry]:
        """The audit log, oldest first."""
        from cockpit.domain.checklist import AuditEntry

        log = self._data.get("audit")
        if not isinstance(log, list):
            return []
        fields = ("when", "who", "action", "target", "outcome", "detail")
        return [
            AuditEntry(**{f: _text(e.get(f)) for f in fields}, intent=_intent(e.get("intent")))
            for e in log
            if isinstance(e, dict)
        ]

    @guarded
    def pref(self, key: str, default: Any = None) -> Any:
        """A UI preference from ``[ui]``."""
        return self._table("ui").get(key, default)

    @guarded
    def set_pref(self, key: str, value: Any) -> None:
        """Set a UI preference (str, number, bool or list); None removes it."""
        if value is not None and not isinstance(value, _PREF_TYPES):
            raise StateError(f"preference '{key}': expected a string, number, bool or list, got {type(value).__name__}")
        table = self._mutable_table("ui")
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value
        self._save()

    @guarded
    def ledger_get(self, key: str) -> int | str | None:
        """What was posted for ``key`` ("acme/torchlet#123:validation" -> comment id), or None."""
        value = self._table("ledger").get(key)
        return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None

    @guarded
    def ledger_put(self, key: str, value: int | str) -> None:
        """Record that ``key`` was posted (so it is never posted twice)."""
        self._mutable_table("ledger")[key] = value
        self._save()

    @guarded
    def triage_answers(self) -> dict[str, dict[str, bool]]:
        """The release manager's triage answers: ``owner/name#N`` -> question key -> yes/no."""
        out: dict[str, dict[str, bool]] = {}
        for key, entry in self._table("triage").items():
            if isinstance(entry, dict):
                out[key] = {q: v for q, v in entry.items() if isinstance(v, bool)}
        return out

    @guarded
    def set_triage_answer(self, key: str, question: str, value: bool | None) -> None:
        """Record one answer for ``owner/name#N``; None clears it."""
        table = self._mutable_table("triage")
        entry = table.get(key)
        entry = dict(entry) if isinstance(entry, dict) else {}
        if value is None:
            entry.pop(question, None)
        else:
            entry[question] = bool(value)
        if entry:
            table[key] = entry
        else:
            table.pop(key, None)
        self._save()

    @guarded
    def pick_readings(self) -> dict[str, ReadingConfirmation]:
        """Confirmed readings of prose pick requests: ``owner/name#comment-<id>`` -> the confirmation;
        an entry with wrong keys is not counted (see ``state.pick_readings``)."""
        from cockpit.state.pick_readings import read_confirmation

        out = {}
        for key, entry in self._table("pick_readings").items():
            confirmation = read_confirmation(entry, where=f"{self.path}: [pick_readings.{key!r}]")
            if confirmation is not None:
                out[key] = confirmation
        return out

    @guarded
    def confirm_pick_reading(self, key: str, *, reading: str | None, who: str) -> None:
        """Record that ``reading`` of the request ``key`` was confirmed by ``who`` now; None withdraws it."""
        from cockpit.state.pick_readings import reading_entry

        table = self._mutable_table("pick_readings")
        if reading is None:
            table.pop(key, None)
        else:
            table[key] = reading_entry(who, iso(self._clock()), reading)
        self._save()

    @guarded
    def rc_sizes(self) -> dict[str, dict[str, int]]:
        """The wheel sizes observed at each RC: tag -> filename -> bytes; malformed entries are skipped."""
        out: dict[str, dict[str, int]] = {}
        for tag, sizes in self._table("rc_sizes").items():
            if isinstance(sizes, dict):  # tags and file names made inert: the file is outside input too
                kept = {f: n for f, n in sizes.items() if isinstance(n, int) and not isinstance(n, bool) and n >= 0}
                out[inert(tag)] = {inert(f): n for f, n in kept.items()}
        return out

    @guarded
    def record_rc_sizes(self, tag: str, sizes: dict[str, int]) -> bool:
        """Record the sizes observed under RC ``tag`` (replacing what that tag had); whether the file changed.
        Past ``archive.RC_SIZES_LIMIT`` tags, the oldest of other releases move to the archive beside the file.

        An observation, not a decision: it is not audited, and nothing is written when it is what
        the file already holds (each storage load would otherwise rewrite the file).
        """
        if self.rc_sizes().get(tag) == sizes:
            return False
        table = self._mutable_table("rc_sizes")
        table[tag] = dict(sizes)
        old = sizes_overflow(table, tag)  # the oldest RCs of other releases, past the bound: to the archive
        append(self.path, [{"kind": "rc_sizes", "tag": t, "sizes": table[t]} for t in old])
        for t in old:
            del table[t]
        self._save()
        return True

    @guarded
    def dispatches(self) -> list[Dispatch]:
        """The dispatch journal, oldest first; a damaged entry carries its ``problem`` (and is not counted)."""
        from cockpit.state.dispatches import read_dispatch

        return [
            read_dispatch(key, entry, where=f"{self.path}: [dispatches.{key}]")
            for key, entry in self._table("dispatches").items()
        ]

    @guarded
    def journal_dispatch(self, workflow: str, inputs: dict[str, str], *, dry_run: bool, ref: str, by: str) -> str:
        """Record a dispatch about to be sent (before sending it) and save; its key, for ``complete_dispatch``."""
        from cockpit.state.dispatches import dispatch_entry, new_key

        table = self._mutable_table("dispatches")
        key = new_key(table)
        table[key] = dispatch_entry(workflow, inputs, dry_run=dry_run, ref=ref, when=iso(self._clock()), by=by)
        self._save_through()  # on disk before the POST, even inside the action's one write: a kill leaves it
        return key

    @guarded
    def complete_dispatch(self, key: str, run_id: int) -> None:
        """Record the run a journalled dispatch made, once GitHub names it, and save."""
        entry = self._mutable_table("dispatches").get(key)
        if not isinstance(entry, dict):
            raise StateError(f"{self.path}: no dispatch {key!r} in the journal to complete")
        if not isinstance(run_id, int) or isinstance(run_id, bool) or run_id <= 0:
            raise StateError(f"dispatch {key}: expected a run id, got {run_id!r}")
        entry["run_id"] = run_id
        self._save()

    @guarded
    def give_up_dispatch(self, key: str, why: str) -> None:
        """Record that a journalled dispatch made no run (none appeared in the time GitHub takes), and save."""
        entry = self._mutable_table("dispatches").get(key)
        if not isinstance(entry, dict):
            raise StateError(f"{self.path}: no dispatch {key!r} in the journal")
        entry["no_run"] = why
        self._save()

    @guarded
    def acknowledge(self, key: str) -> None:
        """Acknowledge a warning; remembers when."""
        self._mutable_table("acknowledged")[key] = iso(self._clock())
        self._save()

    @guarded
    def acknowledged(self, key: str) -> bool:
        return key in self._table("acknowledged")


def _text(value: Any) -> str:
    """A text read back from the state file, made inert: the file is outside input too (hand edits, a tool,
    an older cockpit), and a note or a name reaches the panes, the reports and the published comment."""
    return inert(value) if isinstance(value, str) else ""


def _intent(value: Any) -> tuple[tuple[str, str], ...]:
    """An audit entry's intent table read back: its text fields only, made inert; () when it has none."""
    if not isinstance(value, dict):
        return ()
    return tuple((inert(k), inert(v)) for k, v in value.items() if isinstance(k, str) and isinstance(v, str))
