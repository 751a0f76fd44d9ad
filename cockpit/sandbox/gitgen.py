"""Write a git history with one ``git fast-import`` stream, then give it a bare "origin".

The stream is written to the bare remote directly; the working clone is a plain ``git clone`` of
it, so ``origin`` and the remote-tracking refs are real and ``git push origin <tag>`` works.
Every git call runs with a fixed environment: a user's or the system's git config cannot change
a single SHA.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cockpit.errors import GitError

_FLUSH_BYTES = 1 << 20


def git_env() -> dict[str, str]:
    """The environment for every sandbox git call: no system/global config, no prompts."""
    env = dict(os.environ)
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
        env.pop(var, None)
    return env


def run_git(args: Sequence[str], cwd: Path | None = None) -> str:
    """Run ``git <args>`` and return stdout; raise GitError with git's own message on failure."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, env=git_env(), capture_output=True, text=True, check=False)
    except OSError as exc:
        raise GitError(f"cannot run git ({exc.strerror or exc}): the sandbox needs git >= 2.30 on PATH") from None
    if done.returncode != 0:
        raise GitError(f"'git {' '.join(args)}' failed: {done.stderr.strip() or done.returncode}")
    return done.stdout


@dataclass(frozen=True)
class Identity:
    """An author, committer or tagger: ``name <email>``."""

    name: str
    email: str

    def at(self, when: int) -> str:
        return f"{self.name} <{self.email}> {when} +0000"


class FastImport:
    """A running ``git fast-import`` writing into ``repo`` (a git directory).

    Marks are plain integers handed out here. ``sha(mark)`` asks fast-import for a commit's SHA in
    the middle of the stream (``get-mark``), which is how a revert can name the commit it reverts.
    ``close()`` finishes the stream and returns every mark's SHA.
    """

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._next_mark = 1
        self._tips: dict[str, int] = {}
        self._chunks: list[bytes] = []
        self._size = 0
        self._marks_file = Path(tempfile.mkstemp(prefix="marks.", dir=repo)[1])
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - open for the whole import; close() closes it
        try:
            self._proc = subprocess.Popen(
                ["git", "fast-import", "--quiet", "--done", f"--export-marks={self._marks_file}"],
                cwd=repo,
                env=git_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
        except OSError as exc:
            raise GitError(
                f"cannot run git fast-import ({exc.strerror or exc}): the sandbox needs git on PATH"
            ) from None
        self._write(b"feature done\nfeature get-mark\n")

    def _write(self, data: bytes) -> None:
        self._chunks.append(data)
        self._size += len(data)
        if self._size >= _FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        if not self._chunks:
            return
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(b"".join(self._chunks))
            self._proc.stdin.flush()
        except BrokenPipeError:
            self._fail("fast-import stopped reading its input")
        self._chunks.clear()
        self._size = 0

    def _fail(self, what: str) -> None:
        self._proc.kill()
        self._proc.wait()
        self._stderr.seek(0)
        detail = self._stderr.read().decode("utf-8", "replace").strip()
        raise GitError(f"building the sandbox repository failed: {what}: {detail or 'no message'}")

    def _mark(self) -> int:
        mark = self._next_mark
        self._next_mark += 1
        return mark

    def blob(self, content: str | bytes) -> int:
        """Store a file's content once; return its mark."""
        data = content.encode() if isinstance(content, str) else content
        mark = self._mark()
        self._write(b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data))
        return mark

    def commit(
        self,
        ref: str,
        *,
        message: str,
        author: Identity,
        author_time: int,
        committer: Identity,
        committer_time: int,
        changes: Iterable[tuple[str, int | None]],
        parent: int | None = None,
    ) -> int:
        """Commit ``changes`` (path -> blob mark, or None to delete) on ``ref``; return the mark.

        ``parent`` defaults to the ref's current tip in this stream.
        """
        mark = self._mark()
        msg = message.encode()
        head = b"commit %s\nmark :%d\nauthor %s\ncommitter %s\ndata %d\n%s\n" % (
            ref.encode(),
            mark,
            author.at(author_time).encode(),
            committer.at(committer_time).encode(),
            len(msg),
            msg,
        )
        parts = [head]
        if parent is not None and self._tips.get(ref) != parent:
            parts.append(b"from :%d\n" % parent)
        for path, blob in changes:
            parts.append(b"D %s\n" % path.encode() if blob is None else b"M 100644 :%d %s\n" % (blob, path.encode()))
        parts.append(b"\n")
        self._write(b"".join(parts))
        self._tips[ref] = mark
        return mark

    def branch(self, ref: str, mark: int) -> None:
        """Point ``ref`` (a branch or a lightweight tag) at a commit mark."""
        self._write(b"reset %s\nfrom :%d\n\n" % (ref.encode(), mark))
        self._tips[ref] = mark

    def annotated_tag(self, name: str, mark: int, tagger: Identity, when: int, message: str) -> None:
        msg = message.encode()
        self._write(
            b"tag %s\nfrom :%d\ntagger %s\ndata %d\n%s\n"
            % (name.encode(), mark, tagger.at(when).encode(), len(msg), msg)
        )

    def sha(self, mark: int) -> str:
        """The SHA of an already written commit (a round trip to fast-import)."""
        self._write(b"get-mark :%d\n" % mark)
        self._flush()
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline().decode().strip()
        if len(line) != 40:
            self._fail(f"no SHA for mark :{mark}")
        return line

    def close(self) -> dict[int, str]:
        """Finish the stream; return ``{mark: sha}`` for every blob and commit written."""
        self._write(b"done\n")
        self._flush()
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        if self._proc.wait() != 0:
            self._fail(f"git fast-import exited with {self._proc.returncode}")
        marks: dict[int, str] = {}
        with open(self._marks_file, encoding="ascii") as fh:
            for line in fh:
                mark, _, sha = line.partition(" ")
                marks[int(mark[1:])] = sha.strip()
        self._marks_file.unlink()
        self._stderr.close()
        return marks


def init_bare(path: Path, default_branch: str = "main") -> Path:
    """An empty bare repository whose HEAD names ``default_branch``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    run_git(["init", "--quiet", "--bare", f"--initial-branch={default_branch}", str(path)])
    return path


def clone_with_branches(remote: Path, clone: Path, branches: Iterable[str], identity: Identity) -> None:
    """Clone ``remote`` and make a local tracking branch for each of ``branches``.

    The clone gets a local ``user.name``/``user.email`` so the cockpit can tag or pick in it.
    """
    run_git(["clone", "--quiet", str(remote), str(clone)])
    for name in branches:
        run_git(["branch", "--quiet", "--track", name, f"origin/{name}"], cwd=clone)
    run_git(["config", "user.name", identity.name], cwd=clone)
    run_git(["config", "user.email", identity.email], cwd=clone)
