"""Cold-load GitHub requests of a release over 1, 2 and 3 repositories: per repository, linear.

    .venv/bin/python tests/benchmarks/bench_repos.py [--trunk-commits 400] [--dir DIR]

Builds (or reuses) the multi-repository sandbox world (the core ``acme/torchlet`` with the domain
libraries ``acme/vision`` and ``acme/audio``, ``cockpit.sandbox.world_libraries``; untimed), serves
it on 127.0.0.1, and for the core alone, the core with vision, and all three, loads the whole
release cold (a new backend: no ETag cache, no shared results) as ``cockpit report`` does: every
pane of the core, then every library (milestone, branch diff, picks, RC wheels, version pins). The
config of N repositories lists their ``[[ci]]`` entries only. Printed per run: the GitHub requests
of each repository (from the emulator's request log, by the ``/repos/OWNER/NAME`` they ask) and
the total, then how the total grows with each repository added: a library's requests are the same
whichever other repositories are configured, and never counted once per pane (its milestone list
serves its milestone, branch-diff and cherry-pick gates; its CI comes from the release's one CI load).
Not collected by pytest; ``tests/e2e/test_multi_repo_on_sandbox.py`` asserts the same linearity.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("GIT_CONFIG_GLOBAL", os.devnull)


def with_repositories(config: Any, count: int) -> Any:
    """``config`` reduced to its first ``count`` repositories (the core first) and their CI."""
    repos = config.repos[: count - 1]
    kept = {config.release.repository, *(r.repository for r in repos)}
    return replace(config, repos=repos, ci=tuple(t for t in config.ci if t.repository in kept))


def cold_requests(config: Any, github: Any) -> Counter[str]:
    """The GitHub requests of one cold load of the whole release, counted per ``owner/name``."""
    from cockpit.bootstrap import build_backend
    from cockpit.loaders.picture import gather

    github.request_log.clear()
    backend = build_backend(config, read_only=True)
    try:
        gather(backend)
    finally:
        backend.state.close()
    counted: Counter[str] = Counter()
    for entry in github.log():
        parts = entry["path"].split("?")[0].split("/")
        if len(parts) > 3 and parts[1] == "repos":
            counted[f"{parts[2]}/{parts[3]}"] += 1
        elif not entry["path"].startswith("/_sandbox"):
            counted["(other)"] += 1
    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trunk-commits", type=int, default=400)
    parser.add_argument("--dir", type=Path, help="build the world here (default: a temporary folder)")
    args = parser.parse_args()
    from cockpit.config import load_config
    from cockpit.sandbox.demo import SandboxServers, prepare_world, write_config

    with tempfile.TemporaryDirectory() as tmp:
        root = args.dir or Path(tmp)
        world = prepare_world(7, trunk_commits=args.trunk_commits, directory=root / "world", multi=True)
        (root / "config").mkdir(parents=True, exist_ok=True)
        with SandboxServers(world) as servers:
            path = write_config(world, root / "config", github_url=servers.github_url, index_url=servers.index_url)
            config = load_config(path)
            names = [r.repository for r in config.repositories]
            print(f"{'repositories':<14}" + "".join(f"{n:>16}" for n in names) + f"{'total':>10}{'added':>8}")
            previous = 0
            for count in range(1, len(names) + 1):
                counted = cold_requests(with_repositories(config, count), servers.github)
                total = sum(counted.values())
                cells = "".join(f"{counted.get(n, 0) if i < count else '-':>16}" for i, n in enumerate(names))
                print(f"{count:<14}{cells}{total:>10}{total - previous if previous else '':>8}")
                previous = total


if __name__ == "__main__":
    main()
