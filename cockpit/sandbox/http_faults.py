"""Faults a sandbox emulator can be told to inject, armed by a test or over its control path.

A fault is ``{"kind": ..., "path": REGEX or null, "count": N or null, ...params}``; ``path`` is
searched (``re.search``) in the request path with its query string, ``count`` limits how many
requests it hits (null: every one). Kinds and their parameters:

- ``latency`` (``seconds``): sleep, then answer normally; combines with one other fault.
- ``status`` (``status``, default 503): answer that status with an error body (a 5xx burst).
- ``rate_limit``: GitHub's primary limit, ``status`` 403 (default) or 429 with
  ``X-RateLimit-Remaining: 0`` and ``X-RateLimit-Reset`` = now + ``reset_in`` seconds (default 3600).
- ``secondary_rate_limit`` (``status`` 403 or 429, ``retry_after`` seconds, default 60): the
  secondary limit, with a ``Retry-After`` header; ``retry_after`` null sends none, so only the
  message says "secondary rate limit" (GitHub does both).
- ``malformed``: 200 with a truncated, unparseable JSON body.
- ``not_found``: 404 with the server's error body.
- ``timeout`` (``seconds``, default 30): sleep longer than a client's timeout, then answer
  normally; ``stop()`` wakes sleeping handlers so tests never hang.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

FAULT_KINDS = ("latency", "status", "rate_limit", "secondary_rate_limit", "malformed", "not_found", "timeout")


@dataclass
class Fault:
    """One armed fault; see the module docstring for kinds and parameters."""

    kind: str
    path: str | None = None
    count: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def matches(self, path: str) -> bool:
        return self.path is None or re.search(self.path, path) is not None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "count": self.count, **self.params}


class FaultPlan:
    """The faults armed on one server; thread-safe. Each helper returns the ``Fault`` it armed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._faults: list[Fault] = []

    def add(self, kind: str, *, path: str | None = None, count: int | None = None, **params: Any) -> Fault:
        """Arm a fault of ``kind``; raises ``ValueError`` for an unknown kind or a bad regex."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; expected one of {', '.join(FAULT_KINDS)}")
        if path is not None:
            re.compile(path)
        if count is not None and (not isinstance(count, int) or count < 1):
            raise ValueError(f"fault count must be a positive integer or null, got {count!r}")
        fault = Fault(kind, path, count, params)
        with self._lock:
            self._faults.append(fault)
        return fault

    def add_json(self, data: Any) -> list[Fault]:
        """Arm the faults of a control request body (one object or a list of objects)."""
        items = data if isinstance(data, list) else [data]
        armed = []
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("kind"), str):
                raise ValueError('each fault must be an object with a string "kind"')
            params = {k: v for k, v in item.items() if k not in ("kind", "path", "count")}
            armed.append(self.add(item["kind"], path=item.get("path"), count=item.get("count"), **params))
        return armed

    def latency(self, seconds: float, *, path: str | None = None, count: int | None = None) -> Fault:
        return self.add("latency", path=path, count=count, seconds=seconds)

    def status_burst(self, status: int = 503, count: int | None = 1, *, path: str | None = None) -> Fault:
        return self.add("status", path=path, count=count, status=status)

    def rate_limit(
        self, *, reset_in: float = 3600, status: int = 403, path: str | None = None, count: int | None = None
    ) -> Fault:
        return self.add("rate_limit", path=path, count=count, reset_in=reset_in, status=status)

    def secondary_rate_limit(
        self, *, status: int = 403, retry_after: int | None = 60, path: str | None = None, count: int | None = None
    ) -> Fault:
        return self.add("secondary_rate_limit", path=path, count=count, status=status, retry_after=retry_after)

    def malformed(self, *, path: str | None = None, count: int | None = None) -> Fault:
        return self.add("malformed", path=path, count=count)

    def not_found(self, path: str, *, count: int | None = None) -> Fault:
        return self.add("not_found", path=path, count=count)

    def timeout(self, seconds: float = 30, *, path: str | None = None, count: int | None = None) -> Fault:
        return self.add("timeout", path=path, count=count, seconds=seconds)

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    def armed(self) -> list[dict[str, Any]]:
        with self._lock:
            return [f.as_dict() for f in self._faults]

    def take(self, path: str) -> tuple[float, Fault | None]:
        """For one request: the latency to add and the first other matching fault; consumes counts."""
        delay, hit = 0.0, None
        with self._lock:
            for fault in list(self._faults):
                if not fault.matches(path):
                    continue
                if fault.kind == "latency":
                    delay += float(fault.params.get("seconds", 0))
                elif hit is None:
                    hit = fault
                else:
                    continue
                if fault.count is not None:
                    fault.count -= 1
                    if fault.count <= 0:
                        self._faults.remove(fault)
        return delay, hit
