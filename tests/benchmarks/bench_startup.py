"""Startup benchmark: time to the first painted screen of the cockpit against an empty Textual app.

    .venv/bin/python tests/benchmarks/bench_startup.py [--runs 15] [--dir DIR]

In ONE run: builds (or reuses) the sandbox world, untimed, starts its emulators, then alternately
starts three kinds of fresh Python processes, ``--runs`` times each, so that imports count:

(a) ``empty``: ``textual.app.App()`` with nothing in it;
(b) ``cockpit``: what ``cockpit --config <sandbox config>`` does (the steps of ``cockpit.cli.main.main``:
    read the command line), import the CLI, read the config,
    ``build_backend`` (state file, git, GitHub, storage adapters; read-only so runs never contend
    for the state lock) and ``CockpitApp``, over the real adapters and the sandbox's emulators;
(c) ``demo``, for the record: what ``cockpit demo`` does with its world already built, which
    also loads the world and starts its own emulators before the app.

No start-up tricks: Textual parses every stylesheet itself on every start and the garbage
collector runs as Python sets it (no cache of Textual's internals, no GC tuning).

What is measured, per run: wall time from just before the process is spawned to the moment the
app writes its first whole frame to the terminal driver (the child times it against the parent's
spawn instant). Both apps run at 120x40 on ``FrameClock``, a driver given to the app through its
public ``driver_class``: Textual's headless driver, but one that says it is not headless, so that
the app renders each frame to escape sequences as it does for a real terminal, and that takes the
time of the first write covering every cell of the screen (a frame, not a title or a cursor move).
The count of widgets on the screen at that moment (so a blank or half-composed frame would be
visible in the output) is read through ``Widget.region``. The empty app's child exits at once; the
cockpit's goes on until its other five panes are mounted and reports that too (for the record; the
ratio is about the first screen). Only public Textual API is used. Interpreter start-up is in both
numbers and printed alone for reference. The cockpit's own bytecode is compiled first (as an install
does), so that a ``PYTHONDONTWRITEBYTECODE`` environment does not charge it a compile on every start.

Prints the median and best of each, the phases inside the child, the CPU time each process had
used at first paint, two other views of the same runs (paired ratios, best times), and the ratio
cockpit/empty of the medians, which is the one judged (target: within 1.3x).
Not collected by pytest (the file is not named ``test_*``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TARGET = 1.3
KINDS = ("empty", "cockpit", "demo")
SIZE = (120, 40)


def frame_clock(on_first_frame: Callable[[], None]) -> type:
    """A driver class that calls ``on_first_frame`` at the first write of a whole frame at ``SIZE``."""
    from textual.drivers.headless_driver import HeadlessDriver

    cells = SIZE[0] * SIZE[1]

    class FrameClock(HeadlessDriver):
        seen = False

        @property
        def is_headless(self) -> bool:
            return False  # the app renders frames to text, as for a terminal, and writes them here

        def write(self, data: str) -> None:
            if not self.seen and len(data) >= cells:  # every cell of the screen: a frame
                self.seen = True
                on_first_frame()

    return FrameClock


def child(kind: str, config: str | None, world_dir: str | None) -> None:
    """Start one app on the frame clock and print {"phase": seconds since this function began} at first paint."""
    start = time.perf_counter()
    phases: dict[str, float] = {}

    def mark(name: str) -> None:
        phases[name] = round(time.perf_counter() - start, 4)

    if kind == "empty":
        from textual.app import App

        mark("imports")
        app = App()
    elif kind == "demo":  # what 'cockpit demo' does with its world already built
        from cockpit.cli.main import build_parser

        build_parser().parse_args(["demo"])
        mark("cli imports")
        from cockpit.sandbox.demo import DEFAULT_SEED, SandboxServers, prepare_world, write_config

        world = prepare_world(DEFAULT_SEED, directory=Path(world_dir) if world_dir else None)
        mark("world loaded")
        servers = SandboxServers(world, owned=True).__enter__()
        config_path = write_config(
            world,
            Path(tempfile.mkdtemp(prefix="bench-demo-", dir=os.environ["BENCH_TMP"])),  # removed with the run's
            github_url=servers.github_url,
            index_url=servers.index_url,
        )
        mark("emulators up")
        from cockpit.bootstrap import build_backend
        from cockpit.config import load_config
        from cockpit.ui.app import CockpitApp

        app = CockpitApp(build_backend(load_config(config_path), read_only=True))
        mark("app built")
    else:  # the steps of cockpit.cli.main.main, in its order
        from cockpit.cli.main import parse_command_line

        args = parse_command_line(["--config", config])
        from cockpit.cli.commands import load

        mark("cli imports")
        loaded = load(args)
        mark("config read")
        from cockpit.bootstrap import build_backend
        from cockpit.ui.app import CockpitApp

        mark("app imports")
        backend = build_backend(loaded, read_only=True)
        mark("backend built")
        app = CockpitApp(backend)

    def report() -> None:
        # To the process's own stdout: a running app captures ``print`` (``App.begin_capture_print``).
        os.write(1, (json.dumps(phases) + "\n").encode())
        os._exit(0)  # the cockpit's loads are running in threads: do not wait for them

    def first_frame() -> None:
        mark("first paint")
        phases["since spawn"] = time.monotonic() - float(os.environ["BENCH_SPAWNED"])
        phases["cpu"] = round(time.process_time(), 4)  # all threads, interpreter start included
        phases["widgets"] = sum(1 for widget in [app.screen, *app.screen.query("*")] if widget.region.area)
        if kind == "empty":
            report()

    app.driver_class = frame_clock(first_frame)

    async def on_ready(pilot) -> None:
        mark("ready (mounted)")
        if kind == "empty":
            return
        # For the record, not the ratio: when the other five panes are in place.
        while "first paint" not in phases or len(app.mounted_panes()) < len(app.PANES):
            await pilot.pause(0.002)
        mark("every pane mounted")
        report()

    app.run(size=SIZE, auto_pilot=on_ready)
    os.write(1, (json.dumps({"error": "the app exited before painting"}) + "\n").encode())
    os._exit(1)


def one_run(argv: list[str], timeout: float = 60.0) -> tuple[float, dict[str, float]]:
    """Wall seconds from spawn to the child's first paint, and the child's own phases.

    The child reads the spawn instant from ``BENCH_SPAWNED`` (``time.monotonic``, one clock for
    every process of the machine), so its first paint is timed even when it reports later.
    """
    env = dict(os.environ, BENCH_SPAWNED=repr(time.monotonic()))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
    if not line.strip():
        raise SystemExit(f"the child failed: {proc.stderr.read()[-2000:]}")
    phases = json.loads(line)
    if "error" in phases:
        raise SystemExit(f"the child failed: {phases['error']}: {proc.stderr.read()[-2000:]}")
    return phases.pop("since spawn"), phases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs",
        type=int,
        default=15,
        help="fresh processes of each kind (default 15: one start varies by 20%% on a busy machine)",
    )
    parser.add_argument("--dir", type=Path, help="build the world here (default: the cockpit's cache folder)")
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    parser.add_argument("--config", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.config, str(args.dir) if args.dir else None)
        return 0

    from cockpit.sandbox.demo import (
        DEFAULT_SEED,
        SandboxServers,
        prepare_world,
        write_config,
    )

    print("preparing the sandbox world (untimed)...", file=sys.stderr, flush=True)
    import compileall

    import cockpit

    compileall.compile_dir(Path(cockpit.__file__).parent, quiet=1)
    world = prepare_world(DEFAULT_SEED, directory=args.dir, progress=lambda m: print(m, file=sys.stderr))
    me = [sys.executable, str(Path(__file__).resolve())]
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp, SandboxServers(world) as servers:
        config = write_config(world, Path(tmp), github_url=servers.github_url, index_url=servers.index_url)
        runs: dict[str, list[float]] = {"python": [], **{kind: [] for kind in KINDS}}
        cpu: dict[str, list[float]] = {kind: [] for kind in KINDS}
        widgets: dict[str, list[int]] = {kind: [] for kind in KINDS}
        after: dict[str, list[float]] = {kind: [] for kind in KINDS if kind != "empty"}
        phases: dict[str, list[dict[str, float]]] = {kind: [] for kind in KINDS}
        where = ["--dir", str(args.dir)] if args.dir else []
        os.environ["BENCH_TMP"] = tmp  # the demo's config goes here, removed with the run's
        one_run(me + ["--child", "cockpit", "--config", str(config)])  # untimed: warms the OS file cache
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            runs["python"].append(time.perf_counter() - started)
            for kind in KINDS:
                argv = ["--child", kind, "--config", str(config)]
                elapsed, inside = one_run(me + argv + where)
                runs[kind].append(elapsed)
                cpu[kind].append(inside.pop("cpu"))
                widgets[kind].append(inside.pop("widgets"))
                phases[kind].append(inside)
                if kind != "empty":
                    after[kind].append(inside.pop("every pane mounted") - inside["first paint"])

    median = {kind: statistics.median(times) for kind, times in runs.items()}
    print(
        f"first painted screen at {SIZE[0]}x{SIZE[1]}, frames rendered for a terminal, {args.runs} fresh processes each"
    )
    for kind in runs:
        print(f"  {kind:8} median {median[kind] * 1000:7.0f} ms   best {min(runs[kind]) * 1000:7.0f} ms")
    for kind, samples in phases.items():
        names = list(samples[0])
        inside = ", ".join(f"{n} {statistics.median(s[n] for s in samples) * 1000:.0f}" for n in names)
        print(f"  inside {kind} (ms since its first line): {inside}")
    cpu_median = {kind: statistics.median(times) for kind, times in cpu.items()}
    print(
        "  widgets visible in the first frame: "
        + ", ".join(f"{kind} {statistics.median(counts):.0f}" for kind, counts in widgets.items())
    )
    print(
        f"  the other five panes were mounted {statistics.median(after['cockpit']) * 1000:.0f} ms after the "
        "first paint (their loads running meanwhile; not part of the ratio)"
    )
    print(
        "  CPU seconds of the process at first paint (steadier than wall time on a busy machine): "
        + ", ".join(f"{kind} {t * 1000:.0f} ms" for kind, t in cpu_median.items())
    )
    paired = statistics.median(c / e for c, e in zip(runs["cockpit"], runs["empty"], strict=True))
    print(
        f"  other views of the same runs: median of the back-to-back pairs' ratios {paired:.2f}x, "
        f"ratio of the best times {min(runs['cockpit']) / min(runs['empty']):.2f}x"
    )
    print(
        f"  for the record, 'cockpit demo' with its world built (loading the world and starting the "
        f"emulators too): {median['demo'] / median['empty']:.2f}x the empty app"
    )
    ratio = median["cockpit"] / median["empty"]
    verdict = "within" if ratio <= TARGET else "ABOVE"
    print(
        f"ratio cockpit / empty app: {ratio:.2f}x wall ({verdict} the {TARGET}x target), "
        f"{cpu_median['cockpit'] / cpu_median['empty']:.2f}x CPU"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
