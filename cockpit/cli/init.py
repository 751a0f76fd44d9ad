"""``cockpit init``: write a commented ``cockpit.toml`` for a real release from its repository and version.

What can be checked offline is checked first (the version, OWNER/NAME, the clone and its release
branch, the tracker number, the API URL, the output path), each problem on its own line, exit 2.
Then the rest is discovered (``init_checks``, ``init_discover``): the remote, trunk and RC tags from
the clone, the milestone, tracker issue and workflows from GitHub, unless ``--offline``. The file is written from
a template (``init_template``) so that its comments survive.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from urllib.parse import urlsplit

from cockpit.cli.init_checks import REMOTE_NAME, check_clone, discover, milestone_flag, output_path, tracker_flag
from cockpit.cli.init_template import release_branch, render
from cockpit.domain.release import is_valid_version

EXIT_OK, EXIT_BAD_INPUT = 0, 2
DEFAULT_API_URL = "https://api.github.com"
_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


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
    args.milestone_value = milestone_flag(args.milestone, problems)
    args.tracker_value = tracker_flag(args.tracker, problems)
    if args.remote is not None and not REMOTE_NAME.match(args.remote):
        problems.append(f"--remote {args.remote!r}: expected a git remote name such as origin or upstream")
    url = urlsplit(args.api_url)
    if url.scheme not in ("http", "https") or not url.netloc:
        problems.append(f"--api-url {args.api_url!r}: expected an http(s) URL such as https://api.github.com")
    branch = release_branch(version) if version and is_valid_version(version) else None
    repository_ok = repository if repository and _REPOSITORY.match(repository) else None
    check_clone(args.clone.expanduser().resolve(), args.remote, branch, repository_ok, problems)
    output = output_path(args)
    if output.is_dir():
        problems.append(
            f"--output {output}: is a folder; expected the path of the file to write, e.g. {output / 'cockpit.toml'}"
        )
    elif output.exists() and not args.force:
        problems.append(f"--output {output}: already exists; pass --force to overwrite it")
    elif not output.parent.resolve().is_dir():
        problems.append(f"--output {output}: the folder {output.parent} does not exist")
    return problems


def run_init(args: argparse.Namespace) -> int:
    """Validate the flags, discover the rest, write the config, say what was found and what to run next.

    Under ``--read-only`` nothing is written. Nothing is written either when GitHub cannot be read
    (a missing repository, a refused token, no network): one line says why, exit 2.
    """
    if getattr(args, "read_only", False):
        print(
            "cockpit init: --read-only: init writes a config file, so it refuses to run read-only; "
            "run it without --read-only",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if getattr(args, "add_repo", None) is not None:  # a domain library into an existing config
        from cockpit.cli.init_add_repo import run_add_repo

        return run_add_repo(args)
    args.api_url = args.api_url or DEFAULT_API_URL
    problems = validate(args)
    if problems:
        for problem in problems:
            print(f"cockpit init: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    found, failure = discover(args)
    if found is None:
        print(f"cockpit init: {failure}", file=sys.stderr)
        return EXIT_BAD_INPUT
    output = output_path(args).absolute()
    text = render(
        version=args.release_version,
        repository=args.repository,
        clone=args.clone.expanduser().resolve(),
        api_url=args.api_url,
        found=found,
    )
    partial = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(output)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        print(f"cockpit init: --output {output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for line in found.summary():
        print(line)
    print(f"wrote {output}")
    print(f"next: cockpit --config {output} check")
    return EXIT_OK
