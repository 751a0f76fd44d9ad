"""Pick predictions on a history shaped like PyTorch's: the predictor against the bare ``git merge-tree``.

Reproduce (the history is the branch-diff benchmark's, built once and cached under
``$COCKPIT_CACHE_DIR/bench`` or ``~/.cache/release-cockpit/bench``):

    .venv/bin/python tests/benchmarks/bench_pick_predict.py [--commits 100000] [--after-cut 20000]
        [--milestone 1200] [--picks 300] [--runs 5]

The picks: every missing milestone PR and revert owed the branch diff finds, topped up with other
commits of main after the cut that the branch lacks (spread evenly over the range) to ``--picks``.
Many of those rewrite files main changed again, so they conflict, and some share files with each
other, so the search for an order runs too.

What is timed, in paired runs (floor and predictor alternated, their order swapped every run):

- floor: ONE ``git merge-tree --write-tree --stdin`` of the picks onto the release head (each the
  merge of the pick with a temporary commit holding the head's tree and the pick's parent), in a
  fresh scratch object directory (the merges write their trees there, as the predictor's do), with
  the temporary commits written beforehand, untimed. It is the merges themselves and nothing else.
- predictor: ``pick_predict.predict_picks`` through ``GitRepo.scratch_merges``: the temporary
  object directory, the changed paths, the head's tree, the temporary commits, the merges, the
  parse, the groups, and the search for an order (more merges) for picks that conflict alone.

It prints the median predictor/floor time ratio with its spread (target at most 1.3x), the same
ratio of CPU time (user + system of the cockpit and its git processes: steadier when other work
shares the machine), and how the picks were predicted. It always exits 0: benchmarks print, they never assert timings.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from cockpit.adapters.git import GitRepo
from cockpit.sandbox.demo import cache_root
from cockpit.sandbox.scale_history import cached_scale_history
from cockpit.services.branch_loader import load_branch_diff
from cockpit.services.pick_predict import PickPlan, plans_for, predict_picks


def choose_plans(repo: GitRepo, world, picks: int) -> tuple[list[PickPlan], str]:
    """The missing PRs and reverts owed, topped up with other trunk commits the branch lacks."""
    report = load_branch_diff(
        repo, main="main", branch=world.branch, items=world.milestone_items(), repository=world.repository
    )
    trunk = repo.log(f"{report.cut}..main")
    head = repo.rev_parse(world.branch) or ""
    plans = plans_for(report, trunk)[:picks]
    taken = {sha for p in plans for sha in p.commits}
    in_branch = {
        line.split()[-1]
        for line in _git(world.clone, "log", "--format=%b", f"{report.cut}..{head}").split("\n")
        if line.startswith("(cherry picked from commit ")
    }
    spare = [c for c in trunk if c.sha not in taken and c.sha.rstrip() not in in_branch and len(c.parents) == 1]
    step = max(1, len(spare) // max(1, picks - len(plans)))
    for n, c in enumerate(spare[::step][: picks - len(plans)]):
        plans.append(PickPlan(f"c{n}", (c.sha,), (c.parents[0],), len(trunk) - trunk.index(c)))
    return sorted(plans, key=lambda p: p.age), head


def _git(clone: str, *args: str, data: bytes | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(["git", "-C", clone, *args], input=data, capture_output=True, check=True, env=env)
    return done.stdout.decode(errors="replace")


class Clock:
    """Wall time and CPU time (user + system of this process and of the git processes it waited
    for) since it was made; the CPU time does not count waiting for a busy machine."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), self._cpu()

    @staticmethod
    def _cpu() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    def took(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, self._cpu() - self.cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=100_000)
    parser.add_argument("--after-cut", type=int, default=20_000)
    parser.add_argument("--milestone", type=int, default=1_200)
    parser.add_argument("--picks", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    world = cached_scale_history(
        cache_root() / "bench", trunk_commits=args.commits, after_cut=args.after_cut, milestone_prs=args.milestone
    )
    repo = GitRepo(Path(world.clone), read_only=True)
    plans, head = choose_plans(repo, world, args.picks)
    print(
        f"history: {args.commits:,} commits on main, {args.after_cut:,} after the cut; {len(plans)} picks", flush=True
    )

    def predictor():
        with repo.scratch_merges() as lab:
            return predict_picks(plans, head, lab)

    def floor() -> tuple[float, float]:
        """The merges alone, in a fresh scratch directory like the predictor's (they write the
        same objects); its temporary commits are written first, untimed. (wall, CPU) seconds."""
        with repo.scratch_merges() as lab:
            tree = lab.tree_of(head)
            bases = lab.temporary_commits([(tree, p.parents[0]) for p in plans])
            lines = "".join(f"{b} {p.commits[0]}\n" for b, p in zip(bases, plans, strict=True)).encode()
            env = {**os.environ, **lab.env, "GIT_OPTIONAL_LOCKS": "0"}
            clock = Clock()
            _git(world.clone, "merge-tree", "--write-tree", "--stdin", "-z", "--messages", data=lines, env=env)
            return clock.took()

    def timed_predictor() -> tuple[float, float]:
        clock = Clock()
        predictor()
        return clock.took()

    def settled(took: tuple[float, float]) -> tuple[float, float]:
        """``took``, after the scratch directories left behind are deleted (untimed), so that one
        side's cleanup never runs into the other side's timing."""
        for thread in threading.enumerate():
            if thread.name == "scratch-cleanup":
                thread.join()
        return took

    got = predictor()  # warms the page cache for both
    floor()
    pairs = []
    for k in range(args.runs):
        if k % 2 == 0:
            f = settled(floor())
            e = settled(timed_predictor())
        else:
            e = settled(timed_predictor())
            f = settled(floor())
        pairs.append((f, e))
    ratios = sorted(e[0] / f[0] for f, e in pairs)
    cpu = sorted(e[1] / f[1] for f, e in pairs)
    values = list(got.values())
    print(
        f"predicted: {sum(p.applies for p in values)} apply, {sum(bool(p.conflicts) for p in values)} conflict "
        f"({sum(bool(p.after) for p in values)} of them apply after others), {sum(p.empty for p in values)} empty, "
        f"{sum(bool(p.group) for p in values)} share paths with another pick"
    )
    print(f"floor     (one merge-tree --stdin): median {statistics.median(f[0] for f, _ in pairs) * 1000:6.0f} ms")
    print(f"predictor (predict_picks):          median {statistics.median(e[0] for _, e in pairs) * 1000:6.0f} ms")
    print(
        f"predictor/floor time = {statistics.median(ratios):4.2f}x  (median of {args.runs} pairs, "
        f"spread {ratios[0]:.2f}..{ratios[-1]:.2f}; target <= 1.3x)"
    )
    print(
        f"predictor/floor CPU  = {statistics.median(cpu):4.2f}x  (user+system of cockpit and git, median of "
        f"{args.runs} pairs, spread {cpu[0]:.2f}..{cpu[-1]:.2f}; steadier than time on a loaded machine)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
