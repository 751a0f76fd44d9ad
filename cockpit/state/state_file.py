"""The session state file as a file: schema-versioned TOML, read, refused, and written atomically.

Written atomically (temp file, fsync, rename, fsync of the folder) and guarded by a lock file. A
file that does not parse, or that a newer cockpit wrote, is never overwritten: it is copied aside
and the file turns read-only with ``problem`` saying why. Every string is redacted on its way to
the file. What the file records (sign-offs, notes, the audit log ...) is ``store.StateStore``.
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
from typing import Any, TypeVar

from cockpit.domain.stamps import utc_stamp
from cockpit.errors import ReadOnlyError, StateError
from cockpit.state.lock import StateLock
from cockpit.state.read_only import VIEWER, ReadOnlyReason
from cockpit.state.redaction import redact_all

SCHEMA = 1


_F = TypeVar("_F", bound=Callable[..., Any])


def guarded(method: _F) -> _F:
    """Serialise a store method: UI workers record sign-offs and audit entries from threads."""

    @wraps(method)
    def call(self: StateFile, *args: Any, **kwargs: Any) -> Any:
        with self._guard:
            return method(self, *args, **kwargs)

    return call  # type: ignore[return-value]


def iso(moment: datetime) -> str:
    """UTC ISO 8601 with a Z, the one time format of the state file."""
    return utc_stamp(moment)


class StateFile:
    """One session's state file, as a file: loads on construction; ``StateStore``'s mutators change
    a table (``_mutable_table``) and ``_save``.

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

    @guarded
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
            kept_as_is = self._write_protected()
            if kept_as_is is not None:
                self.reasons.append(kept_as_is)
                return self._read(keep_aside=False)
            held = self._lock.acquire(take_over=self.take_over)
            if held:
                self.reasons.append(ReadOnlyReason(held.summary, f"{held.detail}; opened read-only", held.remedy))
                return self._read(keep_aside=False)
            self._sweep_temp_files()
        self._read(keep_aside=not self.read_only)

    def _write_protected(self) -> ReadOnlyReason | None:
        """Why the file must be left as it is: it is a folder, or its owner took its write permission away
        (a 0444 file is the user saying "do not change this"; root could write it anyway, the cockpit does not)."""
        try:
            st = self.path.stat()
        except OSError:
            return None
        if self.path.is_dir():
            return ReadOnlyReason(
                "state path is a folder",
                f"{self.path} is a folder, not a state file; opened read-only",
                f"point [state] path at a file, such as {self.path / 'cockpit-state.toml'}",
            )
        if not st.st_mode & 0o200:
            return ReadOnlyReason(
                "state file write-protected",
                f"{self.path} is write-protected (mode {st.st_mode & 0o777:04o}); opened read-only, it is not changed",
                f"make it writable (chmod u+w {self.path}) to record from this session",
            )
        return None

    @guarded
    def close(self) -> None:
        """Release the lock (also done at interpreter exit); the store stays readable, not writable."""
        if self._lock.held:
            self._lock.release()
            if not self.reasons:
                self.reasons.append(ReadOnlyReason("closed", f"the state store {self.path} was closed"))

    @guarded
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
                f"{self.path}: 'schema' is {_schema_shown(schema)}, expected the number {SCHEMA} (schema = {SCHEMA})",
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
        stopped = False
        try:
            yield
        except Exception:
            raise
        except BaseException:  # the session is being stopped in the middle (a kill): nothing of the block is kept
            stopped = True
            raise
        finally:
            self._batch.depth = depth
            if depth == 0 and getattr(self._batch, "holding", False):
                self._batch.holding = False
                try:
                    if stopped:
                        self._read(keep_aside=False)  # the action's record without its audit entry: neither
                    else:
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

    def _save_through(self) -> None:
        """Write now, even inside a ``one_write()`` block (with what the block recorded so far): for a record
        that must be on disk before a request goes out (the dispatch journal)."""
        self._check_writable()
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
        if isinstance(schema, int) and not isinstance(schema, bool):
            return f"schema {schema}, this cockpit reads {SCHEMA}: sessions open read-only{kept}"
        return f"'schema' is {_schema_shown(schema)}, expected the number {SCHEMA}: sessions open read-only{kept}"
    return f"readable{kept}"


def _schema_shown(value: Any) -> str:
    """How a wrong ``schema`` value is named: "the text '1'" tells what the number 1 does not."""
    from cockpit.domain.text import inert

    if isinstance(value, str):
        return f"the text {inert(repr(value))[:40]}"
    return f"{type(value).__name__} {inert(repr(value))[:40]}"


def _dumps(data: dict[str, Any]) -> str:
    """TOML text with the audit log last, always as ``[[audit]]`` tables (easy to read and diff)."""
    import tomli_w  # the first write comes after the first screen, if ever (a viewer never writes)

    rest = {k: v for k, v in data.items() if k != "audit"}
    audit = data.get("audit")
    log = audit if isinstance(audit, list) else []
    chunks = [tomli_w.dumps(rest)]
    for entry in log:
        if isinstance(entry, dict):  # a table inside an entry (its intent) is [audit.intent], after its keys
            tables = {k: v for k, v in entry.items() if isinstance(v, dict)}
            chunks.append(f"\n[[audit]]\n{tomli_w.dumps({k: v for k, v in entry.items() if k not in tables})}")
            chunks += [tomli_w.dumps({"audit": tables})] if tables else []
    return "".join(chunks)


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
