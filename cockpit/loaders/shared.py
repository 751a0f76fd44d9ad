"""One computation at a time for results several panes need (the milestone list, the branch diff).

Panes load at the same time in worker threads. A caller that waited while another computed the
result takes that result (or that failure) instead of computing it again; a caller may also take
a result younger than ``reuse_within`` seconds, but never once a later attempt has failed: data
that could not be refreshed is stale, and whatever is derived from it must find out.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Callable, TypeVar

from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend

T = TypeVar("T")
_LOCKS_GUARD = threading.Lock()


def _lock(backend: "CockpitBackend", key: str) -> threading.Lock:
    with _LOCKS_GUARD:
        lock = backend.cached(f"{key}_lock")
        if lock is None:
            lock = threading.Lock()
            backend.remember(**{f"{key}_lock": lock})
        return lock


def shared(backend: "CockpitBackend", key: str, compute: Callable[[], T], *, reuse_within: float = 0.0) -> T:
    """``compute()`` once for every caller waiting on ``key``; see the module docstring for reuse.

    The last result is kept as ``<key>_result`` = (monotonic time, value) and the last failure, when
    it is newer than the result, as ``<key>_failed`` = (monotonic time, error).
    """
    asked = time.monotonic()
    with _lock(backend, key):
        last = backend.cached(f"{key}_result")
        failed = backend.cached(f"{key}_failed")
        if failed is not None and failed[0] >= asked:
            raise failed[1]  # the attempt this caller waited for failed: same answer, no second try
        if last is not None:
            fresh = last[0] >= asked or time.monotonic() - last[0] <= reuse_within
            if fresh and (failed is None or failed[0] < last[0]):
                return last[1]
        try:
            value = compute()
        except CockpitError as exc:
            backend.remember(**{f"{key}_failed": (time.monotonic(), exc)})
            raise
        backend.remember(**{f"{key}_result": (time.monotonic(), value), f"{key}_failed": None})
        return value

