"""The ``cockpit`` command: the TUI, the sandbox, and headless analyses for CI.

Exit status: 0 fine, 1 a check failed (no-go, something missing), 2 bad input or config.
No traceback ever reaches the terminal: errors print one line naming what was wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from cockpit import __version__
from cockpit.errors import CockpitError

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2


def _common(*, top: bool) -> argparse.ArgumentParser:
    """Options accepted before and after the subcommand; only the top level sets defaults,
    so ``cockpit --config X demo`` and ``cockpit demo --config X`` mean the same."""
    common = argparse.ArgumentParser(add_help=False)
    default = {} if top else {"default": argparse.SUPPRESS}
    common.add_argument("--config", type=Path, help="the release's cockpit.toml (default: ./cockpit.toml)", **default)
    common.add_argument("--read-only", action="store_true",
                        help="never change anything: no writes to GitHub, git or the state file", **default)
    return common


def build_parser() -> argparse.ArgumentParser:
    common = _common(top=False)
    parser = argparse.ArgumentParser(prog="cockpit", parents=[_common(top=True)],
                                     description="Release Cockpit: run a PyTorch-style release from one screen.")
    parser.add_argument("--version", action="version", version=f"cockpit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser("demo", parents=[common], help="open the cockpit on a fictional sandbox release (no network, no token)")
    demo.add_argument("--seed", type=int, default=7, help="the sandbox world's seed (default 7)")

    sandbox = sub.add_parser("sandbox", parents=[common], help="serve the sandbox release in the foreground and print its config path")
    sandbox.add_argument("--seed", type=int, default=7)
    sandbox.add_argument("--dir", type=Path, help="build the world here instead of the cache folder")

    view = sub.add_parser("view", parents=[common], help="the read-only viewer")
    view.add_argument("--state", type=Path, help="follow this state file (another session's)")

    sub.add_parser("locate", parents=[common], help="print every path the cockpit uses")

    report = sub.add_parser("report", parents=[common], help="the whole picture as Markdown or JSON")
    report.add_argument("--format", choices=["markdown", "json"], default="markdown")
    sub.add_parser("check", parents=[common], help="exit 0 when go, 1 when no-go (each failing gate on a line)")

    auth = sub.add_parser("auth", parents=[common], help="store, show or forget the GitHub token (keyring)")
    auth.add_argument("auth_command", choices=["login", "status", "logout"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _dispatch(args)
    except CockpitError as exc:
        print(f"cockpit: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("cockpit: interrupted", file=sys.stderr)
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    from cockpit.cli import commands

    handler = {
        None: commands.run_app,
        "view": commands.run_view,
        "demo": commands.run_demo,
        "sandbox": commands.run_sandbox,
        "locate": commands.run_locate,
        "auth": _auth,
        "report": _report,
        "check": _check,
    }[args.command]
    return handler(args)


def _auth(args: argparse.Namespace) -> int:
    from cockpit.cli.auth import run_auth

    return run_auth(args)


def _report(args: argparse.Namespace) -> int:
    from cockpit.cli.report import run_report

    return run_report(args)


def _check(args: argparse.Namespace) -> int:
    from cockpit.cli.report import run_check

    return run_check(args)
