"""The session state file: checklist sign-offs, notes, acknowledgements, UI preferences, the
posted-comment ledger and the audit log, in one schema-versioned TOML file.

Written atomically (temp file, fsync, rename, fsync of the folder) and guarded by a lock file. A
file that does not parse, or that a newer cockpit wrote, is never overwritten: it is copied aside
and the store turns read-only with ``problem`` saying why. Never holds a token: every string is
redacted on its way to the file.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cockpit.errors import ReadOnlyError, StateError
from cockpit.state.lock import StateLock
from cockpit.state.read_only import VIEWER, ReadOnlyReason
from cockpit.state.redaction import redact, redact_all

__all__ = ["SCHEMA", "StateStore", "iso", "redact"]

if TYPE_CHECKING:  # the checklist types load with the checklist, after the first screen
    from cockpit.domain.checklist import AuditEntry, Signoff

SCHEMA = 1
_PREF_TYPES = (str, int, float, bool, list)


_F = TypeVar("_F", bound=Callable[..., Any])


def _guarded(method: _F) -> _F:
    """Serialise a store method: UI workers record sign-offs and audit entries from threads."""

    @wraps(method)
    def call(self: StateStore, *args: Any, **kwargs: Any) -> Any:
        with self._guard:
            return method(self, *args, **kwargs)

    return call  # type: ignore[return-value]


def iso(moment: datetime) -> str:
    """UTC ISO 8601 with a Z, the one time format of the state file."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class StateStore:
    """One session's state file. Loads on construction; every mutator saves immediately.

    ``read_only`` is True for viewers and whenever ``problem`` is set (lock held elsewhere, file
    corrupt or from a newer cockpit); then every mutator raises ``ReadOnlyError`` and nothing at all
    is written, not even the lock. ``why_read_only`` says why and what to do about it.
    ``take_over`` takes the lock from a session on another machine that the release manager
    confirmed is gone (see ``StateLock.acquire``).
    """

    def __init__(
        self,
        path: Path,
        *,
        read_only: bool = False,
        take_over: bool = False,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.path = Path(path)
        self._guard = threading.RLock()
        self._batch = threading.local()  # per thread: how deep in one_write(), whether it holds the guard
        self.viewer = read_only
        self.take_over = take_over
        self.reasons: list[ReadOnlyReason] = []
        """Why the store cannot write (the first one is the main one); empty when it can."""
        self._clock = clock
        self._lock = StateLock(self.path)
        self._data: dict[str, Any] = {"schema": SCHEMA}
        self._seen: tuple[int, int, int] | None = None
        self._aside: Path | None = None  # the copy of an unreadable file, made once per store
        self.load()

    @property
    def problem(self) -> str | None:
        """Why a session that meant to write cannot (lock held, file unreadable), in one line; or None."""
        return "; also ".join(str(r) for r in self.reasons) or None

    @property
    def read_only(self) -> bool:
        return self.viewer or bool(self.reasons)

    @property
    def why_read_only(self) -> ReadOnlyReason | None:
        """The main reason the session is read-only, with what to do; None when it writes."""
        if self.reasons:
            return self.reasons[0]
        return VIEWER if self.viewer else None

    @property
    def read_only_reason(self) -> str | None:
        why = self.why_read_only
        return None if why is None else self.problem or str(why)

    @_guarded
    def load(self) -> None:
        """(Re)read the file; a missing file is an empty state. Takes the lock unless a viewer.

        Calling it again retries a store that turned read-only (lock now free, file repaired).
        """
        if not self.viewer:
            self.reasons = []
        if not self.read_only and not self._lock.held:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.reasons.append(
                    ReadOnlyReason(
                        "state folder not writable",
                        f"cannot create the folder {self.path.parent}: {exc.strerror or exc}; opened read-only",
                        "create it or choose another [state] path",
                    )
                )
                return self._read(keep_aside=False)
            held = self._lock.acquire(take_over=self.take_over)
            if held:
                self.reasons.append(ReadOnlyReason(held.summary, f"{held.detail}; opened read-only", held.remedy))
                return self._read(keep_aside=False)
            self._sweep_temp_files()
        self._read(keep_aside=not self.read_only)

    @_guarded
    def close(self) -> None:
        """Release the lock (also done at interpreter exit); the store stays readable, not writable."""
        if self._lock.held:
            self._lock.release()
            if not self.reasons:
                self.reasons.append(ReadOnlyReason("closed", f"the state store {self.path} was closed"))

    @_guarded
    def reload_if_changed(self) -> bool:
        """Re-read when another session changed the file (mtime, size or inode); True if it did."""
        if self._stat() == self._seen:
            return False
        self._read(keep_aside=False)
        return True

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _read(self, *, keep_aside: bool) -> None:
        self._seen = self._stat()
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self._data = {"schema": SCHEMA}
            return
        except OSError as exc:
            return self._refuse(
                "state file unreadable",
                f"cannot read {self.path}: {exc.strerror or exc}",
                None,
                f"check the permissions of {self.path}",
            )
        repair = f"repair {self.path} by hand (or move it away to start with an empty state), then start again"
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            return self._refuse(
                "state file corrupt", f"{self.path} does not parse ({exc})", "corrupt" if keep_aside else None, repair
            )
        schema = data.get("schema", SCHEMA)
        if not isinstance(schema, int) or isinstance(schema, bool):
            return self._refuse(
                "state file corrupt",
                f"{self.path}: 'schema' is {schema!r}, expected {SCHEMA}",
                "corrupt" if keep_aside else None,
                repair,
            )
        if schema > SCHEMA:
            why = f"{self.path} was written by a newer cockpit (schema {schema}, this one reads {SCHEMA})"
            return self._refuse(
                "state file from a newer cockpit",
                why,
                "newer" if keep_aside else None,
                f"use that newer cockpit, or move {self.path} away to start with an empty state",
            )
        self._data = data

    def _refuse(self, summary: str, why: str, aside: str | None, remedy: str) -> None:
        """Keep the file as it is, copy it aside if asked, and turn read-only."""
        if aside and self._aside is not None:
            why += f"; a copy is kept at {self._aside}"
        elif aside:
            copy = self.path.with_name(f"{self.path.name}.{aside}-{self._clock().strftime('%Y%m%dT%H%M%SZ')}")
            try:
                shutil.copy2(self.path, copy)
                self._aside = copy
                why += f"; a copy is kept at {copy}"
            except OSError as exc:
                why += f"; could not copy it aside ({exc.strerror or exc})"
        self.reasons.append(ReadOnlyReason(summary, f"{why}; opened read-only, the file is left untouched", remedy))
        self._lock.release()

    def _sweep_temp_files(self) -> None:
        """Remove temp files a killed writer left behind (we hold the lock: nobody else writes)."""
        for leftover in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            if leftover.name.startswith(f".{self.path.name}.lock."):
                continue  # another session's lock attempt in flight, not ours to remove
            with suppress(OSError):
                leftover.unlink()

    @contextmanager
    def one_write(self) -> Iterator[None]:
        """Everything this thread records inside the block reaches the file in one atomic write, at its end.

        An action and its audit entry are one write: a kill leaves both or neither. From the first
        change until that write the store is held by this thread (other threads wait for it), so no
        other save can carry the change alone; record the state last in an action, never before a
        network call. Blocks nest (the outermost writes). Raises ``StateError`` when the write fails,
        and then the changes are dropped, all of them.
        """
        depth = getattr(self._batch, "depth", 0)
        self._batch.depth = depth + 1
        try:
            yield
        finally:
            self._batch.depth = depth
            if depth == 0 and getattr(self._batch, "holding", False):
                self._batch.holding = False
                try:
                    self._write()
                finally:
                    self._guard.release()

    def _save(self) -> None:
        """Write now, or at the end of this thread's ``one_write()`` block."""
        self._check_writable()
        if getattr(self._batch, "depth", 0):
            if not getattr(self._batch, "holding", False):
                self._guard.acquire()  # released by one_write() after the write
                self._batch.holding = True
            return
        self._write()

    def _write(self) -> None:
        """The file, written whole: temp file, fsync, rename, fsync of the folder."""
        self._check_writable()
        # The one place tokens are taken out: every string of every table, whoever put it there.
        self._data = redact_all(self._data)
        text = _dumps(self._data)
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{self.path.name}.", suffix=".tmp")
        except OSError as exc:
            raise StateError(f"cannot write in {folder}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(text.encode("utf-8"))
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            with suppress(OSError):
                os.unlink(tmp)
            self._read(keep_aside=False)  # drop the change that did not reach the disk
            raise StateError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        _fsync_dir(folder)
        self._seen = self._stat()

    def _check_writable(self) -> None:
        if self.read_only:
            raise ReadOnlyError(f"the session state is read-only: {self.read_only_reason}")

    def _table(self, name: str) -> dict[str, Any]:
        value = self._data.get(name)
        return value if isinstance(value, dict) else {}

    def _mutable_table(self, name: str) -> dict[str, Any]:
        self._check_writable()
        value = self._data.get(name)
        if not isinstance(value, dict):
            value = self._data[name] = {}
        return value

    @_guarded
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

    @_guarded
    def set_signoff(self, step_id: str, *, done: bool, who: str, note: str = "", when: str | None = None) -> Signoff:
        """Tick (or untick) a checklist step and save."""
        from cockpit.domain.checklist import Signoff

        table = self._mutable_table("signoffs")
        signoff = Signoff(step_id, bool(done), who, when or iso(self._clock()), note)
        table[step_id] = {"done": signoff.done, "who": signoff.who, "when": signoff.when, "note": signoff.note}
        self._save()
        saved = self._table("signoffs").get(redact(step_id), {})  # as written: redacted
        return Signoff(
            step_id, signoff.done, _text(saved.get("who")), _text(saved.get("when")), _text(saved.get("note"))
        )

    @_guarded
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

    @_guarded
    def notes(self) -> dict[str, str]:
        """Free notes by step id (kept apart from sign-offs so a note survives unticking)."""
        return {k: v for k, v in self._table("notes").items() if isinstance(v, str)}

    @_guarded
    def set_note(self, step_id: str, note: str) -> None:
        """Set a step's note (also on its sign-off, if any); an empty note removes it."""
        table = self._mutable_table("notes")
        if note:
            table[step_id] = note
        else:
            table.pop(step_id, None)
        signoff = self._table("signoffs").get(step_id)
        if isinstance(signoff, dict):
            signoff["note"] = note
        self._save()

    @_guarded
    def audit(self, entry: AuditEntry) -> None:
        """Append one entry to the audit log and save."""
        self._check_writable()
        log = self._data.get("audit")
        if not isinstance(log, list):
            log = self._data["audit"] = []
        log.append(
            {
                "when": entry.when,
                "who": entry.who,
                "action": entry.action,
                "target": entry.target,
                "outcome": entry.outcome,
                "detail": entry.detail,
            }
        )
        self._save()

    @_guarded
    def audit_log(self) -> list[AuditEntry]:
        """The audit log, oldest first."""
        from cockpit.domain.checklist import AuditEntry

        log = self._data.get("audit")
        if not isinstance(log, list):
            return []
        fields = ("when", "who", "action", "target", "outcome", "detail")
        return [AuditEntry(**{f: _text(e.get(f)) for f in fields}) for e in log if isinstance(e, dict)]

    @_guarded
    def pref(self, key: str, default: Any = None) -> Any:
        """A UI preference from ``[ui]``."""
        return self._table("ui").get(key, default)

    @_guarded
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

    @_guarded
    def ledger_get(self, key: str) -> int | str | None:
        """What was posted for ``key`` ("acme/torchlet#123:validation" -> comment id), or None."""
        value = self._table("ledger").get(key)
        return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None

    @_guarded
    def ledger_put(self, key: str, value: int | str) -> None:
        """Record that ``key`` was posted (so it is never posted twice)."""
        self._mutable_table("ledger")[key] = value
        self._save()

    @_guarded
    def triage_answers(self) -> dict[str, dict[str, bool]]:
        """The release manager's triage answers: ``owner/name#N`` -> question key -> yes/no."""
        out: dict[str, dict[str, bool]] = {}
        for key, entry in self._table("triage").items():
            if isinstance(entry, dict):
                out[key] = {q: v for q, v in entry.items() if isinstance(v, bool)}
        return out

    @_guarded
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

    @_guarded
    def rc_sizes(self) -> dict[str, dict[str, int]]:
        """The wheel sizes observed at each RC: tag -> filename -> bytes; malformed entries are skipped."""
        out: dict[str, dict[str, int]] = {}
        for tag, sizes in self._table("rc_sizes").items():
            if isinstance(sizes, dict):
                out[tag] = {f: n for f, n in sizes.items() if isinstance(n, int) and not isinstance(n, bool) and n >= 0}
        return out

    @_guarded
    def record_rc_sizes(self, tag: str, sizes: dict[str, int]) -> bool:
        """Record the sizes observed under RC ``tag`` (replacing what that tag had); whether the file changed.

        An observation, not a decision: it is not audited, and nothing is written when it is what
        the file already holds (each storage load would otherwise rewrite the file).
        """
        if self.rc_sizes().get(tag) == sizes:
            return False
        self._mutable_table("rc_sizes")[tag] = dict(sizes)
        self._save()
        return True

    @_guarded
    def acknowledge(self, key: str) -> None:
        """Acknowledge a warning; remembers when."""
        self._mutable_table("acknowledged")[key] = iso(self._clock())
        self._save()

    @_guarded
    def acknowledged(self, key: str) -> bool:
        return key in self._table("acknowledged")


def describe_state_file(path: Path) -> str:
    """What a state file holds, in words, for ``cockpit locate``: missing, readable, or why not and
    where its copies were kept. Reads only; never locks, never writes."""
    path = Path(path)
    copies = sorted(path.parent.glob(f"{path.name}.corrupt-*")) + sorted(path.parent.glob(f"{path.name}.newer-*"))
    kept = f"; copies kept aside: {', '.join(str(c) for c in copies)}" if copies else ""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return f"missing: an empty session until something is recorded{kept}"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc}): sessions open read-only{kept}"
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return f"does not parse ({exc}): sessions open read-only; repair it or move it away{kept}"
    schema = data.get("schema", SCHEMA)
    if not isinstance(schema, int) or isinstance(schema, bool) or schema > SCHEMA:
        return f"schema {schema!r}, this cockpit reads {SCHEMA}: sessions open read-only{kept}"
    return f"readable{kept}"


def _dumps(data: dict[str, Any]) -> str:
    """TOML text with the audit log last, always as ``[[audit]]`` tables (easy to read and diff)."""
    import tomli_w  # the first write comes after the first screen, if ever (a viewer never writes)

    rest = {k: v for k, v in data.items() if k != "audit"}
    audit = data.get("audit")
    log = audit if isinstance(audit, list) else []
    chunks = [tomli_w.dumps(rest)]
    chunks += [f"\n[[audit]]\n{tomli_w.dumps(entry)}" for entry in log if isinstance(entry, dict)]
    return "".join(chunks)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable; some platforms cannot open a folder, which is fine."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
