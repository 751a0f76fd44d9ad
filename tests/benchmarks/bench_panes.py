"""Panes at a real release's size: requests, time to rows, and keys that never wait on I/O.

    .venv/bin/python tests/benchmarks/bench_panes.py [--scale pytorch] [--dir DIR] [--rounds 6]

In ONE process: builds (or reuses) the sandbox world at ``--scale`` (``pytorch``: a tracker of 600
comments, a milestone of 400 items, CI of five repositories whose ``pull`` and ``trunk`` runs have
about 300 jobs each; untimed), serves it on 127.0.0.1, and drives the real app over the real
adapters with Pilot (``app.run_test`` at 160x50, read-only sessions). Not collected by pytest.

1. Each pane alone, cold (a new backend: no ETag cache, no shared results; the other panes' loads
   are not started): the GitHub requests of its load (from the emulator's request log) against a
   floor computed from the world itself: one request per 100 items of each list the pane needs
   (a list under 100 still costs one), plus a constant per pane, stated in the output and below;
   the time from the load's start to the frame that shows the pane's rows; then ``r`` (nothing
   changed on the server) and the requests of that refresh, with how many were not answered 304.
   Constants: milestone and branch diff 1 (the milestone itself, read before its items); cherry-
   picks 2 + the PRs of this repository the requests name that are in neither list it reads (the
   tracker issue and the milestone, then those PRs one by one); CI: per ref read (each head, the
   commits behind a head that is not green back to the last green one, the newest RC tag) one
   workflow-runs request (the join that names each job's workflow), plus one commits request per
   repository whose head is not green. The overview reads the wheel index, not GitHub (printed for
   the record); the checklist reads nothing.
2. Every pane at once, cold, as ``cockpit`` starts: the time from each load's start to its rows.
3. No key waits on I/O: once every pane has loaded, every request to both emulators is made to take
   3 s (their latency fault) and ``R`` reloads every pane, so that every pane is waiting on the
   network while keys are pressed: pane switches (0-5), ``/`` and filter typing and ``Esc``,
   ``j``/``k``, ``?`` and closing the help. Printed: p50 / p95 / max per kind of key, and how many
   loads were still waiting on I/O when the keys were done.
4. The cherry-picks table (600 rows at the pytorch scale): per keystroke of filter typing and per
   ``s`` (sort by the next column) and ``S`` (reverse), with nothing in flight.

How a key is timed (parts 3 and 4), honestly: Pilot's own ``press`` waits for the process to look
idle (CPU time, 20 ms steps), which measures the harness, not the app. Instead the key event is
posted to the app exactly as the terminal driver posts it, and the clock stops at the first frame
the app hands to its driver in which the key's effect is visible (the pane on screen changed, the
filter text is applied to the table, the cursor row moved, the help screen is up or gone), checked
on the app's own state when that frame is produced. The headless driver skips turning a frame into
terminal bytes; the benchmark does that work itself for every frame, so its cost is counted. The
event loop's own frame pacing (up to 1/60 s) is inside the numbers. A key whose effect never shows
within 5 s is printed as such, not dropped.

Benchmarks print; they never assert timings. Target: under 50 ms at the 95th percentile per kind
of key, and per keystroke on a 600-row table.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SIZE = (160, 50)
TARGET_MS = 50.0
LATENCY_S = 3.0
KEY_TIMEOUT_S = 5.0
PANE_KEYS = {"overview": "0", "milestone": "1", "picks": "2", "ci": "3", "branch": "4", "checklist": "5"}
KEY_NAMES = {"/": ("slash", "/"), "?": ("question_mark", "?"), "escape": ("escape", None), " ": ("space", " ")}


class Frames:
    """Watches the frames the app hands to its driver; resolves waiters whose predicate holds."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = 0
        self.last_cpu: float | None = None  # the last timed key: CPU seconds of the app's thread to its frame
        self._watchers: list[tuple[Callable[[], bool], Callable[[float], None]]] = []
        self._display = app._display
        app._display = self._on_frame  # private, but the one place a frame goes to the terminal

    def _on_frame(self, screen: Any, renderable: Any) -> None:
        self._display(screen, renderable)
        if renderable is None or screen is not self.app.screen:
            return
        render = getattr(renderable, "render_segments", None)
        if render is not None:
            render(self.app.console)  # the terminal bytes the headless driver does not make
        self.count += 1
        now = time.perf_counter()
        for watcher in list(self._watchers):
            predicate, done = watcher
            if predicate():
                self._watchers.remove(watcher)
                done(now)

    def watch(self, predicate: Callable[[], bool], done: Callable[[float], None]) -> None:
        self._watchers.append((predicate, done))

    async def key(self, key: str, effect: Callable[[], bool]) -> float | None:
        """Post ``key`` as the driver would; seconds until a frame shows ``effect``, None if never."""
        from textual import events

        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        cpu_started = time.thread_time()  # the event loop's thread: the app's work, not the workers'

        def done(t: float) -> None:
            self.last_cpu = time.thread_time() - cpu_started
            future.done() or future.set_result(t)

        self.watch(effect, done)
        self.last_cpu = None
        name, char = KEY_NAMES.get(key, (key, key if len(key) == 1 else None))
        event = events.Key(name, char)
        event.set_sender(self.app)
        started = time.perf_counter()
        self.app._driver.send_message(event)
        try:
            return await asyncio.wait_for(future, KEY_TIMEOUT_S) - started
        except TimeoutError:
            self._watchers = [w for w in self._watchers if w[0] is not effect]
            return None


def has_rows(app: Any, name: str) -> bool:
    pane = app.mounted_pane(name)
    if pane is None or pane.report is None:
        return False
    return name == "overview" or pane.table.row_count > 0


def lists_floor(n: int) -> int:
    return max(1, math.ceil(n / 100))


def floors(world: Any) -> dict[str, tuple[int, str]]:
    """Per pane: the fewest GitHub requests a cold load can make, and how it is made up."""
    core = world.repos[world.repository]
    items = [i for i in (*core.issues, *core.pulls) if i.milestone == world.milestone_number]
    comments = [c for c in core.comments if c.issue_number == world.tracker_issue]
    release = {p.number for p in core.pulls if p.base == world.release_branch}
    in_milestone = {p.number for p in core.pulls if p.milestone == world.milestone_number}
    named = {r for p in world.truth["picks"].values() for r in (*p["trunk_prs"], *p["release_prs"])}
    one_by_one = sum(1 for r in named if isinstance(r, int) and r not in release | in_milestone)
    milestone = 1 + lists_floor(len(items))
    picks = 2 + one_by_one + lists_floor(len(comments)) + lists_floor(len(release)) + lists_floor(len(items))
    ci, refs, walked = 0, 0, 0
    for name in world.ci_repositories:
        repo = world.repos[name]
        shas = repo.branch_history.get(world.release_branch) or [repo.branches[world.release_branch]]
        read = [shas[0]]
        if not green(repo, shas[0]):
            ci += 1  # the commits list
            for sha in shas[1:6]:
                read.append(sha)
                walked += 1
                if green(repo, sha):
                    break
        if name == world.repository:
            read.append(world.truth["tags"][f"v{world.version}-rc2"])
        for sha in read:
            ci += lists_floor(sum(1 for c in repo.check_runs if c.head_sha == sha)) + 1
            refs += 1
    return {
        "milestone": (milestone, f"{len(items)} items / 100 + 1"),
        "branch": (milestone, f"{len(items)} items / 100 + 1 (git is local)"),
        "picks": (
            picks,
            f"{len(comments)} comments, {len(release)} release PRs, {len(items)} items, each / 100;"
            f" + 2 + {one_by_one} PRs read one by one",
        ),
        "ci": (
            ci,
            f"{refs} refs ({walked} walked back to the last green): check runs / 100 + 1 join each;"
            " + 1 commits list per red or amber head",
        ),
        "overview": (0, "wheel index, not GitHub"),
        "checklist": (0, "no I/O"),
    }


def green(repo: Any, sha: str) -> bool:
    """Every required job of ``sha`` finished well (unstable jobs set aside), as the CI gate reads it."""
    runs = [c for c in repo.check_runs if c.head_sha == sha and "unstable" not in c.name]
    return bool(runs) and all(
        c.status == "completed" and c.conclusion in ("success", "skipped", "neutral") for c in runs
    )


def fresh_app(config_path: Path) -> Any:
    from cockpit.bootstrap import build_backend
    from cockpit.config import load_config
    from cockpit.ui.app import CockpitApp

    return CockpitApp(build_backend(load_config(config_path), read_only=True))


async def until(condition: Callable[[], bool], pilot: Any, timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the app")
        await pilot.pause(0.01)


def idle(app: Any) -> bool:
    return all(w.is_finished for w in app.workers)


async def one_pane_cold(config_path: Path, servers: Any, name: str) -> dict[str, Any]:
    """Pane ``name`` loaded alone on a fresh backend, then refreshed with nothing changed."""
    app = fresh_app(config_path)
    start_load = app._start_load
    started: dict[str, float] = {}

    def only_this(pane: Any) -> None:
        if name == pane.PANE:
            started.setdefault("at", time.perf_counter())
            start_load(pane)

    app._start_load = only_this
    result: dict[str, Any] = {}
    for emulator in (servers.github, servers.index):
        emulator.request_log.clear()
    async with app.run_test(size=SIZE) as pilot:
        frames = Frames(app)
        frames.watch(
            lambda: "at" in started and has_rows(app, name), lambda t: result.setdefault("to_rows", t - started["at"])
        )
        await until(lambda: "to_rows" in result and idle(app), pilot)
        result["cold"] = servers.github.log()
        result["cold_index"] = servers.index.log()
        result["rows"] = 0 if name == "overview" else app.mounted_pane(name).table.row_count
        await pilot.press(PANE_KEYS[name])
        for emulator in (servers.github, servers.index):
            emulator.request_log.clear()
        loaded_at = app.mounted_pane(name).loaded_at
        await pilot.press("r")
        await until(lambda: app.mounted_pane(name).loaded_at != loaded_at and idle(app), pilot)
        result["refresh"] = servers.github.log() + servers.index.log()
    return result


async def all_panes_cold(config_path: Path) -> dict[str, float]:
    app = fresh_app(config_path)
    start_load = app._start_load
    started: dict[str, float] = {}
    shown: dict[str, float] = {}

    def timed(pane: Any) -> None:
        started.setdefault(pane.PANE, time.perf_counter())
        start_load(pane)

    app._start_load = timed
    async with app.run_test(size=SIZE) as pilot:
        frames = Frames(app)
        for name in PANE_KEYS:
            frames.watch(
                lambda n=name: n in started and has_rows(app, n), lambda t, n=name: shown.setdefault(n, t - started[n])
            )
        await until(lambda: len(shown) == len(PANE_KEYS) and idle(app), pilot)
    return shown


def key_script(app: Any) -> list[tuple[str, str, Callable[[], Callable[[], bool]]]]:
    """(kind, key, effect) in order; ``effect()`` is called just before the key is sent and returns
    the predicate that says the key's effect is on screen."""
    from cockpit.ui.help import HelpScreen

    def pane_is(name: str) -> Callable[[], Callable[[], bool]]:
        return lambda: lambda: app.current_name == name

    def picks() -> Any:
        return app.mounted_pane("picks")

    def filter_is(text: str) -> Callable[[], Callable[[], bool]]:
        return lambda: lambda: picks().filter_input.value == text and picks().row_filter.text == text

    def cursor(step: int) -> Callable[[], Callable[[], bool]]:
        def effect() -> Callable[[], bool]:
            table = picks().table
            want = max(0, min(table.cursor_row + step, table.row_count - 1))
            return lambda: table.cursor_row == want

        return effect

    script: list[tuple[str, str, Callable[[], Callable[[], bool]]]] = []
    for name in ("milestone", "picks", "ci", "branch", "checklist", "overview", "picks"):
        script.append(("pane switch", PANE_KEYS[name], pane_is(name)))
    script.append(("filter typing", "/", lambda: lambda: app.focused is picks().filter_input))
    typed = ""
    for char in "review":
        typed += char
        script.append(("filter typing", char, filter_is(typed)))
    script.append(("filter typing", "escape", filter_is("")))
    script += [("cursor j/k", "j", cursor(1))] * 4 + [("cursor j/k", "k", cursor(-1))] * 4
    script.append(("help ? / close", "?", lambda: lambda: isinstance(app.screen, HelpScreen)))
    script.append(("help ? / close", "escape", lambda: lambda: not isinstance(app.screen, HelpScreen)))
    return script


def cpu_summary(samples: list[float | None]) -> str:
    """The CPU the app's thread spent from a key to its frame: steadier than wall time on a busy machine."""
    ms = sorted(s * 1000 for s in samples if s is not None)
    if not ms:
        return "CPU: no samples"
    p95 = ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]
    return f"CPU of the app's thread to the frame: p50 {statistics.median(ms):6.1f} ms  p95 {p95:6.1f} ms"


def summary(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    if not ms:
        return "no samples"
    p95 = ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]
    verdict = "within" if p95 < TARGET_MS else "ABOVE"
    return (
        f"p50 {statistics.median(ms):6.1f} ms  p95 {p95:6.1f} ms  max {ms[-1]:6.1f} ms  "
        f"(n={len(ms)}; p95 {verdict} {TARGET_MS:.0f} ms)"
    )


async def keys_and_big_table(config_path: Path, servers: Any, rounds: int) -> dict[str, Any]:
    app = fresh_app(config_path)
    out: dict[str, Any] = {"keys": {}, "cpu": {}, "missed": {}, "typing": [], "sort": [], "table_cpu": {}}
    async with app.run_test(size=SIZE) as pilot:
        frames = Frames(app)
        await until(lambda: all(has_rows(app, n) for n in PANE_KEYS) and idle(app), pilot)
        servers.github.faults.latency(LATENCY_S)
        servers.index.faults.latency(LATENCY_S)
        await pilot.press("R")
        await until(lambda: any(not w.is_finished for w in app.workers), pilot)
        out["in_flight_before"] = sum(1 for w in app.workers if not w.is_finished)
        started = time.monotonic()
        for _ in range(rounds):
            for kind, key, effect in key_script(app):
                elapsed = await frames.key(key, effect())
                if elapsed is None:
                    out["missed"][kind] = out["missed"].get(kind, 0) + 1
                else:
                    out["keys"].setdefault(kind, []).append(elapsed)
                    out["cpu"].setdefault(kind, []).append(frames.last_cpu)
        out["keys_seconds"] = time.monotonic() - started
        out["in_flight_after"] = sum(1 for w in app.workers if not w.is_finished and w.group in PANE_KEYS)
        servers.github.faults.clear()
        servers.index.faults.clear()
        await until(lambda: idle(app) and all(has_rows(app, n) for n in PANE_KEYS), pilot)

        await pilot.press(PANE_KEYS["picks"])
        pane = app.mounted_pane("picks")
        out["picks_rows"] = pane.table.row_count
        await frames.key("/", lambda: app.focused is pane.filter_input)
        typed = ""
        for char in "under review":
            typed += char
            elapsed = await frames.key(char, lambda t=typed: pane.filter_input.value == t and pane.row_filter.text == t)
            out["typing"].append(elapsed)
            if elapsed is not None:
                out["table_cpu"].setdefault("typing", []).append(frames.last_cpu)
        out["filtered_rows"] = pane.table.row_count
        await frames.key("escape", lambda: pane.row_filter.text == "" and pane.table.row_count == out["picks_rows"])
        columns = len(pane.table.ordered_columns)
        for k in range(columns + 1):
            want = (None, *range(columns))[(k + 1) % (columns + 1)]
            out["sort"].append(await frames.key("s", lambda w=want: pane.sort_column == w))
            out["table_cpu"].setdefault("sort", []).append(frames.last_cpu)
        for k in range(4):
            out["sort"].append(await frames.key("S", lambda r=(k % 2 == 0): pane.sort_reverse is r))
            out["table_cpu"].setdefault("sort", []).append(frames.last_cpu)
    return out


def print_cold(name: str, result: dict[str, Any], floor: tuple[int, str]) -> None:
    cold, refresh = len(result["cold"]), result["refresh"]
    not_304 = sum(1 for e in refresh if e["status"] != 304)
    index = f", + {len(result['cold_index'])} wheel-index requests" if result["cold_index"] else ""
    ratio = f"{cold / floor[0]:.2f}x" if floor[0] else "n/a"
    print(
        f"  {name:9} {result['rows']:4} rows  cold: {cold:3} GitHub requests{index}; floor {floor[0]:3} "
        f"({floor[1]}) = {ratio}"
    )
    print(
        f"  {'':9} rows on screen {result['to_rows'] * 1000:7.0f} ms after the load started; "
        f"unchanged refresh: {len(refresh)} requests, {not_304} not answered 304"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", default="pytorch", help="a sandbox scale preset (default: pytorch)")
    parser.add_argument("--dir", type=Path, help="build the world here (default: the cockpit's cache folder)")
    parser.add_argument("--rounds", type=int, default=6, help="times the key script is played in part 3")
    parser.add_argument(
        "--parts", default="1,2,3", help="which parts to run: 1, 2 and/or 3 (3 includes 4); default all"
    )
    args = parser.parse_args()

    from cockpit.sandbox.demo import DEFAULT_SEED, SandboxServers, prepare_world, write_config
    from cockpit.sandbox.world_scale import describe, scale_named

    scale = scale_named(args.scale)
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    say("preparing the sandbox world (untimed)...")
    world = prepare_world(DEFAULT_SEED, directory=args.dir, progress=say, scale=None if scale.name == "demo" else scale)
    print(describe(scale, world))
    print(
        f"Pilot in-process at {SIZE[0]}x{SIZE[1]}, read-only sessions over the real adapters; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start"
    )
    floor = floors(world)
    with tempfile.TemporaryDirectory(prefix="bench-panes-") as tmp, SandboxServers(world) as servers:
        config = write_config(world, Path(tmp), github_url=servers.github_url, index_url=servers.index_url)
        parts = {p.strip() for p in args.parts.split(",")}
        if "1" in parts:
            print("1. each pane alone, cold, then refreshed with nothing changed")
            for name in PANE_KEYS:
                print_cold(name, asyncio.run(one_pane_cold(config, servers, name)), floor[name])
        if "2" in parts:
            print("2. every pane at once, cold (as the cockpit starts): load start to rows on screen")
            shown = asyncio.run(all_panes_cold(config))
            print("  " + ", ".join(f"{n} {t * 1000:.0f} ms" for n, t in shown.items()))
        if "3" not in parts:
            return 0
        print(f"3. keys while every pane waits on I/O (each request answered after {LATENCY_S:.0f} s)")
        out = asyncio.run(keys_and_big_table(config, servers, args.rounds))
        for kind, samples in out["keys"].items():
            print(f"  {kind:15} {summary(samples)}")
            print(f"  {'':15} {cpu_summary(out['cpu'][kind])}")
        for kind, count in out["missed"].items():
            print(f"  {kind:15} {count} key(s) whose effect never showed within {KEY_TIMEOUT_S:.0f} s")
        print(
            f"  pane loads waiting on I/O: {out['in_flight_before']} when the keys began, "
            f"{out['in_flight_after']} still after {out['keys_seconds']:.1f} s of keys"
        )
        print(f"4. the cherry-picks table, {out['picks_rows']} rows, nothing in flight")
        typing = [t for t in out["typing"] if t is not None]
        print(f"  filter typing   {summary(typing)}; 'under review' leaves {out['filtered_rows']} rows")
        print(f"  {'':15} {cpu_summary(out['table_cpu'].get('typing', []))}")
        sort = [t for t in out["sort"] if t is not None]
        print(f"  s / S sort      {summary(sort)}")
        print(f"  {'':15} {cpu_summary(out['table_cpu'].get('sort', []))}")
        missed = out["typing"].count(None) + out["sort"].count(None)
        if missed:
            print(f"  {missed} keystroke(s) whose effect never showed within {KEY_TIMEOUT_S:.0f} s")
    print(f"load average {os.getloadavg()[0]:.1f} at the end (other work on the machine inflates wall times)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
