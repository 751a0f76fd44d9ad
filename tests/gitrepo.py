"""Build small, deterministic git repositories for tests with plain git commands.

Identity and dates are fixed (each commit one minute after the previous), and the developer's own
git config is ignored, so the same script always gives the same shas.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = "acme/torchlet"
EPOCH = 1_780_000_000


def pr_message(title: str, number: int, body: str = "", repository: str = REPO) -> tuple[str, str]:
    """Subject and body as the merge bot writes a trunk commit."""
    text = f"{body}\n\n" if body else ""
    return (
        f"{title} (#{number})",
        f"{text}Pull Request resolved: https://github.com/{repository}/pull/{number}\nApproved by: https://github.com/reviewer",
    )


class RepoBuilder:
    """A scratch repository; every method runs git and returns what a test needs (usually a sha)."""

    def __init__(self, path: Path, *, branch: str = "main") -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.clock = EPOCH
        self.git("init", "-q", "-b", branch)
        self.git("config", "user.name", "Release Bot")
        self.git("config", "user.email", "bot@example.invalid")
        self.git("config", "commit.gpgsign", "false")
        self.git("config", "tag.gpgsign", "false")

    def _env(self) -> dict[str, str]:
        self.clock += 60
        stamp = f"{self.clock} +0000"
        env = dict(os.environ)
        env.update(
            GIT_CONFIG_GLOBAL=os.devnull,
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_NAME="Dev Eloper",
            GIT_AUTHOR_EMAIL="dev@example.invalid",
            GIT_COMMITTER_NAME="Release Bot",
            GIT_COMMITTER_EMAIL="bot@example.invalid",
            GIT_AUTHOR_DATE=stamp,
            GIT_COMMITTER_DATE=stamp,
        )
        return env

    def git(self, *args: str, input: bytes | None = None, check: bool = True) -> str:
        done = subprocess.run(["git", *args], cwd=self.path, env=self._env(), input=input, capture_output=True)
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace')}")
        return done.stdout.decode(errors="replace").strip()

    def head(self, ref: str = "HEAD") -> str:
        return self.git("rev-parse", ref)

    def write(self, files: dict[str, str]) -> None:
        for name, content in files.items():
            target = self.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)
        self.git("add", "--", *files)

    def commit(
        self, subject: str, body: str = "", files: dict[str, str] | None = None, *, raw: bytes | None = None
    ) -> str:
        """Commit ``files`` (or an empty commit) with the message.

        ``raw`` gives the message as bytes, written verbatim (``git commit`` would re-encode
        invalid UTF-8 as Latin-1): a commit as malformed as history can hold.
        """
        if files:
            self.write(files)
        if raw is None:
            message = f"{subject}\n\n{body}" if body else subject
            self.git("commit", "-q", "--allow-empty", "-F", "-", input=message.encode())
            return self.head()
        who = f"Dev Eloper <dev@example.invalid> {self.clock} +0000"
        header = f"tree {self.git('write-tree')}\nparent {self.head()}\nauthor {who}\ncommitter {who}\n\n"
        sha = self.git("hash-object", "-t", "commit", "-w", "--literally", "--stdin", input=header.encode() + raw)
        self.git("update-ref", "HEAD", sha)
        return sha

    def pr(self, title: str, number: int, files: dict[str, str], body: str = "") -> str:
        """A trunk commit as the merge bot writes it."""
        subject, message = pr_message(title, number, body)
        return self.commit(subject, message, files)

    def checkout(self, branch: str, *, new_from: str | None = None) -> None:
        if new_from is not None:
            self.git("checkout", "-q", "-b", branch, new_from)
        else:
            self.git("checkout", "-q", branch)

    def branch(self, name: str, start: str = "HEAD") -> None:
        self.git("branch", name, start)

    def pick(
        self,
        *shas: str,
        subject: str | None = None,
        body: str | None = None,
        trailer: bool = True,
        edit: dict[str, str] | None = None,
    ) -> str:
        """Cherry-pick ``shas`` as one commit; ``subject``/``body`` rewrite the message, ``edit`` changes files."""
        for sha in shas:
            self.git("cherry-pick", "-n", sha)
        if edit:
            self.write(edit)
        if subject is None:
            original = self.git("log", "-1", "--format=%B", shas[0])
            subject, _, rest = original.partition("\n")
            body = rest.strip() if body is None else body
        text = body or ""
        if trailer:
            text += "".join(f"\n(cherry picked from commit {s})" for s in shas)
        return self.commit(subject, text.strip())

    def revert(self, sha: str, extra: str = "", *, subject: str | None = None) -> str:
        """``git revert`` of ``sha`` with git's message (``This reverts commit <sha>.``) plus ``extra``."""
        self.git("revert", "--no-commit", sha)
        title = self.git("log", "-1", "--format=%s", sha)
        body = f"This reverts commit {sha}." + (f"\n\n{extra}" if extra else "")
        return self.commit(subject or f'Revert "{title}"', body)

    def tag(self, name: str, ref: str = "HEAD") -> None:
        self.git("tag", "-a", "-m", name, name, ref)
