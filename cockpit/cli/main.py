"""The ``cockpit`` command: the TUI, the sandbox, and headless analyses for CI.

Exit status: 0 fine, 1 a check failed (no-go, something missing), 2 bad input or config.
No traceback ever reaches the terminal: errors print one line naming what was wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from cockpit import __version__
from cockpit.errors import CockpitError

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2


COMMON = ("config", "read-only", "take-over", "debug")


def _common(*, top: bool, only: Sequence[str] = COMMON) -> argparse.ArgumentParser:
    """Options accepted before and after the subcommand; only the top level sets defaults,
    so ``cockpit --config X view`` and ``cockpit view --config X`` mean the same. A subcommand
    shows (``only``) the ones it uses: ``locate`` takes no ``--take-over``."""
    common = argparse.ArgumentParser(add_help=False)
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    if "config" in only:
        common.add_argument(
            "--config", type=Path, help="the release's cockpit.toml (default: ./cockpit.toml)", **default
        )
    if "read-only" in only:
        common.add_argument(
            "--read-only",
            action="store_true",
            help="never change anything: no writes to GitHub, git or the state file",
            **default,
        )
    if "take-over" in only:
        common.add_argument(
            "--take-over",
            action="store_true",
            help="take the state file's lock from a session you confirmed is gone (one on another "
            "machine, or an unreadable lock file); never from a cockpit running on this machine",
            **default,
        )
    if "debug" in only:
        common.add_argument(
            "--debug",
            action="store_true",
            help="write a debug log beside the state file (secrets redacted)",
            **default,
        )
    return common


def _scale_option(cmd: argparse.ArgumentParser) -> None:
    from cockpit.sandbox.world_scale import DEFAULT_SCALE, SCALES

    cmd.add_argument(
        "--scale",
        choices=list(SCALES),
        default=DEFAULT_SCALE,
        help="the release's size: demo (default), pytorch (a 600-comment tracker, a 400-item "
        "milestone, CI of 5 repositories with 300 jobs a run) or stress (twice that); "
        "the sizes are printed",
    )


def _serve_options(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; any other is visible on the network)",
    )
    cmd.add_argument("--port", type=int, default=8000, help="the TCP port (default 8000; 0: any free port)")
    cmd.add_argument(
        "--max-sessions",
        type=int,
        default=8,
        metavar="N",
        help="browser sessions served at once, each a viewer process (default 8); a page over it says so",
    )


class _BeyondTopLevel(Exception):
    """The command line needs the full parser (internal to ``parse_command_line``)."""


class _TopLevelParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _BeyondTopLevel(message)


def _top_level() -> argparse.ArgumentParser:
    """The options of ``cockpit`` itself, without the subcommands: opening the cockpit (the usual
    command line) needs no more, and the ten subcommands' parsers cost a few milliseconds to build."""
    parser = _TopLevelParser(prog="cockpit", parents=[_common(top=True)], add_help=False)
    parser.set_defaults(handler="cockpit.cli.commands:run_app", command=None)  # as build_parser's
    return parser


def parse_command_line(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``argv`` (default: the process's) as ``build_parser`` reads it, building the subcommands'
    parsers only when the line goes beyond the top-level options: a subcommand, help, the version,
    or a mistake, which the full parser then reports as always."""
    try:
        args, rest = _top_level().parse_known_args(argv)
        if not rest:
            return args
    except _BeyondTopLevel:
        pass
    parser, commands = parsers()
    args, rest = parser.parse_known_args(argv)
    if rest:  # said with the subcommand's own usage, not the top level's
        (commands.get(args.command) or parser).error(f"unrecognized arguments: {' '.join(rest)}")
    return args


def build_parser() -> argparse.ArgumentParser:
    return parsers()[0]


def parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The whole command line, and each subcommand's own parser by name (for its usage in errors)."""
    commands: dict[str, argparse.ArgumentParser] = {}
    parser = argparse.ArgumentParser(
        prog="cockpit",
        parents=[_common(top=True)],
        description="Release Cockpit: run a PyTorch-style release from one screen.",
    )
    parser.add_argument("--version", action="version", version=f"cockpit {__version__}")
    parser.set_defaults(handler="cockpit.cli.commands:run_app")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(
        name: str, handler: str, help: str, options: Sequence[str] = ("config", "debug")
    ) -> argparse.ArgumentParser:
        """A subcommand whose ``handler`` ("module:function") is imported only when it runs, with the
        global ``options`` it uses."""
        cmd = sub.add_parser(name, parents=[_common(top=False, only=options)], help=help, description=help)
        cmd.set_defaults(handler=handler)
        commands[name] = cmd
        return cmd

    demo = command(
        "demo",
        "cockpit.cli.commands:run_demo",
        "open the cockpit on a fictional sandbox release (no network, no token)",
        ("read-only", "take-over", "debug"),
    )
    demo.add_argument("--seed", type=int, default=7, help="the sandbox world's seed (default 7)")
    demo.add_argument(
        "--all-green",
        action="store_true",
        help="a release ready to ship: every gate green, the go sign-offs given (the baseline for fault drills)",
    )
    demo.add_argument(
        "--patch",
        action="store_true",
        help="the patch release 2.5.1 mid-flight: a schedule past its cherry-pick deadline, late "
        "requests, triage candidates (the world's clock starts at its own 'now')",
    )
    demo.add_argument(
        "--multi",
        action="store_true",
        help="the core released with two domain libraries (vision release/0.20, audio release/2.5), "
        "each with its own clone, milestone, tracker and RC tags",
    )
    _scale_option(demo)
    demo.add_argument(
        "--serve",
        action="store_true",
        help="serve the sandbox release to web browsers (read-only viewers) instead of opening it here",
    )
    _serve_options(demo)

    sandbox = command(
        "sandbox",
        "cockpit.cli.commands:run_sandbox",
        "serve the sandbox release in the foreground and print its config path",
        ("debug",),
    )
    sandbox.add_argument("--seed", type=int, default=7, help="the sandbox world's seed (default 7)")
    sandbox.add_argument("--all-green", action="store_true", help="serve a release whose every gate is green")
    sandbox.add_argument("--patch", action="store_true", help="serve the patch release 2.5.1 mid-flight")
    sandbox.add_argument("--multi", action="store_true", help="serve the core with two domain libraries")
    sandbox.add_argument("--dir", type=Path, help="build the world here instead of the cache folder")
    _scale_option(sandbox)

    view = command("view", "cockpit.cli.commands:run_view", "the read-only viewer")
    view.add_argument("--state", type=Path, help="follow this state file (another session's)")
    view.add_argument(
        "--from-tracker",
        action="store_true",
        help="print the team's picture from the status comment on the tracker (needs read access only)",
    )

    publish = command(
        "publish",
        "cockpit.cli.publish:run",
        "post the release's status to the tracker issue as one comment, edited in place on later publishes",
        COMMON,
    )
    publish.add_argument(
        "--dry-run", action="store_true", help="print the Markdown and its diff against the published one; send nothing"
    )
    publish.add_argument(
        "--replace-unreadable",
        action="store_true",
        help="republish over an unreadable or hand-edited status comment or sign-off comment, from what is known "
        "(your sign-offs and the last good copy of each person's, kept in the state file)",
    )

    serve = command(
        "serve", "cockpit.cli.commands:run_serve", "serve the cockpit to web browsers, each tab a read-only viewer"
    )
    serve.add_argument("--state", type=Path, help="follow this state file (default: the config's)")
    _serve_options(serve)

    command("locate", "cockpit.cli.commands:run_locate", "print every path the cockpit uses", ("config",))

    init = command(
        "init",
        "cockpit.cli.init:run_init",
        "write a commented cockpit.toml for a real release",
        ("config", "read-only", "debug"),  # --read-only: refused, as every write is
    )
    init.add_argument("--repository", metavar="OWNER/NAME", help="the GitHub repository, e.g. pytorch/pytorch")
    init.add_argument("--version", dest="release_version", metavar="X.Y.Z", help="the release, e.g. 2.5.0")
    init.add_argument(
        "--milestone",
        metavar="N|TITLE",
        help="the release's milestone: its number or its title (default: found by title on GitHub)",
    )
    init.add_argument(
        "--tracker",
        metavar="N",
        help="the issue collecting cherry-pick requests (default: found by its title on GitHub)",
    )
    init.add_argument("--clone", type=Path, default=Path("."), metavar="PATH", help="your local clone (default: .)")
    init.add_argument(
        "--remote",
        metavar="NAME",
        help="the remote with the release branch (default: found in the clone's remote-tracking refs)",
    )
    init.add_argument(
        "--api-url",
        metavar="URL",
        help="the GitHub REST API (Enterprise: https://HOST/api/v3; default: https://api.github.com, "
        "with --add-repo the config's)",
    )
    init.add_argument(
        "--output", type=Path, metavar="PATH", help="where to write it (default: --config, else ./cockpit.toml)"
    )
    init.add_argument("--force", action="store_true", help="overwrite the output file if it exists")
    init.add_argument(
        "--add-repo",
        metavar="NAME",
        help="add a domain library to an existing config as [[repo]] NAME: its repository from --clone's "
        "remote, its version from its RC tags (or --repository, --version), the rest found as for the core",
    )
    init.add_argument(
        "--offline",
        action="store_true",
        help="ask GitHub nothing: milestone and tracker only as given, workflows the usual ones",
    )

    report = command("report", "cockpit.cli.report:run_report", "the whole picture as Markdown or JSON")
    report.add_argument("--format", choices=["markdown", "json"], default="markdown", help="markdown (default) or json")
    report.add_argument("--repo", metavar="NAME", help="only this repository of the release (default: all)")
    check = command(
        "check", "cockpit.cli.report:run_check", "exit 0 when go, 1 when no-go (each failing gate on a line)"
    )
    check.add_argument("--repo", metavar="NAME", help="only this repository of the release (default: all)")

    missing = command(
        "missing-in-branch",
        "cockpit.cli.missing:run",
        "closed milestone PRs missing from the release branch, and the reverts it owes",
    )
    missing.add_argument("--repo-path", type=Path, help="the local clone (default: git.clone of the config)")
    missing.add_argument("--remote", help="the remote holding the release branches (default: git.remote or origin)")
    missing.add_argument("--branch", help="the release branch, e.g. release/2.5")
    missing.add_argument("--main", help="the trunk branch (default: main)")
    missing.add_argument("--cut", help="the cut baseline (default: orig/<branch>, else the merge-base)")
    source = missing.add_mutually_exclusive_group()
    source.add_argument("--milestone", help="milestone number or title, open or closed (read from GitHub)")
    source.add_argument("--prs-file", type=Path, help="one PR number or URL a line; no GitHub needed")
    missing.add_argument(
        "--repo", help="a repository of the release by NAME, or OWNER/NAME (default: every repository configured)"
    )
    missing.add_argument(
        "--format", choices=["text", "json", "markdown"], default="text", help="text (default), json or markdown"
    )
    missing.add_argument(
        "--predict",
        action="store_true",
        help="predict what 'git cherry-pick -x' of each missing PR and revert owed would do onto the branch head "
        '(JSON: "pick": {"applies", "conflicts", "after", "empty", "group"}); git merges in memory, the clone is '
        "not written",
    )

    picks = command("picks", "cockpit.cli.picks:run", "the tracker's cherry-pick requests, parsed, as JSON")
    picks.add_argument("--from-json", type=Path, help="a JSON array of GitHub issue-comment objects")
    picks.add_argument(
        "--repo", help="a repository of the release by NAME, or OWNER/NAME (default: every repository configured)"
    )

    from cockpit.cli.release_day_args import release_day_commands

    release_day_commands(command)
    auth = command(
        "auth",
        "cockpit.cli.auth:run_auth",
        "store, show or forget the GitHub token (keyring)",
        ("config", "read-only", "debug"),
    )
    auth.add_argument(
        "auth_command",
        choices=["login", "status", "logout"],
        help="login: store a token; status: say which token is used; logout: forget the stored one",
    )
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    from cockpit import logging_setup

    args = parse_command_line(argv)  # --help, --version, a bad option: argparse says it and exits
    logging_setup.quiet()
    logging_setup.want_debug(bool(getattr(args, "debug", False)))
    try:
        return _dispatch(args)
    except CockpitError as exc:
        print(logging_setup.scrub(f"cockpit: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("cockpit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader left (| head): what it took was written; end quietly, as Unix tools do
        _quiet_stdout()
        return EXIT_OK
    except Exception as exc:  # a bug: one line, the traceback only in the debug log
        print(logging_setup.scrub(f"cockpit: internal error: {logging_setup.internal_error(exc)}"), file=sys.stderr)
        return EXIT_FAIL
    finally:
        logging_setup.stop_debug_log()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail on the closed pipe
    too (the way Python's documentation on SIGPIPE shows)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)  # stdout holds its own copy now
    except (OSError, ValueError):  # no real stdout (a test's capture): nothing left to flush into a pipe
        pass


def _dispatch(args: argparse.Namespace) -> int:
    import importlib

    module, _, function = args.handler.partition(":")
    return getattr(importlib.import_module(module), function)(args)
