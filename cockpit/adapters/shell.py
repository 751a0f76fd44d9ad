"""Running a checklist step's programs in the clone's directory, output streamed line by line.

Programs are argument lists (see ``cockpit.services.step_commands``): no shell ever reads them.
They run one after the other and stop at the first failure, as ``&&`` would; stdin is closed and
git never prompts, so nothing waits for a keyboard that is drawing the cockpit.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from cockpit.domain.text import inert
from cockpit.errors import CockpitError, ReadOnlyError


class CommandFailed(CockpitError):
    """A step's program could not start, failed, or ran past its time limit."""

    title = "Command"


class StepCommandRunner:
    """Runs programs in ``cwd``; ``read_only`` refuses before anything starts."""

    def __init__(self, cwd: Path, *, read_only: bool, timeout_s: float = 900.0) -> None:
        self.cwd = Path(cwd).expanduser()
        self.read_only = read_only
        self.timeout_s = timeout_s

    def run(self, programs: Sequence[Sequence[str]], on_line: Callable[[str], None]) -> str:
        """Run each program in turn, calling ``on_line`` with every output line (stdout and stderr).

        Returns a one-line summary; raises CommandFailed at the first program that fails.
        """
        if self.read_only:
            raise ReadOnlyError("running a step's command is not allowed in a read-only session")
        if not self.cwd.is_dir():
            raise CommandFailed(f"{self.cwd}: no such directory; commands run in the clone (git.clone in the config)")
        last = ""
        for program in programs:
            on_line(f"$ {shlex.join(program)}")
            status, last = self._one(list(program), on_line)
            if status != 0:
                why = "ran out of time" if status is None else f"exited with status {status}"
                tail = f": {last}" if last else ""
                raise CommandFailed(f"`{shlex.join(program)}` {why}{tail}")
        ran = " && ".join(shlex.join(program) for program in programs)
        return f"ran `{ran}`: ok" + (f"; last line: {last}" if last else "")

    def _one(self, argv: list[str], on_line: Callable[[str], None]) -> tuple[int | None, str]:
        env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"}
        try:
            proc = subprocess.Popen(
                argv,
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                env=env,
            )
        except FileNotFoundError:
            raise CommandFailed(f"{argv[0]}: no such program on PATH") from None
        except OSError as exc:
            raise CommandFailed(f"{argv[0]}: cannot start: {exc}") from None
        expired = threading.Event()

        def stop() -> None:
            expired.set()
            proc.kill()

        timer = threading.Timer(self.timeout_s, stop)
        timer.start()
        last = ""
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                line = inert(line.rstrip("\r\n"))  # a program's colours and cursor moves are shown, not obeyed
                if line.strip():
                    last = line.strip()
                on_line(line)
            status = proc.wait()
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        on_line(f"(exit status {status})" if not expired.is_set() else f"(stopped after {self.timeout_s:.0f} s)")
        return (None if expired.is_set() else status), last
