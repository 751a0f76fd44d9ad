"""Branch diff over a PyTorch-sized history: the engine against the bare ``git log`` and today's script.

    .venv/bin/python tests/benchmarks/bench_branch_diff.py [--commits 100000] [--items 1000] [--runs 3]

Builds (once, cached under ``$COCKPIT_CACHE_DIR`` or ``~/.cache/release-cockpit/bench``) a sandbox
world with ``--commits`` trunk commits and an ``--items`` milestone, reads the milestone through the
GitHub emulator and the real adapter, then times, best of ``--runs``:

- engine: ``branch_loader.load_branch_diff`` on the real clone (every git call and all parsing);
- floor: the same ``git log`` commands the engine runs (``cut..main``, ``cut..branch``, and the ONE
  grep of the history before the cut for PRs merged earlier), same format, output read and thrown
  away; the two post-cut ranges alone are printed too;
- baseline: what ``github_analyze.py --missing-in-branch`` does: read both ranges, then look for each
  item's PR URL as a substring of every commit message.

It prints engine/floor (target: within 1.5x) and baseline/engine, and the engine's peak Python
memory (tracemalloc, in a separate untimed run). Target within 1.5x of the floor.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from cockpit.adapters.git import _LOG_FORMAT, GitRepo
from cockpit.adapters.github import GitHubClient
from cockpit.domain.commits import Verdict
from cockpit.sandbox.demo import SandboxServers, cache_root
from cockpit.sandbox.world import WORLD_FORMAT, build_world, load_world, save_world
from cockpit.services.branch_loader import load_branch_diff


def world_for(commits: int, items: int):
    """The cached world for these sizes, built into a temporary folder first when absent."""
    target = cache_root() / "bench" / f"branch-diff-seed7-n{commits}-m{items}-f{WORLD_FORMAT}"
    marker = target / "world.json"
    if marker.exists():
        return with_commit_graph(load_world(marker))
    target.parent.mkdir(parents=True, exist_ok=True)
    print(f"building a {commits:,}-commit world with a {items:,}-item milestone in {target} (once)...", flush=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        world = build_world(staging, seed=7, trunk_commits=commits, milestone_items=items)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    staging.rename(target)
    for attr in ("clone_path", "remote_path"):
        setattr(world, attr, str(target / Path(getattr(world, attr)).relative_to(staging)))
    subprocess.run(["git", "-C", world.clone_path, "remote", "set-url", "origin", world.remote_path], check=True)
    save_world(world, marker)
    return with_commit_graph(world)


def with_commit_graph(world):
    """What ``git gc`` leaves in any maintained clone; without it ``merge-base --is-ancestor``
    (asked once per owed revert of a pre-cut commit) walks the whole history."""
    graph = Path(world.clone_path) / ".git" / "objects" / "info" / "commit-graph"
    if not graph.exists():
        subprocess.run(["git", "-C", world.clone_path, "commit-graph", "write", "--reachable"], check=True, capture_output=True)
    return world


def milestone_items(world):
    """The milestone as the cockpit reads it: through the GitHub emulator and the real adapter."""
    with SandboxServers(world) as servers:
        client = GitHubClient(servers.github_url, None, read_only=True)
        try:
            return client.milestone_items(world.repository, world.milestone_number)
        finally:
            client.close()


def best(runs: int, fn):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


class Recording:
    """A git port that notes the arguments of every ``log`` call, to replay them as the floor."""

    def __init__(self, repo: GitRepo) -> None:
        self.repo, self.logs = repo, []

    def __getattr__(self, name):
        return getattr(self.repo, name)

    def log(self, rev_range, *, grep=None, fixed_strings=False, extended=False):
        self.logs.append((rev_range, list(grep or ()), extended))
        return self.repo.log(rev_range, grep=grep, fixed_strings=fixed_strings, extended=extended)


def floor(clone: str, logs) -> None:
    for rev_range, grep, extended in logs:
        extra = [f"--grep={g}" for g in grep] + (["--extended-regexp"] if extended else [])
        subprocess.run(["git", "-C", clone, "log", "-z", f"--format={_LOG_FORMAT}", "--no-show-signature", "--no-color",
                        *extra, rev_range, "--"], check=True, stdout=subprocess.PIPE)


def baseline(clone: str, ranges: list[str], urls: list[str]) -> int:
    """Today's script: messages of both ranges, each item's URL searched as a substring in each."""
    messages = []
    for rev_range in ranges:
        out = subprocess.run(["git", "-C", clone, "log", "--format=%H%x1f%B%x00", rev_range, "--"], check=True,
                             stdout=subprocess.PIPE).stdout.decode("utf-8", "replace")
        messages += [chunk.partition("\x1f")[2] for chunk in out.split("\x00") if chunk.strip()]
    found = 0
    for url in urls:
        for message in messages:
            if url in message:
                found += 1
                break
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    world = world_for(args.commits, args.items)
    items = milestone_items(world)
    repo = GitRepo(Path(world.clone_path), read_only=True)
    main_ref, branch = "main", world.release_branch
    cut = world.truth["cut_sha"]
    ranges = [f"{cut}..{repo.rev_parse(main_ref)}", f"{cut}..{repo.rev_parse(branch)}"]
    sizes = [len(subprocess.run(["git", "-C", world.clone_path, "rev-list", r], check=True, stdout=subprocess.PIPE).stdout.split())
             for r in ranges]
    print(f"world: {args.commits:,} trunk commits, {len(items):,} milestone items; "
          f"cut..main {sizes[0]:,} commits, cut..{branch} {sizes[1]:,} commits")

    def engine(port=repo):
        return load_branch_diff(port, main=main_ref, branch=branch, items=items, repository=world.repository)

    recording = Recording(repo)
    engine(recording)  # warms the page cache for everyone, and notes the engine's git log commands
    ranges_s, _ = best(args.runs, lambda: floor(world.clone_path, [(r, [], False) for r in ranges]))
    floor_s, _ = best(args.runs, lambda: floor(world.clone_path, recording.logs))
    engine_s, report = best(args.runs, engine)
    urls = [i.html_url for i in items]
    baseline_s, _ = best(args.runs, lambda: baseline(world.clone_path, ranges, urls))

    tracemalloc.start()
    engine()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    wrong = {n: (v.value, world.truth["verdicts"].get(str(n))) for n, v in ((i.number, i.verdict) for i in report.items)
             if world.truth["verdicts"].get(str(n)) != v.value}
    missing = sum(1 for i in report.items if i.verdict is Verdict.MISSING)
    print(f"post-cut ranges alone (bare git log):   {ranges_s * 1000:8.0f} ms")
    print(f"floor    (the engine's git log commands): {floor_s * 1000:6.0f} ms   ({len(recording.logs)} commands)")
    print(f"engine   (load_branch_diff):             {engine_s * 1000:8.0f} ms   {missing} missing, "
          f"{len(report.reverts_to_propagate)} reverts owed, {len(wrong)} verdicts differ from the planted truth")
    print(f"baseline (substring URL search):        {baseline_s * 1000:8.0f} ms")
    print(f"engine/floor    = {engine_s / floor_s:5.2f}x   (target <= 1.5x)")
    print(f"baseline/engine = {baseline_s / engine_s:5.2f}x")
    print(f"engine peak Python memory (tracemalloc): {peak / 2**20:.1f} MiB")
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
