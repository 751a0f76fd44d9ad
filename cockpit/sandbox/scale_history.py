"""Write the PyTorch-shaped history of ``scale_plan`` with one ``git fast-import`` stream, and cache it.

    build_scale_history(dest, trunk_commits=100_000, after_cut=20_000, milestone_prs=1_200, seed=11)

writes ``dest/torchlet`` (main, ``release/2.5``, ``orig/release/2.5`` at the cut, and a
commit-graph as ``git gc`` leaves in a maintained clone) and returns a ``ScaleHistory``: where it
is, the milestone as ``MilestoneItem``s, and the planted truth (every item's verdict, the reverts
the branch owes, the fixes made only on the branch). ``cached_scale_history`` builds it once per
size under a cache folder and reads it back afterwards.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.sandbox.gitgen import FastImport, run_git
from cockpit.sandbox.scale_model import Pick, ScalePlan, Trunk, trunk_time
from cockpit.sandbox.scale_plan import plan_scale
from cockpit.sandbox.world_names import CONTRIBUTORS, CORE, GITHUB, MERGEBOT, PICKBOT, RELEASE_MANAGERS, REVIEWERS

SCALE_FORMAT = 2
BRANCH, VERSION = "release/2.5", "2.5.0"


@dataclass
class ScaleHistory:
    """A written PyTorch-shaped history and what was planted in it."""

    clone: str
    repository: str
    branch: str
    cut: str
    items: list[dict]  # number, kind, title, state, labels, state_reason
    verdicts: dict[str, str]  # item number -> Verdict value
    reverts_owed: list[str]  # revert shas on main the branch must take
    missing_in_main: list[str]  # shas of fixes made only on the branch

    def milestone_items(self) -> list[MilestoneItem]:
        """The milestone as the GitHub adapter would give it."""
        kinds = {"pull": "pull", "issue": "issues"}
        return [
            MilestoneItem(
                i["number"],
                ItemKind(i["kind"]),
                i["title"],
                ItemState(i["state"]),
                f"{GITHUB}/{CORE}/{kinds[i['kind']]}/{i['number']}",
                labels=tuple(i["labels"]),
                state_reason=i["state_reason"],
            )
            for i in self.items
        ]


def _content(c: Trunk, conflict: bool = False) -> str:
    if (c.role and not c.role.startswith(("revert", "pre_"))) or conflict:
        extra = "    # resolved against the release branch\n" if conflict else ""
        return (
            f'"""Fix for #{c.pr}."""\n\n\ndef fix_{c.pr}(x):\n    if x is None:\n'
            f'        raise ValueError("expected a tensor")\n{extra}    return x\n'
        )
    return f'"""{c.file}"""\n\nREVISION = "{c.index}"\n\n\ndef op(x):\n    return x * {c.index % 97 + 2}\n'


def _trunk_message(plan: ScalePlan, c: Trunk, sha_of) -> str:
    if c.reverts is None:
        return f"{c.subject}\n\n{c.body}\n"
    target = plan.trunk[c.reverts]
    url = f"{GITHUB}/{CORE}/pull/{target.pr}"
    return (
        f'Revert "{target.subject}"\n\nThis reverts commit {sha_of(c.reverts)}.\n\n'
        f"Reverted {url} on behalf of {GITHUB}/{REVIEWERS[c.index % len(REVIEWERS)]} due to breaking "
        f"trunk ([comment]({url}#issuecomment-{2300000000 + c.index})))\n"
    )


def _one_pick_message(plan: ScalePlan, p: Pick, t: Trunk, sha_of) -> str:
    """The message of a pick of one trunk commit, in the shape ``p.shape`` names."""
    trailer = f"(cherry picked from commit {sha_of(t.index)})"
    if p.shape in ("x_pick", "conflict"):
        return f"{_trunk_message(plan, t, sha_of)}\n{trailer}\n"
    if p.shape == "pr_plain":
        body = t.body.rsplit("Pull Request resolved:", 1)[0].rstrip()
        return f"{t.subject} (#{p.release_pr})\n\n{body}\n"
    if p.shape == "pr_trailer":
        return f"{t.subject} (#{p.release_pr})\n\n{t.body}\n\n{trailer}\n"
    if p.shape == "retitled":
        return f"Backport: {t.title.lower()} to {BRANCH}\n\nThe same change, applied by hand to the release branch.\n"
    return f"{t.title}\n\nRe-applied by hand on the release branch.\n"  # reauthored


_ONE_TRUNK_COMMIT = ("x_pick", "conflict", "pr_plain", "pr_trailer", "retitled", "reauthored")


def _pick_message(plan: ScalePlan, p: Pick, sha_of, branch_sha) -> str:
    ts = [plan.trunk[i] for i in p.picks]
    if p.shape in _ONE_TRUNK_COMMIT:
        return _one_pick_message(plan, p, ts[0], sha_of)
    if p.shape == "bulk":
        bullets = "\n".join(f"* {c.subject}" for c in ts)
        return f"[{BRANCH}] Cherry-pick fixes (#{p.release_pr})\n\nThis picks the following fixes:\n\n{bullets}\n"
    if p.shape == "revert_branch":
        assert p.undoes is not None, "a revert on the branch undoes a pick"
        undone = plan.trunk[p.undoes.picks[0]]
        return f'Revert "{undone.subject}"\n\nThis reverts commit {branch_sha(p.undoes)}.\n'
    if p.shape == "branch_fix":
        return (
            f"{p.title} (#{p.release_pr})\n\nThe fix on main is part of a larger refactor; this is the smallest "
            f"fix for {BRANCH}.\n\nApproved by: {GITHUB}/{RELEASE_MANAGERS[1].login}\n"
        )
    if p.shape == "bump":
        return f"Bump version to {VERSION} (#{p.release_pr})\n\nSet version.txt to {VERSION} on {BRANCH}.\n"
    return (
        f"[{BRANCH}] Update triton pin to release/3.1.x (#{p.release_pr})\n\n"
        "The release wheels need triton's release branch.\n"
    )


def write_scale_history(plan: ScalePlan, clone: Path) -> None:
    """Write main and the release branch into a new repository at ``clone``; fill every ``sha``."""
    run_git(["init", "--quiet", "--initial-branch=main", str(clone)])
    fi = FastImport(clone / ".git")
    trunk_marks: list[int] = []
    blob_of: dict[int, int] = {}
    pick_marks: dict[int, int] = {}
    known: dict[int, str] = {}

    def sha_of(index: int) -> str:
        if index not in known:
            known[index] = fi.sha(trunk_marks[index])
        return known[index]

    def branch_sha(p: Pick) -> str:
        return p.sha or fi.sha(pick_marks[id(p)])

    bot = MERGEBOT.identity
    for c in plan.trunk:
        blob_of[c.index] = fi.blob(_content(c)) if not c.delete else 0
        change = [(c.file, None if c.delete else blob_of[c.index])]
        author = (MERGEBOT if c.reverts is not None else CONTRIBUTORS[c.index % len(CONTRIBUTORS)]).identity
        trunk_marks.append(
            fi.commit(
                "refs/heads/main",
                message=_trunk_message(plan, c, sha_of),
                author=author,
                author_time=trunk_time(c.index),
                committer=bot,
                committer_time=trunk_time(c.index),
                changes=change,
            )
        )
    cut_mark = trunk_marks[plan.cut]
    fi.branch(f"refs/heads/orig/{BRANCH}", cut_mark)
    for pos, p in enumerate(plan.branch):
        files = [(plan.trunk[i].file, None if plan.trunk[i].delete else blob_of[i]) for i in p.picks]
        if p.shape == "conflict":
            files = [(plan.trunk[p.picks[0]].file, fi.blob(_content(plan.trunk[p.picks[0]], conflict=True)))]
        elif p.shape == "revert_branch" and p.undoes is not None:
            files = [(plan.trunk[p.undoes.picks[0]].file, None)]
        elif p.shape in ("branch_fix", "bump", "pin"):
            path = {"bump": "version.txt", "pin": ".ci/docker/ci_commit_pins/triton.txt"}.get(p.shape)
            files = [(path or f"torchlet/release_fixes/fix_{p.release_pr}.py", fi.blob(f"{p.shape} {p.release_pr}\n"))]
        who = (PICKBOT if pos % 2 else RELEASE_MANAGERS[pos % 4 // 2]).identity
        mark = fi.commit(
            f"refs/heads/{BRANCH}",
            message=_pick_message(plan, p, sha_of, branch_sha),
            author=who,
            author_time=p.time,
            committer=who,
            committer_time=p.time,
            changes=files,
            parent=cut_mark if pos == 0 else None,
        )
        pick_marks[id(p)] = mark
    shas = fi.close()
    for c, mark in zip(plan.trunk, trunk_marks, strict=True):
        c.sha = shas[mark]
    for p in plan.branch:
        p.sha = shas[pick_marks[id(p)]]
    run_git(["commit-graph", "write", "--reachable"], cwd=clone)


def build_scale_history(
    dest: Path,
    *,
    trunk_commits: int = 100_000,
    after_cut: int = 20_000,
    milestone_prs: int = 1_200,
    body_bytes: int = 0,
    seed: int = 11,
) -> ScaleHistory:
    """Plan and write the history under ``dest`` (same arguments, same SHAs); ``body_bytes`` > 0: short messages."""
    plan = plan_scale(random.Random(seed), trunk_commits, after_cut, milestone_prs, body_bytes)
    clone = Path(dest) / "torchlet"
    write_scale_history(plan, clone)
    owed = [c.sha for c in plan.trunk if c.role in ("revert_of_picked_revert_owed", "pre_owed")]
    return ScaleHistory(
        clone=str(clone),
        repository=CORE,
        branch=BRANCH,
        cut=plan.trunk[plan.cut].sha,
        items=plan.items,
        verdicts={str(n): v for n, v in plan.verdicts.items()},
        reverts_owed=owed,
        missing_in_main=[p.sha for p in plan.branch if p.shape == "branch_fix"],
    )


def cached_scale_history(root: Path, **sizes: int) -> ScaleHistory:
    """The history for ``sizes`` under ``root``, built there once (into a temporary folder, then renamed)."""
    name = "-".join(f"{k}{v}" for k, v in sorted(sizes.items()) if v or k != "body_bytes")
    target = Path(root) / f"scale-f{SCALE_FORMAT}-{name}"
    marker = target / "history.json"
    if marker.exists():
        return ScaleHistory(**{**json.loads(marker.read_text()), "clone": str(target / "torchlet")})
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        history = build_scale_history(staging, **sizes)
        (staging / "history.json").write_text(json.dumps(asdict(history)))
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    history.clone = str(target / "torchlet")
    return history
