"""``cockpit init``: write a commented ``cockpit.toml`` for a real release from a few flags.

What can be checked offline is checked first (the version, OWNER/NAME, the clone and its release
branch, the tracker number, the API URL, the output path), each problem on its own line, exit 2.
The file is written from a template rather than with tomli_w so that its comments survive.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

from cockpit.domain.release import is_valid_version

EXIT_OK, EXIT_BAD_INPUT = 0, 2
_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_REMOTE = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]*$")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def release_branch(version: str) -> str:
    """``release/X.Y`` for version ``X.Y.Z``: PyTorch cuts one branch per minor release."""
    return "release/" + version.rsplit(".", 1)[0]


def _milestone(text: str | None, problems: list[str]) -> int | str | None:
    if text is None:
        return None
    if text.strip().isdigit():
        if int(text) < 1:
            problems.append(f"--milestone {text!r}: expected a milestone number (1 or more) or its title")
        return int(text)
    if not text.strip():
        problems.append("--milestone '': expected a milestone number or its title, e.g. 2.5.0")
    return text.strip()


def _tracker(text: str | None, problems: list[str]) -> int | None:
    if text is None:
        return None
    if not text.strip().isdigit() or int(text) < 1:
        problems.append(f"--tracker {text!r}: expected the tracker issue's number, a positive integer such as 1234")
        return None
    return int(text)


def _check_clone(clone: Path, remote: str, branch: str | None, problems: list[str]) -> None:
    """The clone exists, is a git repository, has the remote, and has the release branch (when known)."""
    from cockpit.adapters.git import GitRepo
    from cockpit.errors import GitError

    if not clone.is_dir():
        problems.append(f"--clone {clone}: no such folder; expected your local clone of the repository")
        return
    try:
        repo = GitRepo(clone, read_only=True)
        remote_ok = not _REMOTE.match(remote) or repo.remote_url(remote) is not None
        if not remote_ok:
            problems.append(f"--remote {remote!r}: the clone {clone} has no such remote (git -C {clone} remote -v lists them)")
        if branch is None or repo.ref_exists(f"refs/heads/{branch}"):
            return
        if remote_ok and _REMOTE.match(remote) and repo.ref_exists(f"refs/remotes/{remote}/{branch}"):
            return
        fetch = f"; fetch it (git -C {clone} fetch {remote} {branch})" if remote_ok else ""
        problems.append(f"--clone {clone}: has neither {branch} nor {remote}/{branch}{fetch}, or check --version")
    except GitError as exc:
        if "not a git repository" in exc.message:
            problems.append(f"--clone {clone}: not a git repository; expected your local clone of the repository")
            return
        problems.append(f"--clone {clone}: not a usable git clone: {exc.message.removeprefix(f'{clone}: ')}")


def output_path(args: argparse.Namespace) -> Path:
    """``--output``, else the ``--config`` path, else ``./cockpit.toml``."""
    return (args.output or getattr(args, "config", None) or Path("cockpit.toml")).expanduser()


def validate(args: argparse.Namespace) -> list[str]:
    """Every problem with the flags, one line each (empty: fine to write)."""
    problems: list[str] = []
    version, repository = args.release_version, args.repository
    if version is None:
        problems.append("--version is required: the release, e.g. --version 2.5.0")
    elif not is_valid_version(version):
        problems.append(f"--version {version!r}: expected a release version like 2.5.0")
    if repository is None:
        problems.append("--repository is required: the GitHub repository, e.g. --repository pytorch/pytorch")
    elif not _REPOSITORY.match(repository):
        problems.append(f"--repository {repository!r}: expected OWNER/NAME, e.g. pytorch/pytorch")
    args.milestone_value = _milestone(args.milestone, problems)
    args.tracker_value = _tracker(args.tracker, problems)
    if not _REMOTE.match(args.remote):
        problems.append(f"--remote {args.remote!r}: expected a git remote name such as origin or upstream")
    url = urlsplit(args.api_url)
    if url.scheme not in ("http", "https") or not url.netloc:
        problems.append(f"--api-url {args.api_url!r}: expected an http(s) URL such as https://api.github.com")
    branch = release_branch(version) if version and is_valid_version(version) else None
    _check_clone(args.clone.expanduser().resolve(), args.remote, branch, problems)
    output = output_path(args)
    if output.is_dir():
        problems.append(f"--output {output}: is a folder; expected the path of the file to write, e.g. {output / 'cockpit.toml'}")
    elif output.exists() and not args.force:
        problems.append(f"--output {output}: already exists; pass --force to overwrite it")
    elif not output.parent.resolve().is_dir():
        problems.append(f"--output {output}: the folder {output.parent} does not exist")
    return problems


def render(*, version: str, repository: str, milestone: int | str | None, tracker: int | None,
           clone: Path, remote: str, api_url: str) -> str:
    """The commented ``cockpit.toml`` text."""
    branch = release_branch(version)
    s = toml_string
    milestone_line = (f"milestone = {milestone}" if isinstance(milestone, int)
                      else f"milestone = {s(milestone)}" if milestone
                      else f"# milestone = {s(version)}   # not given to 'cockpit init': set it to see the milestone pane")
    tracker_line = (f"tracker_issue = {tracker}" if tracker is not None
                    else "# tracker_issue = 1234   # not given to 'cockpit init': set it to see the cherry-picks pane")
    return f"""\
# cockpit.toml: the release this cockpit runs. Written by 'cockpit init'; edit freely.
# Each key is explained above it. Paths are absolute or relative to this file.
# Secrets never go here: the token comes from GH_TOKEN / GITHUB_TOKEN, 'cockpit auth login' or gh.

[release]
# The version being released, X.Y.Z. Release candidates are tagged v{version}-rc1, -rc2, ...
version = {s(version)}
# The GitHub repository the release is made from, OWNER/NAME.
repository = {s(repository)}
# The release branch, cut from main for this minor release (derived from the version).
branch = {s(branch)}
# The trunk: fixes land here first and are cherry-picked into the release branch.
main = "main"
# The milestone gathering the fixes for this release: its number, or its title (open or closed).
{milestone_line}
# The issue whose comments are the cherry-pick requests.
{tracker_line}

[github]
# The REST API: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise.
api_url = {s(api_url.rstrip("/"))}
# Where the token comes from: "auto" tries GH_TOKEN, GITHUB_TOKEN, the keyring and gh's login;
# "none" sends no token (public data only, 60 requests an hour).
auth = "auto"
# Seconds one request may take before it counts as failed.
timeout = 15
# The longest the cockpit waits for a rate limit to reset, in seconds, before it says so instead.
max_rate_limit_wait = 30

[git]
# Your local clone. The cockpit reads it; it writes only when you act (a pick branch, an RC tag).
clone = {s(str(clone))}
# The remote holding {branch} and the RC tags.
remote = {s(remote)}

# One [[ci]] table per repository whose release branch must be green.
[[ci]]
# The repository whose check runs are read.
repository = {s(repository)}
# Its release branch (the RC tags are checked too).
branch = {s(branch)}
# Workflows that must pass on the branch head, matched by name.
required = ["pull", "trunk", "lint"]
# The workflow building the wheels; it is judged on the RC tag, not the branch head.
# binary_workflow = "wheels"
# Jobs known to be flaky, set aside from the verdict (still shown).
# unstable_jobs = []

# The release candidates' wheels: uncomment to check what is staged in the test channel.
# [storage]
# # Base of the PEP 503 indexes: <index_url>/whl/test/<package>/ is the RC channel.
# index_url = "https://download.pytorch.org"
# # Base of the PyPI JSON API, to see whether the final version is published.
# pypi_url = "https://pypi.org"
# packages = ["torch"]
# # Platform tags every RC must have a wheel for in the plain index <index_url>/whl/test/<package>/.
# platforms = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "macosx_11_0_arm64", "win_amd64"]
# # Wheels over size_limit_mb fail, over size_warn_mb warn.
# size_limit_mb = 1000
# size_warn_mb = 850
# # Accelerator variants, each in its sub-index <index_url>/whl/test/<variant>/<package>/, with the
# # platforms it publishes (quote names with a dot).
# [storage.variants]
# cpu = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64"]
# cu126 = ["manylinux_2_28_x86_64", "win_amd64"]
# cu128 = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64"]
# "rocm6.3" = ["linux_x86_64"]
# xpu = ["linux_x86_64", "win_amd64"]

[ui]
# Days after which a pane's data is shown as stale.
stale_days = 7
# The colour theme: cockpit-dark, cockpit-light, cockpit-high-contrast, or one of your own
# (see 'cockpit locate' for the themes folder). Empty: the last one chosen, else cockpit-dark.
theme = ""

# Remap or unbind keys by binding id, e.g. "app.refresh" = "ctrl+r" ("" unbinds).
# [keymap]

# Where the session's state (checklist progress, sign-offs, notes, audit log) is kept.
# Default: cockpit-state.toml beside this file.
# [state]
# path = "cockpit-state.toml"
"""


def run_init(args: argparse.Namespace) -> int:
    """Validate the flags, write the config, say what to run next."""
    problems = validate(args)
    if problems:
        for problem in problems:
            print(f"cockpit init: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    output = output_path(args).absolute()
    text = render(version=args.release_version, repository=args.repository, milestone=args.milestone_value,
                  tracker=args.tracker_value, clone=args.clone.expanduser().resolve(), remote=args.remote,
                  api_url=args.api_url)
    partial = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(output)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        print(f"cockpit init: --output {output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {output}")
    print(f"next: cockpit --config {output} check")
    return EXIT_OK
