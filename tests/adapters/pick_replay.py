"""Replay a pick prediction with the real ``git cherry-pick -x`` in a scratch clone, and snapshot a
clone byte for byte (every file under it) to prove a prediction wrote nothing."""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cockpit.domain.commits import PickPrediction
from cockpit.services.pick_predict import PickPlan


def _git(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Replay",
        "GIT_AUTHOR_EMAIL": "replay@example.invalid",
        "GIT_COMMITTER_NAME": "Replay",
        "GIT_COMMITTER_EMAIL": "replay@example.invalid",
    }
    return subprocess.run(["git", *args], cwd=where, env=env, capture_output=True, text=True, check=False)


@dataclass(frozen=True)
class Picked:
    """What ``git cherry-pick -x`` did: clean, the paths left unmerged, or an empty pick."""

    clean: bool
    conflicts: tuple[str, ...]
    empty: bool


class ScratchClone:
    """A throwaway ``git clone`` where picks are really made and undone."""

    def __init__(self, source: Path, where: Path) -> None:
        self.path = where
        done = subprocess.run(["git", "clone", "-q", "--no-checkout", str(source), str(where)], capture_output=True)
        assert done.returncode == 0, done.stderr

    def pick(self, head: str, commits: list[str]) -> Picked:
        assert _git(self.path, "checkout", "-q", "-f", "--detach", head).returncode == 0
        done = _git(self.path, "cherry-pick", "-x", *commits)
        unmerged = _git(self.path, "diff", "--name-only", "--diff-filter=U").stdout.split("\n")
        empty = done.returncode != 0 and "empty" in (done.stderr + done.stdout)
        _git(self.path, "cherry-pick", "--abort")
        _git(self.path, "reset", "-q", "--hard")
        return Picked(done.returncode == 0, tuple(sorted(p for p in unmerged if p)), empty)


def check_against_git(
    clone: ScratchClone, head: str, plans: dict[str, PickPlan], predicted: dict[str, PickPrediction]
) -> list[str]:
    """Every way the predictions disagree with git (empty when they all agree)."""
    wrong = []
    for key, guess in predicted.items():
        plan = plans[key]
        real = clone.pick(head, list(plan.commits))
        if guess.applies != real.clean or guess.empty != real.empty:
            wrong.append(f"{key}: predicted applies={guess.applies} empty={guess.empty}, git: {real}")
        elif not real.clean and not real.empty and tuple(sorted(guess.conflicts)) != real.conflicts:
            wrong.append(f"{key}: predicted conflicts {sorted(guess.conflicts)}, git: {list(real.conflicts)}")
        if guess.after:
            order = [sha for k in (*guess.after, key) for sha in plans[k].commits]
            after = clone.pick(head, order)
            if not after.clean:
                wrong.append(f"{key}: predicted to apply after {guess.after}, git: {after}")
    return wrong


def snapshot(path: Path) -> dict[str, str]:
    """Every file under ``path`` (the clone, ``.git`` included) with the sha256 of its bytes."""
    return {
        str(f.relative_to(path)): hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted(path.rglob("*"))
        if f.is_file()
    }
