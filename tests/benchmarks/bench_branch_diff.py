"""Branch diff on a history shaped like PyTorch's: the engine against the bare ``git log`` floor.

Reproduce (the first run builds the history with ``git fast-import``, about a minute, and caches it
under ``$COCKPIT_CACHE_DIR/bench`` or ``~/.cache/release-cockpit/bench``):

    .venv/bin/python tests/benchmarks/bench_branch_diff.py [--commits 100000] [--after-cut 20000]
        [--milestone 1200] [--runs 7] [--messages both|long|short] [--short-bytes 200] [--trace] [--profile]

The history (``cockpit/sandbox/scale_history.py``): ``--commits`` commits on main, the last
``--after-cut`` of them after the cut, merge-bot messages of realistic length (PR body, ghstack
lists, ``Pull Request resolved:``, ``Approved by:``), about ``--milestone`` closed milestone PRs
picked in every shape (``-x`` trailers, ``(#N)`` subjects, bulk picks listing bullets, re-titled
picks only a patch id finds, modified picks, numbers that are prefixes of picked ones), reverts on
main and on the branch, PRs that landed before the cut, missing ones. ``--messages short`` builds the
same history with PR bodies cut to ``--short-bytes`` (a few hundred bytes a message, as many projects
write): the floor is then cheap and the engine's fixed costs show; ``both`` (the default) measures
the two shapes one after the other and prints both ratios.

What is timed, in paired runs (floor and engine alternated, their order swapped every run):

- floor: ``git log -z --format=<the engine's format> main <branch> --``, its output read into one
  Python bytes object and dropped. It is the cost of just reading the commits the analysis must
  read: all of main (after the cut every commit is judged; before it, the PRs that landed earlier
  are searched) and the branch's commits after the cut. One process, as a plain ``git log`` is.
- engine: ``branch_loader.load_branch_diff`` on the same clone: ref lookups, every ``git`` call
  (logs, the search before the cut, patch ids, ancestry checks), parsing and the analysis.

It prints the median engine/floor time ratio with its spread (min..max over the pairs; target
at most 1.2x), the engine/floor memory ratio (peak Python memory by ``tracemalloc``, one untimed
run each; target at most 1.5x), and how many verdicts differ from the planted truth (should be 0).
``--trace`` prints every git call of one engine run with its start and duration; ``--profile``
the top of a cProfile of one run. It always exits 0: benchmarks print, they never assert timings.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

from cockpit.adapters.git import GitRepo
from cockpit.adapters.git_log import LOG_FORMAT
from cockpit.sandbox.demo import cache_root
from cockpit.sandbox.scale_history import cached_scale_history
from cockpit.services.branch_loader import load_branch_diff


def read_floor(clone: str, branch: str) -> int:
    out = subprocess.run(
        [
            "git",
            "-C",
            clone,
            "log",
            "-z",
            f"--format={LOG_FORMAT}",
            "--no-show-signature",
            "--no-color",
            "main",
            branch,
            "--",
        ],
        check=True,
        stdout=subprocess.PIPE,
    ).stdout
    return len(out)


class Tracing:
    """A git port that notes when each call starts and how long it takes (calls may overlap)."""

    def __init__(self, repo: GitRepo) -> None:
        self.repo, self.calls, self.t0, self._lock = repo, [], time.perf_counter(), threading.Lock()

    def __getattr__(self, name):
        method = getattr(self.repo, name)

        def traced(*args, **kw):
            start = time.perf_counter()
            try:
                return method(*args, **kw)
            finally:
                end = time.perf_counter()
                what = " ".join(str(a)[:60] if not isinstance(a, list) else f"[{len(a)} items]" for a in args)
                extra = " grep" if kw.get("grep") else ""
                with self._lock:
                    self.calls.append((start - self.t0, end - start, f"{name}({what}){extra}"))

        return traced


def peak_memory(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(args, body_bytes: int) -> float:
    """Time one shape of history (``body_bytes`` 0: the merge bot's long messages); return the median ratio."""
    shape = f"short messages (bodies of ~{body_bytes} bytes)" if body_bytes else "long messages (the merge bot's)"
    print(
        f"history: {args.commits:,} commits on main, {args.after_cut:,} after the cut, "
        f"~{args.milestone:,} closed milestone PRs, {shape} (cached under {cache_root() / 'bench'})",
        flush=True,
    )
    world = cached_scale_history(
        cache_root() / "bench",
        trunk_commits=args.commits,
        after_cut=args.after_cut,
        milestone_prs=args.milestone,
        body_bytes=body_bytes,
    )
    items = world.milestone_items()
    repo = GitRepo(Path(world.clone), read_only=True)

    def engine(port=repo):
        return load_branch_diff(port, main="main", branch=world.branch, items=items, repository=world.repository)

    def floor():
        return read_floor(world.clone, world.branch)

    report = engine()  # warms the page cache for both
    floor_bytes = floor()
    pairs = []
    for k in range(args.runs):
        order = (("floor", floor), ("engine", engine)) if k % 2 == 0 else (("engine", engine), ("floor", floor))
        took = {}
        for name, fn in order:
            start = time.perf_counter()
            fn()
            took[name] = time.perf_counter() - start
        pairs.append((took["floor"], took["engine"]))
    ratios = sorted(e / f for f, e in pairs)
    floor_mem, engine_mem = peak_memory(floor), peak_memory(engine)

    got = {str(i.number): i.verdict.value for i in report.items}
    wrong = {n: (got.get(n), want) for n, want in world.verdicts.items() if got.get(n) != want}
    owed_ok = {r.revert_sha for r in report.reverts_to_propagate} == set(world.reverts_owed)
    only_ok = {c.sha for c in report.missing_in_main} == set(world.missing_in_main)
    print(
        f"items {len(items):,}; floor output {floor_bytes / 2**20:.1f} MiB; "
        f"{len(wrong)} verdicts differ from the planted truth; reverts owed {'match' if owed_ok else 'DIFFER'}; "
        f"fixes only on the branch {'match' if only_ok else 'DIFFER'}"
    )
    print(f"floor  (git log main {world.branch}): median {statistics.median(f for f, _ in pairs) * 1000:6.0f} ms")
    print(f"engine (load_branch_diff):        median {statistics.median(e for _, e in pairs) * 1000:6.0f} ms")
    print(
        f"engine/floor time   = {statistics.median(ratios):4.2f}x  (median of {args.runs} pairs, "
        f"spread {ratios[0]:.2f}..{ratios[-1]:.2f}; target <= 1.2x)"
    )
    print(
        f"engine/floor memory = {engine_mem / floor_mem:4.2f}x  (tracemalloc peak: "
        f"engine {engine_mem / 2**20:.1f} MiB, floor {floor_mem / 2**20:.1f} MiB; target <= 1.5x)"
    )
    if args.trace:
        tracing = Tracing(repo)
        engine(tracing)
        for start, took, what in sorted(tracing.calls):
            print(f"  git +{start * 1000:6.0f} ms  {took * 1000:6.0f} ms  {what}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(engine)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(18)
    return statistics.median(ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=100_000)
    parser.add_argument("--after-cut", type=int, default=20_000)
    parser.add_argument("--milestone", type=int, default=1_200)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--messages",
        choices=("both", "long", "short"),
        default="both",
        help="the merge bot's long messages, short ones (--short-bytes), or both in one run (default)",
    )
    parser.add_argument("--short-bytes", type=int, default=200, help="a short message's body, in bytes")
    parser.add_argument("--trace", action="store_true", help="print the git calls of one engine run")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one engine run")
    args = parser.parse_args()
    shapes = {"long": [0], "short": [args.short_bytes], "both": [0, args.short_bytes]}[args.messages]
    ratios = {size: measure(args, size) for size in shapes}
    print(
        "engine/floor time, both shapes: "
        + "; ".join(f"{'short' if size else 'long'} messages {r:4.2f}x" for size, r in ratios.items())
        + " (target <= 1.2x each)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
