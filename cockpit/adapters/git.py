"""The local clone, through GitPython: history in one ``git log`` call, patch ids in one pipeline.

The only module that imports ``git``; the parse of ``git log``'s output is ``git_log``. Everything
git prints that came from people (subjects, bodies, author names, ref names, remote URLs, error
lines) is made inert as it is parsed (``cockpit.domain.text``). Every git failure becomes a ``GitError`` naming what the
cockpit was doing and git's own error line; in read-only mode every writing method raises
``ReadOnlyError`` before running anything.
"""

from __future__ import annotations

import getpass
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from cockpit.adapters.git_log import LOG_FORMAT, decode, parse_log
from cockpit.adapters.git_scratch import ScratchMerges
from cockpit.domain.commits import CommitRecord
from cockpit.domain.text import inert
from cockpit.errors import GitError, ReadOnlyError

try:
    import git as _gitpython
except ImportError as exc:  # GitPython refuses to import when no git executable is found
    _gitpython = None  # type: ignore[assignment]  # GitRepo refuses to open then (_IMPORT_PROBLEM)
    _IMPORT_PROBLEM = str(exc).splitlines()[0] if str(exc) else "GitPython is unavailable"

# No optional locks: a read must never rewrite the index, even in a read-only session.
_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}


def _error_line(stderr: str) -> str:
    """git's most telling stderr line: the first ``fatal:``/``error:`` one, else the last non-empty."""
    lines = [inert(line.strip()) for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[-1] if lines else "no message from git"


def _checked(value: str, what: str) -> str:
    """Refuse values git would read as options."""
    if not value or value.startswith("-") or "\0" in value:
        raise GitError(f"{what} {value!r} is not usable: expected a name or sha not starting with '-'")
    return value


class GitRepo:
    """A local clone. ``read_only`` makes every writing method raise before running anything."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = Path(path).expanduser()
        self.read_only = read_only
        if _gitpython is None:
            raise GitError(f"cannot use git: {_IMPORT_PROBLEM}")
        if not self.path.exists():
            raise GitError(f"{self.path}: no such directory; expected a local clone (git.clone in the config)")
        try:
            self._repo = _gitpython.Repo(self.path)
        except _gitpython.InvalidGitRepositoryError:
            raise GitError(
                f"{self.path}: not a git repository; expected a local clone (git.clone in the config)"
            ) from None
        except (_gitpython.NoSuchPathError, OSError) as exc:
            raise GitError(f"{self.path}: cannot open the clone: {exc}") from None
        self._git = self._repo.git

    def _run(
        self,
        purpose: str,
        args: Sequence[str],
        *,
        ok: tuple[int, ...] = (0,),
        istream=None,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        """Run ``git <args>``; return (status, stdout bytes); raise GitError for a status not in ``ok``.
        ``env`` adds variables (the scratch object directory of ``scratch_merges``)."""
        runner = _gitpython.Git(str(cwd)) if cwd is not None else self._git
        try:
            status, out, err = runner.execute(
                ["git", *args],
                istream=istream,
                with_extended_output=True,
                with_exceptions=False,
                stdout_as_string=False,
                strip_newline_in_stdout=False,
                env={**_ENV, **env} if env else _ENV,
            )
        except _gitpython.GitCommandNotFound:
            raise GitError(f"{purpose} failed: the git executable was not found") from None
        except OSError as exc:
            raise GitError(f"{purpose} failed: {exc}") from None
        if status not in ok:
            raise GitError(f"{purpose} failed: {_error_line(decode(err))}")
        return status, out or b""

    def _text(self, purpose: str, args: Sequence[str], **kw) -> str:
        return decode(self._run(purpose, args, **kw)[1]).strip()

    def log(
        self,
        rev_range: str | list[str],
        *,
        grep: list[str] | None = None,
        fixed_strings: bool = False,
        extended: bool = False,
    ) -> list[CommitRecord]:
        """Commits of ``rev_range`` (``"cut..main"`` or a list of revs), newest first, in ONE ``git log``.

        ``grep`` keeps commits with a message line matching any pattern (``fixed_strings``: literal
        text; ``extended``: POSIX extended regexes). git tries every pattern on every commit, so
        many numbers are best asked as ONE extended pattern ``(a|b|c)``, not one pattern each.
        """
        revs = [rev_range] if isinstance(rev_range, str) else list(rev_range)
        args = ["log", "-z", f"--format={LOG_FORMAT}", "--no-show-signature", "--no-color"]
        if grep:
            args += [f"--grep={g}" for g in grep]
            if fixed_strings:
                args.append("--fixed-strings")
            elif extended:
                args.append("--extended-regexp")
        args += [_checked(r, "revision") for r in revs] + ["--"]
        return parse_log(self._run(f"reading history {' '.join(revs)}", args)[1])

    def patch_ids(self, shas: Iterable[str]) -> dict[str, str]:
        """``git patch-id --stable`` of each commit, in one ``diff-tree --stdin | patch-id`` pipeline.

        Merges, empty commits and shas git does not know have no patch and are simply absent.
        """
        wanted = [_checked(s, "commit") for s in dict.fromkeys(shas)]
        if not wanted:
            return {}
        with tempfile.TemporaryFile() as stdin:
            stdin.write(("\n".join(wanted) + "\n").encode())
            stdin.seek(0)
            try:
                diff = self._git.execute(
                    ["git", "diff-tree", "--stdin", "-p", "--root", "--no-color", "--no-ext-diff", "--no-textconv"],
                    istream=stdin,
                    as_process=True,
                    env=_ENV,
                )
            except (_gitpython.GitCommandNotFound, OSError) as exc:
                raise GitError(f"computing patch ids failed: {exc}") from None
            proc = diff.proc
            assert proc is not None and proc.stdout is not None and proc.stderr is not None  # as_process: piped
            try:
                _, out = self._run("computing patch ids", ["patch-id", "--stable"], istream=proc.stdout)
            finally:
                proc.stdout.close()
                err = proc.stderr.read()
                status = proc.wait()
            if status != 0:
                raise GitError(f"computing patch ids failed: {_error_line(decode(err))}")
        ids = {}
        for line in decode(out).splitlines():
            parts = line.split()
            if len(parts) == 2:
                ids[parts[1]] = parts[0]
        return ids

    def scratch_merges(self) -> ScratchMerges:
        """In-memory cherry-picks (``git merge-tree``) in a temporary object directory that borrows
        this clone's objects; nothing of the clone is written, so a read-only session may use it."""
        objects = self._text(
            "finding the object directory", ["rev-parse", "--path-format=absolute", "--git-path", "objects"]
        )
        return ScratchMerges(self._run, Path(objects))

    def rev_parse(self, ref: str) -> str | None:
        """The commit sha ``ref`` names, or None when it names no commit."""
        if not ref or ref.startswith("-"):
            return None
        status, out = self._run(
            f"resolving {ref}",
            ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
            ok=(0, 1, 128),
        )
        return (decode(out).strip() or None) if status == 0 else None

    def file_at(self, commit: str, path: str, *, limit: int = 65536) -> str | None:
        """The text of ``path`` in ``commit`` (its first ``limit`` bytes, made inert), or None when the commit has
        no such file; a GitError when ``commit`` names no commit or ``path`` leaves the repository."""
        sha = self.rev_parse(commit)
        if sha is None:
            raise GitError(f"reading {path}: {commit} names no commit in {self.path}")
        clean = path.strip().lstrip("/")
        if not clean or any(part in ("", ".", "..") for part in clean.split("/")):
            raise GitError(f"reading {path!r}: expected a path inside the repository, such as requirements.txt")
        status, out = self._run(f"reading {clean} at {sha[:12]}", ["cat-file", "-p", f"{sha}:{clean}"], ok=(0, 128))
        return inert(decode(out[:limit]), multiline=True) if status == 0 else None

    def ref_exists(self, ref: str) -> bool:
        """Whether ``ref`` names a commit."""
        return self.rev_parse(ref) is not None

    def merge_base(self, a: str, b: str) -> str | None:
        """The best common ancestor of ``a`` and ``b``, or None when they share no history."""
        status, out = self._run(
            f"finding the merge base of {a} and {b}", ["merge-base", _checked(a, "ref"), _checked(b, "ref")], ok=(0, 1)
        )
        return (decode(out).strip() or None) if status == 0 else None

    def is_ancestor(self, a: str, b: str) -> bool:
        """Whether commit ``a`` is in the history of ``b`` (False also when ``a`` is unknown here)."""
        status, _ = self._run(
            f"checking whether {a} is in {b}",
            ["merge-base", "--is-ancestor", _checked(a, "ref"), _checked(b, "ref")],
            ok=(0, 1, 128),
        )
        return status == 0

    def is_shallow(self) -> bool:
        """Whether the clone is shallow (history cut off at some depth)."""
        return self._text("checking for a shallow clone", ["rev-parse", "--is-shallow-repository"]) == "true"

    def tags_containing(self, commit: str) -> list[str]:
        """The tags whose history holds ``commit`` (``git tag --contains``); none for an unknown commit."""
        status, out = self._run(
            f"listing the tags holding {commit[:12]}", ["tag", "--contains", _checked(commit, "commit")], ok=(0, 129)
        )
        return [inert(t.strip()) for t in decode(out).splitlines() if t.strip()] if status == 0 else []

    def remote_tags(self, remote: str) -> dict[str, str]:
        """Tag name -> commit on ``remote`` as it is now (``git ls-remote --tags``, annotated tags peeled).

        Reads only: nothing is fetched into the clone. Raises GitError when the remote cannot be reached.
        """
        out = self._text(f"listing the tags on {remote}", ["ls-remote", "--tags", _checked(remote, "remote")])
        tags: dict[str, str] = {}
        peeled: dict[str, str] = {}
        for line in out.splitlines():
            sha, _, ref = line.partition("\t")
            name = ref.strip().removeprefix("refs/tags/")
            if not name or not sha:
                continue
            if name.endswith("^{}"):
                peeled[inert(name[:-3])] = sha.strip()
            else:
                tags[inert(name)] = sha.strip()
        return {**tags, **peeled}

    def tags(self) -> dict[str, str]:
        """Tag name -> the commit it points at (annotated tags peeled)."""
        out = self._text(
            "listing tags",
            ["for-each-ref", "--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)", "refs/tags"],
        )
        tags = {}
        for line in out.splitlines():
            name, obj, peeled = (line.split("\0") + ["", ""])[:3]
            if name:
                tags[inert(name)] = peeled or obj
        return tags

    def tag_dates(self) -> dict[str, datetime]:
        """Tag name -> when it was made (an annotated tag's tagger date, else its commit's date), in ONE call."""
        out = self._text(
            "listing tag dates", ["for-each-ref", "--format=%(refname:strip=2)%00%(creatordate:unix)", "refs/tags"]
        )
        dates = {}
        for line in out.splitlines():
            name, _, stamp = line.partition("\0")
            if name and stamp.strip().isdigit():
                dates[inert(name)] = datetime.fromtimestamp(int(stamp), UTC)
        return dates

    def remote_url(self, name: str) -> str | None:
        """The fetch URL of remote ``name``, or None when there is no such remote."""
        status, out = self._run(f"reading remote {name}", ["config", "--get", f"remote.{name}.url"], ok=(0, 1))
        return (inert(decode(out).strip()) or None) if status == 0 else None

    def remotes(self) -> dict[str, str]:
        """Every remote's name and fetch URL, as ``git remote -v`` lists them."""
        status, out = self._run("listing remotes", ["config", "--get-regexp", r"^remote\..*\.url$"], ok=(0, 1))
        found = {}
        for line in decode(out).splitlines() if status == 0 else ():
            key, _, url = line.partition(" ")
            found[inert(key.removeprefix("remote.").removesuffix(".url"))] = inert(url.strip())
        return found

    def remote_head(self, remote: str) -> str | None:
        """The branch ``<remote>/HEAD`` points at (the remote's default branch, set by ``git clone``), or None."""
        ref = f"refs/remotes/{_checked(remote, 'remote')}/HEAD"
        status, out = self._run(f"reading {remote}/HEAD", ["symbolic-ref", "--quiet", "--short", ref], ok=(0, 1, 128))
        target = decode(out).strip() if status == 0 else ""
        if not target.startswith(f"{remote}/"):
            return None
        return inert(target.removeprefix(f"{remote}/")) or None

    def current_user(self) -> str:
        """git's ``user.name``, else the login name."""
        status, out = self._run("reading user.name", ["config", "--get", "user.name"], ok=(0, 1))
        if status == 0 and decode(out).strip():
            return inert(decode(out).strip())
        try:
            return getpass.getuser()
        except (OSError, KeyError):
            return "unknown"

    def for_each_ref(self) -> str:
        """Every ref with its object, as ``git for-each-ref`` prints them (tests compare snapshots)."""
        return self._text("listing refs", ["for-each-ref"])

    def _writable(self, what: str) -> None:
        if self.read_only:
            raise ReadOnlyError(f"{what} is not allowed in a read-only session")

    def create_branch(self, name: str, start: str) -> None:
        """Create branch ``name`` at ``start`` without touching the working tree."""
        self._writable(f"creating branch {name}")
        self._run(
            f"creating branch {name} at {start}",
            ["branch", "--no-track", _checked(name, "branch"), _checked(start, "start point")],
        )

    def delete_branch(self, name: str) -> None:
        """Delete local branch ``name`` (one the cockpit made; never a remote branch)."""
        self._writable(f"deleting branch {name}")
        self._run(f"deleting branch {name}", ["branch", "-D", _checked(name, "branch")])

    def cherry_pick(self, shas: Sequence[str], *, branch: str) -> str:
        """``git cherry-pick -x`` ``shas`` onto ``branch``; return the branch's new head.

        The pick runs in a temporary ``git worktree`` so the user's checkout and uncommitted work
        are never touched. On a conflict the pick is aborted, the branch stays where it was, and a
        GitError names git's message. Fails if ``branch`` is checked out in another worktree.
        """
        self._writable(f"cherry-picking onto {branch}")
        picks = [_checked(s, "commit") for s in shas]
        if not picks:
            raise GitError("nothing to cherry-pick: expected at least one commit")
        holder = Path(tempfile.mkdtemp(prefix="cockpit-pick-"))
        tree = holder / "worktree"
        self._run(
            f"preparing a worktree for {branch}", ["worktree", "add", "--quiet", str(tree), _checked(branch, "branch")]
        )
        try:
            try:
                self._run(
                    f"cherry-picking {', '.join(p[:12] for p in picks)} onto {branch}",
                    ["cherry-pick", "-x", *picks],
                    cwd=tree,
                )
            except GitError:
                self._run("aborting the cherry-pick", ["cherry-pick", "--abort"], ok=(0, 1, 128), cwd=tree)
                raise
            return self._text(f"reading the head of {branch}", ["rev-parse", "HEAD"], cwd=tree)
        finally:
            self._run("removing the temporary worktree", ["worktree", "remove", "--force", str(tree)], ok=(0, 128))
            shutil.rmtree(holder, ignore_errors=True)
            self._run("pruning worktrees", ["worktree", "prune"], ok=(0, 128))

    def push_pick(self, commit: str, onto: str, *, remote: str, branch: str) -> str:
        """``git cherry-pick -x commit`` onto ``onto``, pushed to ``remote`` as branch ``branch``, made
        in memory (``git_fork_pick``): the worktree, index, refs and objects of the clone stay as they
        were. Returns the pushed commit; a conflict is a GitError naming the paths, nothing pushed."""
        from cockpit.adapters.git_fork_pick import pick_and_push

        self._writable(f"pushing {branch} to {remote}")
        url = self._text(f"reading the URL of the remote {remote}", ["remote", "get-url", _checked(remote, "remote")])
        with self.scratch_merges() as lab:
            return pick_and_push(lab, _checked(commit, "commit"), _checked(onto, "commit"), url=url, branch=branch)

    def tag(self, name: str, ref: str, message: str) -> None:
        """Create the annotated tag ``name`` on ``ref``."""
        self._writable(f"tagging {name}")
        self._run(f"tagging {ref} as {name}", ["tag", "-a", "-m", message, _checked(name, "tag"), _checked(ref, "ref")])

    def push(self, remote: str, refspec: str) -> None:
        """``git push <remote> <refspec>`` (never prompts for credentials)."""
        self._writable(f"pushing {refspec} to {remote}")
        self._run(
            f"pushing {refspec} to {remote}",
            ["push", "--porcelain", _checked(remote, "remote"), _checked(refspec, "refspec")],
        )
