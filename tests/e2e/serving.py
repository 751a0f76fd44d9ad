"""`cockpit serve` run as the release manager runs it: a process of its own, its address read from its
output, stopped with SIGTERM as Ctrl-C would, and its whole process group (the viewers it spawned for
browser sessions) ended if it does not stop by itself."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HANG_GUARD = 60.0
"""Seconds any single wait of these tests may take before it fails (a loaded 2-core machine is slow)."""


@dataclass
class Served:
    """A running `cockpit serve`: its page's address, its process, and what it said on stderr."""

    url: str
    process: subprocess.Popen[str]
    said: list[str] = field(default_factory=list)

    def stop(self) -> int:
        """SIGTERM, as Ctrl-C would; the exit status once it has stopped."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=HANG_GUARD)


def _lines(stream, into: queue.Queue[str | None]) -> None:
    for line in stream:
        into.put(line.rstrip("\n"))
    into.put(None)


@contextlib.contextmanager
def served(config: Path, *options: str) -> Iterator[Served]:
    """`cockpit --config CONFIG serve --port 0 OPTIONS...` until the block ends."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cockpit", "--config", str(config), "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group: the viewers it spawns end with it
    )
    out: queue.Queue[str | None] = queue.Queue()
    err: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, out), daemon=True).start()
    threading.Thread(target=_lines, args=(process.stderr, err), daemon=True).start()
    said: list[str] = []
    try:
        try:
            url = out.get(timeout=HANG_GUARD)
        except queue.Empty:
            url = None
        said.extend(_drain(err))
        assert url and url.startswith("http://"), f"cockpit serve printed no address: {url!r}; stderr: {said}"
        running = Served(url, process, said)
        yield running
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=HANG_GUARD / 4)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # leftover viewers of this group only
        process.wait(timeout=HANG_GUARD)
        said.extend(_drain(err, wait=1.0))


def _drain(lines: queue.Queue[str | None], wait: float = 0.2) -> list[str]:
    got: list[str] = []
    while True:
        try:
            line = lines.get(timeout=wait)
        except queue.Empty:
            return got
        if line is None:
            return got
        got.append(line)
