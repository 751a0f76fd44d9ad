"""The lock file beside the session state: one writing cockpit per state file.

The lock is ``<state>.lock`` holding JSON ``{"pid", "host", "started"}``. A lock whose owner is a
dead process on this host is stale and is taken over; a lock from another host cannot be checked
and is respected, unless the release manager, having confirmed that session is gone, asks to take
it over (``--take-over``, which also replaces an unreadable lock file). A lock whose owner runs on
this host is never taken. Viewers never take the lock.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cockpit.state.read_only import ReadOnlyReason


@dataclass(frozen=True, slots=True)
class LockOwner:
    """Who holds a state lock, as written in the lock file."""

    pid: int
    host: str
    started: str

    def describe(self) -> str:
        return f"held by pid {self.pid} on {self.host} since {self.started}"


def lock_path_for(state_path: Path) -> Path:
    """``cockpit-state.toml`` -> ``cockpit-state.toml.lock``."""
    return state_path.with_name(state_path.name + ".lock")


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists on this host (a process we may not signal counts)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def read_owner(lock_path: Path) -> LockOwner | None:
    """The owner recorded in a lock file, or None when it is missing or unreadable."""
    try:
        data = json.loads(lock_path.read_text(encoding="utf-8"))
        return LockOwner(pid=int(data["pid"]), host=str(data["host"]), started=str(data["started"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


class StateLock:
    """An exclusive lock on one state file, held by this process until ``release()``."""

    def __init__(self, state_path: Path) -> None:
        self.state_path = Path(state_path)
        self.path = lock_path_for(self.state_path)
        self.owner: LockOwner | None = None

    @property
    def held(self) -> bool:
        return self.owner is not None

    def acquire(self, *, take_over: bool = False) -> ReadOnlyReason | None:
        """Take the lock; return None on success, else why not and what to do.

        ``take_over`` also takes a lock from another host and an unreadable lock file (the release
        manager confirmed that session is gone); a lock whose owner runs on this host is never taken.
        """
        if self.held:
            return None
        me = LockOwner(pid=os.getpid(), host=socket.gethostname(), started=_now())
        for _ in range(3):
            try:
                if _create_exclusive(self.path, me):
                    self.owner = me
                    atexit.register(self.release)
                    return None
            except OSError as exc:
                return ReadOnlyReason(
                    "cannot lock the state file",
                    f"cannot create the lock file {self.path}: {exc.strerror or exc}",
                    f"check that you may write in {self.path.parent}",
                )
            current = read_owner(self.path)
            if current is None:
                if not self.path.exists():
                    continue  # released between our two looks
                if take_over:
                    self._remove_if_unchanged(None)
                    continue
                return ReadOnlyReason(
                    "lock file unreadable",
                    f"the lock file {self.path} is unreadable",
                    "if no other cockpit uses this state file, delete it, or start again with --take-over",
                )
            if current.host == me.host and pid_alive(current.pid):
                return self._held_here(current)
            if current.host != me.host and not take_over:
                return self._held_elsewhere(current)
            # Stale (its owner died on this host) or taken over: only remove it if it is still that same file.
            problem = self._remove_if_unchanged(current)
            if problem:
                return problem
        return ReadOnlyReason(
            "lock contended",
            f"the lock file {self.path} keeps changing; another cockpit is starting on this state file",
            "start again in a moment",
        )

    def _held_here(self, owner: LockOwner) -> ReadOnlyReason:
        return ReadOnlyReason(
            f"state locked by pid {owner.pid} on {owner.host}",
            f"state file {self.state_path} is {owner.describe()} (a process running on this machine)",
            f"quit that cockpit, then start this one again to act; if pid {owner.pid} is not a cockpit, "
            f"delete the lock file {self.path}",
        )

    def _held_elsewhere(self, owner: LockOwner) -> ReadOnlyReason:
        return ReadOnlyReason(
            f"state locked by {owner.host}",
            f"state file {self.state_path} is {owner.describe()} (another machine: whether that session "
            "still runs cannot be checked from here)",
            f"once that session is confirmed gone, start again with --take-over (or delete the lock file {self.path})",
        )

    def _remove_if_unchanged(self, seen: LockOwner | None) -> ReadOnlyReason | None:
        if read_owner(self.path) != seen:
            return None  # someone else changed it meanwhile: look again
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            return ReadOnlyReason(
                "cannot take the lock",
                f"cannot remove the lock file {self.path}: {exc.strerror or exc}",
                f"check that you may write in {self.path.parent}",
            )
        return None

    def release(self) -> None:
        """Remove the lock file if it is still ours; safe to call twice."""
        if self.owner is None:
            return
        if read_owner(self.path) == self.owner:
            with contextlib.suppress(OSError):
                self.path.unlink()
        self.owner = None
        atexit.unregister(self.release)


def describe_lock(state_path: Path) -> str:
    """Who holds the lock of ``state_path`` now, in words (for ``cockpit locate``); never takes it."""
    path = lock_path_for(state_path)
    if not path.exists():
        return "free"
    owner = read_owner(path)
    if owner is None:
        return "unreadable: if no other cockpit uses this state file, delete it or start with --take-over"
    if owner.host == socket.gethostname():
        if pid_alive(owner.pid):
            return f"{owner.describe()}, running"
        return f"{owner.describe()}, not running any more: the next cockpit takes it over"
    return f"{owner.describe()}, another machine: once that session is confirmed gone, start with --take-over"


def _create_exclusive(path: Path, owner: LockOwner) -> bool:
    """Create ``path`` holding ``owner`` only if it does not exist; the content appears whole."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"pid": owner.pid, "host": owner.host, "started": owner.started}, fh)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)  # fails if the lock exists: atomic create-with-content
        except FileExistsError:
            return False
        except OSError:
            return _create_exclusive_without_links(path, owner)
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _create_exclusive_without_links(path: Path, owner: LockOwner) -> bool:
    """For file systems without hard links: O_EXCL create, then write (a reader may see it empty)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"pid": owner.pid, "host": owner.host, "started": owner.started}, fh)
    return True


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
