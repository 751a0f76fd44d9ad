"""The multi-repository sandbox: the core release plus two domain libraries, each a release of its own.

``add_libraries(world, dest)`` turns a built core world into the release of ``acme/torchlet`` 2.5.0
with ``acme/vision`` 0.20.0 (``release/0.20``) and ``acme/audio`` 2.5.0 (``release/2.5``). Each
library gets its own git clone and bare origin under ``dest`` (main, the cut, cherry-picks with
``-x``, RC tags, a ``requirements.txt`` pinning the core), a milestone of merged trunk PRs, a
tracker issue with one request, and its wheels in the RC index at its own version. The core's
tracker already asks for a vision fix (``acme/vision#8123`` with release PR ``#8190``): here that
release PR targets vision's own branch.

Planted faults, all in the libraries (``truth["libraries"][name]``):

- vision: a milestone PR never picked into ``release/0.20`` (``missing``), CI red at its branch head;
- audio: ``requirements.txt`` on ``release/2.5`` pins the previous core release (``torchlet==2.4.0``).

The core world's own storage gaps fall on the libraries too: a wheel of ``torchlet-vision`` whose
metadata names another version, a yanked ``torchlet-audio`` wheel. ``truth["libraries"][name]["gates"]``
holds the gate each library must show (``milestone_empty``, ``branch_diff_clean``, ``picks_clear``,
``ci_green``, ``rc_artifacts``, ``versions_coherent``).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cockpit.sandbox.model import SbComment, SbIssue, SbMilestone, SbPull, World
from cockpit.sandbox.world_names import AUDIO, CONTRIBUTORS, DAY, HOUR, T_CUT, T_END, VISION, iso

LIBRARIES_FORMAT = 1  # bump whenever what add_libraries plants changes: cached multi worlds are rebuilt
MILESTONE = 1
PIN_FILE = "requirements.txt"
CORE_PACKAGE = "torchlet"
PREVIOUS_CORE = "2.4.0"
ISSUE = 40  # the closed issue of each milestone is the library's first PR number + this


@dataclass(frozen=True)
class Library:
    """One planted domain library."""

    name: str
    repository: str
    version: str
    branch: str
    package: str
    first_pr: int  # its PR numbers start here (above every number the core world gives it)
    pinned_core: str  # the core version its release branch pins
    missing: bool  # one milestone PR is never picked into the branch


def libraries(core_version: str) -> tuple[Library, ...]:
    """vision and audio, as the multi-repository world plants them."""
    return (
        Library("vision", VISION, "0.20.0", "release/0.20", "torchlet-vision", 8200, core_version, True),
        Library("audio", AUDIO, core_version, "release/2.5", "torchlet-audio", 300, PREVIOUS_CORE, False),
    )


def _env(when: int = T_CUT) -> dict[str, str]:
    """Fixed identities and dates, and none of the developer's git config (signing, hooks, templates)."""
    return {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_DATE": f"{when} +0000",
        "GIT_COMMITTER_DATE": f"{when} +0000",
        "GIT_AUTHOR_NAME": CONTRIBUTORS[0].name,
        "GIT_AUTHOR_EMAIL": f"{CONTRIBUTORS[0].login}@users.noreply.example.com",
        "GIT_COMMITTER_NAME": CONTRIBUTORS[1].name,
        "GIT_COMMITTER_EMAIL": f"{CONTRIBUTORS[1].login}@users.noreply.example.com",
    }


def _git(clone: Path, *args: str, when: int = T_CUT) -> str:
    done = subprocess.run(["git", "-C", str(clone), *args], env=_env(when), capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _commit(clone: Path, path: str, text: str, subject: str, when: int) -> str:
    (clone / path).parent.mkdir(parents=True, exist_ok=True)
    (clone / path).write_text(text, encoding="utf-8")
    _git(clone, "add", path)
    _git(clone, "commit", "-q", "-m", subject, when=when)
    return _git(clone, "rev-parse", "HEAD")


def _build_git(lib: Library, dest: Path, core_version: str) -> tuple[Path, Path, dict]:
    """The library's clone and origin; returns the planted facts (PR number -> main SHA, picks, tags)."""
    short = lib.repository.split("/")[1]
    clone, remote = dest / short, dest / f"{short}-remote.git"
    for args in (["--bare", str(remote)], [str(clone)]):
        subprocess.run(["git", "init", "-q", "-b", "main", *args], env=_env(), check=True, capture_output=True)
    minor = lib.branch.removeprefix("release/")
    dev_pin = f"{CORE_PACKAGE}>={core_version.rsplit('.', 1)[0]}.0.dev\n"
    when = T_CUT - 20 * DAY
    _commit(clone, PIN_FILE, dev_pin, "Initial layout", when)
    before_cut = {}
    for k in range(3):
        number = lib.first_pr + k
        when += DAY
        before_cut[number] = _commit(
            clone, f"{short}/ops_{k}.py", f"def op_{k}(x):\n    return x + {k}\n", f"Add op_{k} (#{number})", when
        )
    cut = _git(clone, "rev-parse", "HEAD")
    _git(clone, "branch", lib.branch)
    after_cut = {}
    when = T_CUT + DAY
    for k in range(3, 7):
        number = lib.first_pr + k
        when += DAY // 2
        after_cut[number] = _commit(
            clone,
            f"{short}/fix_{k}.py",
            f"def fix_{k}(x):\n    return x * {k}\n",
            f"Fix {short} kernel {k} (#{number})" + (f"\n\nFixes #{lib.first_pr + ISSUE}" if k == 3 else ""),
            when,
        )
    _git(clone, "checkout", "-q", lib.branch)
    when += HOUR
    _commit(clone, PIN_FILE, f"{CORE_PACKAGE}=={lib.pinned_core}\n", f"Pin {CORE_PACKAGE}=={lib.pinned_core}", when)
    missing = max(after_cut) if lib.missing else None
    picks = {}
    tags = {}
    for n, (number, sha) in enumerate(sorted(after_cut.items())):
        if number == missing:
            continue
        when += HOUR
        _git(clone, "cherry-pick", "-x", sha, when=when)
        picks[number] = _git(clone, "rev-parse", "HEAD")
        if n == 0:
            tags[f"v{lib.version}-rc1"] = picks[number]
    tags[f"v{lib.version}-rc2"] = _git(clone, "rev-parse", "HEAD")
    for tag, sha in tags.items():
        _git(clone, "tag", "-a", tag, sha, "-m", f"{short} {tag}", when=when)
    _git(clone, "checkout", "-q", "main")
    _git(clone, "remote", "add", "origin", str(remote))
    _git(clone, "push", "-q", "origin", "main", lib.branch, "--tags")
    _git(clone, "fetch", "-q", "origin")
    facts = {
        "cut": cut,
        "before_cut": before_cut,
        "after_cut": after_cut,
        "picks": picks,
        "missing": missing,
        "tags": tags,
        "minor": minor,
    }
    return clone, remote, facts


def _request(trunk: int, release: int, repository: str) -> str:
    base = f"https://github.com/{repository}/pull"
    return (
        "Link to landed trunk PR (if applicable):\n"
        f"* {base}/{trunk}\n\n"
        "Link to release branch PR:\n"
        f"* {base}/{release}\n\n"
        "Criteria Category:\n"
        "* Critical fix\n"
    )


def _plant_github(world: World, lib: Library, facts: dict) -> dict:
    """The library's milestone, PRs, tracker and branch CI in the GitHub emulator; returns its numbers."""
    repo = world.repos[lib.repository]
    repo.milestones.append(
        SbMilestone(MILESTONE, lib.version, "open", f"{lib.name} {lib.version}", iso(T_END + 9 * DAY))
    )
    for number, sha in sorted(facts["after_cut"].items()):
        author = CONTRIBUTORS[number % len(CONTRIBUTORS)].login
        when = T_CUT + (number - lib.first_pr) * DAY // 2
        repo.pulls.append(
            SbPull(
                number,
                f"Fix {lib.name} kernel {number - lib.first_pr}",
                author,
                "main",
                f"{author}/fix-{number}",
                "closed",
                True,
                "",
                [],
                [],
                MILESTONE,
                iso(when - DAY),
                iso(when),
                iso(when),
                iso(when),
                sha,
                sha,
            )
        )
    issue = lib.first_pr + ISSUE
    repo.issues.append(
        SbIssue(
            issue,
            f"{lib.name}: wrong output on empty input",
            CONTRIBUTORS[3].login,
            "closed",
            "It fails.",
            [],
            [],
            MILESTONE,
            iso(T_CUT),
            iso(T_CUT + 2 * DAY),
            iso(T_CUT + 2 * DAY),
            "completed",
        )
    )
    tracker = lib.first_pr + 50
    repo.issues.append(
        SbIssue(
            tracker,
            f"[v{lib.version}] Release Tracker",
            CONTRIBUTORS[4].login,
            "open",
            f"Cherry-picks into {lib.branch} are requested here.",
            ["release tracker"],
            [],
            None,
            iso(T_CUT),
            iso(T_END),
        )
    )
    trunk = min(facts["picks"])
    release = lib.first_pr + 60
    pick_sha = facts["picks"][trunk]
    when = T_CUT + 3 * DAY
    repo.pulls.append(
        SbPull(
            release,
            f"[{lib.branch}] Fix {lib.name} kernel {trunk - lib.first_pr}",
            CONTRIBUTORS[5].login,
            lib.branch,
            f"cherry-pick-{trunk}",
            "closed",
            True,
            "",
            [],
            [],
            None,
            iso(when),
            iso(when + HOUR),
            iso(when + HOUR),
            iso(when + HOUR),
            pick_sha,
            pick_sha,
        )
    )
    repo.comments.append(
        SbComment(
            9_000_000 + tracker,
            tracker,
            CONTRIBUTORS[6].login,
            _request(trunk, release, lib.repository),
            iso(when - HOUR),
            iso(when - HOUR),
        )
    )
    _move_ci(repo, world.release_branch, lib.branch)
    for pull in repo.pulls:  # the pick the core's tracker asks for targets the library's own branch
        if pull.base == world.release_branch != lib.branch:
            pull.base, pull.title = lib.branch, pull.title.replace(f"[{world.release_branch}]", f"[{lib.branch}]")
    return {"milestone": MILESTONE, "tracker": tracker, "release_pr": release, "trunk_pr": trunk}


def _move_ci(repo, old: str, new: str) -> None:
    """The library's CI runs, planted on the core's branch name, moved to its own release branch."""
    if old == new:
        return
    repo.branches[new] = repo.branches.pop(old)
    repo.branch_history[new] = repo.branch_history.pop(old)
    for run in repo.workflow_runs:
        if run.head_branch == old:
            run.head_branch = new


def _fail_ci(repo, branch: str) -> str:
    """A required job failing at the branch head: the library's CI goes red. Returns the job's name."""
    head = repo.branches[branch]
    runs = {r.id: r for r in repo.workflow_runs if r.head_sha == head and r.name == "trunk"}
    job = next(c for c in repo.check_runs if c.run_id in runs and "unstable" not in c.name and c.status == "completed")
    job.conclusion = "failure"
    runs[job.run_id].conclusion = "failure"
    return job.name


def _reversion_wheels(world: World, lib: Library) -> None:
    """The library's RC wheels carry its own version, not the core's."""
    old = f"-{world.version}"
    for wheel in world.wheels:
        if wheel.package == lib.package and wheel.channel == "test" and old in wheel.filename:
            wheel.filename = wheel.filename.replace(old, f"-{lib.version}", 1)


def add_libraries(world: World, dest: Path) -> World:
    """``world`` (a core world built in ``dest``) with vision and audio released alongside; see the module."""
    storage = world.truth.get("storage", {})
    found = {}
    for lib in libraries(world.version):
        clone, remote, facts = _build_git(lib, dest, world.version)
        numbers = _plant_github(world, lib, facts)
        _reversion_wheels(world, lib)
        ci = world.ci_repositories[lib.repository]
        if lib.name == "vision":
            facts["failed_job"] = _fail_ci(world.repos[lib.repository], lib.branch)
            ci = world.ci_repositories[lib.repository] = world.truth["ci"][lib.repository] = "red"
        storage_faults = [
            kind
            for kind in ("missing", "yanked", "oversize", "wrong_version")
            for gap in storage.get(kind, ())
            if str(gap).startswith(lib.package.replace("-", "_") + "-")
        ]
        world.libraries.append(
            {
                "name": lib.name,
                "repository": lib.repository,
                "version": lib.version,
                "branch": lib.branch,
                "clone_path": str(clone),
                "remote_path": str(remote),
                "milestone": numbers["milestone"],
                "tracker_issue": numbers["tracker"],
                "packages": [lib.package],
                "core_pins": [PIN_FILE],
            }
        )
        found[lib.name] = {
            **numbers,
            "missing": [facts["missing"]] if facts["missing"] else [],
            "picked": sorted(facts["picks"]),
            "tags": facts["tags"],
            "pinned_core": lib.pinned_core,
            "storage_faults": storage_faults,
            "gates": {
                "milestone_empty": "green",
                "branch_diff_clean": "red" if facts["missing"] else "green",
                "picks_clear": "green",
                "ci_green": ci,
                "rc_artifacts": "red" if storage_faults else "green",
                "versions_coherent": "green" if lib.pinned_core == world.version else "red",
            },
        }
    world.truth["libraries"] = found
    world.packages = [CORE_PACKAGE]
    return world
