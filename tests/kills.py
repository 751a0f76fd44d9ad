"""Random kills in the middle of an outward action, in-process and seeded (issue 30).

A kill is a ``Killed`` (a ``BaseException``: nothing of the action after it runs, no ``except Exception``
catches it) raised at one of the points an action passes: before or after each request to the sandbox
GitHub, each git child and each write the action asks of the state file. A kill "after" a request lands
once the request was sent and served: the change is made on the other side, as a ``git push`` child
outliving the killed cockpit completes. The session is then closed as a dead process leaves it (its lock
released, nothing more written), a new session is opened on the same state file, told what was
interrupted (``ActionRegistry.interrupted``), and the user retries once, as told.

The real adapters (PyGithub on the sandbox emulator, GitPython on a temporary clone) do the work; a
``Watched`` stands between each of them and the action and counts the points.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cockpit.actions.intents import DONE, STARTED, unfinished
from cockpit.actions.registry import ActionRegistry
from cockpit.state.store import StateStore

KILLS = 30
STATE_WRITES = frozenset(
    {"audit", "set_signoff", "ledger_put", "journal_dispatch", "complete_dispatch", "give_up_dispatch", "set_note"}
)


class Killed(BaseException):
    """What a SIGKILL looks like from inside the process: nothing after it runs."""


class Switch:
    """Counts the kill points passed and kills at point ``at`` (never when ``at`` is None)."""

    def __init__(self, at: int | None = None) -> None:
        self.at = at
        self.passed = 0
        self.where = ""
        self.off = False

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No point counted inside (what the user does before the action: a preview, a form)."""
        self.off = True
        try:
            yield
        finally:
            self.off = False

    def point(self, where: str) -> None:
        if self.off:
            return
        here, self.passed = self.passed, self.passed + 1
        if here == self.at:
            self.where = where
            raise Killed(where)


class Watched:
    """``inner`` with a kill point before and after each call of its methods (``only``: of those methods)."""

    def __init__(self, inner: Any, switch: Switch, name: str, only: Iterable[str] | None = None) -> None:
        self._inner, self._switch, self._name = inner, switch, name
        self._only = frozenset(only) if only is not None else None

    def __getattr__(self, attribute: str) -> Any:
        value = getattr(self._inner, attribute)
        if attribute.startswith("_") or not callable(value):
            return value
        if self._only is not None and attribute not in self._only:
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            self._switch.point(f"before {self._name}.{attribute}")
            result = value(*args, **kwargs)
            self._switch.point(f"after {self._name}.{attribute}")
            return result

        return call


class KillPorts:
    """The ``Ports`` an action is given, over a real backend's adapters, each behind the switch."""

    def __init__(self, base: Any, store: StateStore, switch: Switch, clock: Callable[[], datetime]) -> None:
        self._base, self._switch = base, switch
        self.config = base.config
        self.repository = base.repository
        self.read_only = False
        self.who = "alice"
        self.clock = clock
        self.github = Watched(base.github, switch, "github")
        self.git = Watched(base.git, switch, "git")
        self.state = Watched(store, switch, "state", STATE_WRITES)
        self.shared = base.shared

    @property
    def release_workflows(self) -> Any:
        return Watched(self._base.release_workflows, self._switch, "actions")

    def checklist_steps(self) -> Any:
        return self._base.checklist_steps()


@dataclass
class Session:
    store: StateStore
    ports: KillPorts
    actions: ActionRegistry
    switch: Switch


def open_session(
    base: Any, path: Path, modules: Iterable[Any], *, at: int | None = None, later: float = 0.0
) -> Session:
    """A cockpit session on ``path`` with the actions of ``modules``; ``later``: its clock runs that many
    seconds ahead (the user comes back after a while)."""
    from datetime import timedelta

    def clock() -> datetime:
        return datetime.now(UTC) + timedelta(seconds=later)

    switch = Switch(at)
    store = StateStore(path)
    ports = KillPorts(base, store, switch, clock)
    registry = ActionRegistry(ports.state, read_only=False, who="alice", clock=clock)  # type: ignore[arg-type]
    for module in modules:
        module.register(registry, ports)
    return Session(store, ports, registry, switch)


@dataclass
class Outcome:
    """One kill: where it landed, what the next session was told, the audit log after the retry."""

    where: str
    told: list[str]
    log: list[Any] = field(default_factory=list)
    retried: bool = False


def kill_then_retry(
    base: Any,
    path: Path,
    modules: Iterable[Any],
    action_id: str,
    act: Callable[[Session], Any],
    *,
    at: int | None,
    retry: Callable[[Session, list[str]], bool],
    later: float = 0.0,
) -> Outcome:
    """Run ``act`` killed at point ``at``; restart on the same state file, tell, let ``retry`` act as the user
    would (it says whether it retried); check the state file parses and the audit log pairs each intent of
    ``action_id`` with an outcome, one of them the change made (``ok``) or found made (``done``)."""
    modules = list(modules)
    first = open_session(base, path, modules, at=at)
    try:
        act(first)
    except Killed:
        pass
    finally:
        first.store.close()  # the process is gone: its lock with it, nothing more written
    pending = left_unfinished(path)  # parses the file as the dead process left it
    second = open_session(base, path, modules, later=later)
    try:
        told = second.actions.interrupted()
        assert len(told) == len(pending), f"told {told} for {pending}: each interrupted intent once"
        retried = retry(second, told)
        log = second.store.audit_log()
    finally:
        second.store.close()
    tomllib.loads(path.read_text(encoding="utf-8"))  # the state file parses
    mine = [e for e in log if e.action == action_id]
    assert unfinished(mine) == [], f"an intent without its outcome after a kill {first.switch.where}: {mine}"
    assert any(e.outcome == STARTED and e.intent for e in mine), f"no intent recorded: {mine}"
    assert any(e.outcome in ("ok", DONE) for e in mine), f"neither made nor found made: {mine}"
    return Outcome(first.switch.where, told, log, retried)


def left_unfinished(path: Path) -> list[Any]:
    """The intents without an outcome in the state file at ``path`` (none when there is no file yet)."""
    if not path.exists():
        return []
    tomllib.loads(path.read_text(encoding="utf-8"))
    store = StateStore(path, read_only=True)
    try:
        return unfinished(store.audit_log())
    finally:
        store.close()


def told_done(told: list[str]) -> bool:
    return any(f"looked: {DONE}:" in line for line in told)


def kill_points(count: int, seed: int, kills: int = KILLS) -> list[int]:
    """``kills`` points among ``count``: every point twice when that fits in ``kills`` (else once, as far as
    it fits), the rest drawn with ``seed``, shuffled; one more than the last point is a run that was not
    killed. Twice: a run may pass one point more than the counting run did (a GET retried on a loaded
    machine), which moves every later point of that run by one; the other kill at that index still lands."""
    rng = random.Random(seed)
    every = list(range(count + 1))
    points = (every * 2 if 2 * len(every) <= kills else every)[:kills]
    points += rng.choices(range(count + 1), k=max(0, kills - len(points)))
    rng.shuffle(points)
    return points
