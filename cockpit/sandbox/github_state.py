"""The emulator's in-memory view of one sandbox repository: lookups by number and id, kept current.

Mutations go through the methods here so the indexes stay right; the caller holds the emulator's
lock. Nothing here knows HTTP.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from cockpit.sandbox.model import (
    SbCheckRun,
    SbComment,
    SbIssue,
    SbPull,
    SbRepo,
    SbWorkflowRun,
)

_SHA = re.compile(r"^[0-9a-f]{7,40}$")
_REF_NAME = re.compile(r"^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,200}$")


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class RepoState:
    """One ``SbRepo`` with indexes. Issues and pull requests share one number space."""

    def __init__(self, repo: SbRepo, remote: Path | None = None) -> None:
        self.repo = repo
        self.remote = remote  # the world's bare "origin" of this repository: what a push there made, GitHub knows
        self.items: dict[int, SbIssue | SbPull] = {i.number: i for i in repo.issues}
        self.items.update({p.number: p for p in repo.pulls})
        self.pulls: dict[int, SbPull] = {p.number: p for p in repo.pulls}
        self.pull_by_merge_sha: dict[str, SbPull] = {p.merge_commit_sha: p for p in repo.pulls if p.merge_commit_sha}
        self.milestones = {m.number: m for m in repo.milestones}
        self.comments: dict[int, SbComment] = {c.id: c for c in repo.comments}
        self.moved: dict[int, tuple[str, int]] = {}  # transferred issue -> (repository, its number there)
        self.deleted: set[int] = set()
        self.runs: dict[int, SbWorkflowRun] = {r.id: r for r in repo.workflow_runs}
        self.checks_by_sha: dict[str, list[SbCheckRun]] = {}
        self.checks_by_run: dict[int, list[SbCheckRun]] = {}
        for c in repo.check_runs:
            self.checks_by_sha.setdefault(c.head_sha, []).append(c)
            self.checks_by_run.setdefault(c.run_id, []).append(c)

    def comments_on(self, number: int) -> list[SbComment]:
        return sorted((c for c in self.comments.values() if c.issue_number == number), key=lambda c: c.id)

    def comment_counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for c in self.comments.values():
            counts[c.issue_number] = counts.get(c.issue_number, 0) + 1
        return counts

    def milestone_counts(self) -> dict[int, tuple[int, int]]:
        """Milestone number -> (open items, closed items)."""
        counts: dict[int, tuple[int, int]] = dict.fromkeys(self.milestones, (0, 0))
        for item in self.items.values():
            if item.milestone in counts:
                o, c = counts[item.milestone]
                counts[item.milestone] = (o + 1, c) if item.state == "open" else (o, c + 1)
        return counts

    def resolve_ref(self, ref: str) -> str | None:
        """A branch name, tag name or (abbreviated) sha -> the commit sha, or None."""
        if ref in self.repo.branches:
            return self.repo.branches[ref]
        if ref in self.repo.tags:
            return self.repo.tags[ref]
        if _SHA.match(ref):
            if len(ref) == 40:
                return ref
            for sha in self.checks_by_sha:
                if sha.startswith(ref):
                    return sha
        return self.pushed(ref)

    def pushed(self, ref: str) -> str | None:
        """The commit of a tag or branch pushed to the world's remote since it was built (an RC tag the cockpit
        pushed in the demo), as GitHub would know it at once; None when there is none. Kept once found."""
        if self.remote is None or not _REF_NAME.match(ref):
            return None
        for full in (f"refs/tags/{ref}", f"refs/heads/{ref}"):
            found = subprocess.run(
                ["git", "--git-dir", str(self.remote), "rev-parse", "--verify", "--quiet", f"{full}^{{commit}}"],
                capture_output=True,
                text=True,
                check=False,
            )
            sha = found.stdout.strip()
            if found.returncode == 0 and _SHA.match(sha):
                (self.repo.tags if full.startswith("refs/tags/") else self.repo.branches)[ref] = sha
                return sha
        return None

    def history(self, ref: str) -> list[str] | None:
        """Commit shas newest first starting at a branch or at a sha found in some branch history."""
        if ref in self.repo.branch_history:
            return self.repo.branch_history[ref]
        for shas in self.repo.branch_history.values():
            if ref in shas:
                return shas[shas.index(ref) :]
        sha = self.resolve_ref(ref)
        return [sha] if sha else None

    def add_comment(self, comment_id: int, number: int, author: str, body: str) -> SbComment:
        stamp = now_iso()
        comment = SbComment(
            id=comment_id, issue_number=number, author=author, body=body, created_at=stamp, updated_at=stamp
        )
        self.repo.comments.append(comment)
        self.comments[comment.id] = comment
        self.items[number].updated_at = stamp
        return comment

    def delete_comment(self, comment_id: int) -> None:
        comment = self.comments.pop(comment_id)
        self.repo.comments.remove(comment)

    def take_out(self, number: int) -> SbIssue:
        """Remove an issue (transferred or deleted) with its comments; GitHub keeps neither here."""
        item = self.items.pop(number)
        assert isinstance(item, SbIssue), f"#{number} is a pull request: only issues are taken out"
        self.repo.issues.remove(item)
        for comment in self.comments_on(number):
            self.delete_comment(comment.id)
        return item

    def rerun_failed(self, run: SbWorkflowRun) -> int:
        """Flip the run's failed jobs to queued; return how many were flipped."""
        flipped = 0
        for job in self.checks_by_run.get(run.id, []):
            if job.status == "completed" and job.conclusion in ("failure", "cancelled", "timed_out"):
                job.status, job.conclusion, job.completed_at = "queued", None, None
                flipped += 1
        if flipped:
            run.status, run.conclusion = "queued", None
            run.run_attempt += 1
        return flipped
