"""The command line of release day's own commands: ``workflows`` (list, start, watch, re-run, cancel, approve,
reject), ``tracker-issue`` (the release tracker at branch cut) and ``revert-prs`` (the reverts owed as
PRs). Added to ``cockpit.cli.main``'s parser."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def release_day_commands(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``workflows`` and ``tracker-issue`` through ``command`` (``cockpit.cli.main.parsers``' helper)."""
    flows = command(
        "workflows",
        "cockpit.cli.workflows:run",
        "the release's workflows and their latest runs, as JSON; or start, watch, re-run, cancel, approve one",
        ("config", "read-only", "take-over", "debug"),
    )
    flows.add_argument(
        "workflow_command",
        nargs="?",
        choices=["list", "start", "watch", "rerun", "cancel", "approve", "reject"],
        default="list",
        help="list (default): the workflows and their latest runs; start STEP: a checklist step's workflow "
        "(a dry run unless --real); watch/rerun/cancel/approve/reject RUN_ID",
    )
    flows.add_argument("target", nargs="?", help="the checklist step (start) or the run id (the others)")
    flows.add_argument("--real", action="store_true", help="start: the real run (after a dry run that succeeded)")
    flows.add_argument("--confirm", metavar="VERSION", help="the release's version, typed: for --real and approve")
    flows.add_argument("--package", help="start: which of the step's packages (default: the first)")
    flows.add_argument("--input", action="append", metavar="NAME=VALUE", help="start: set one input (repeatable)")
    flows.add_argument("--wait", action="store_true", help="start, watch: wait for the run to end, a line per change")
    flows.add_argument("--interval", type=float, default=10.0, help="seconds between looks while waiting (10)")
    flows.add_argument("--comment", help="approve, reject: the reviewer's comment (required)")
    tracker = command(
        "tracker-issue",
        "cockpit.cli.tracker_issue:run",
        "open the release tracker issue at branch cut, from the key dates of the release announcement",
        ("config", "read-only", "take-over", "debug"),
    )
    for flag, what in (
        ("--m3", "M3, the release branch cut"),
        ("--m4", "M4, the branch final (the phase 1 / phase 2 cut-off)"),
        ("--m4-1", "M4.1, tutorial drafts due"),
        ("--m5", "M5, external-facing content final"),
        ("--m6", "M6, release day"),
    ):
        tracker.add_argument(flag, metavar="DATE", help=f"{what}, as the announcement writes it ('week of 8/6/26')")
    tracker.add_argument("--managers", help="the release managers to name, such as '@alice, @bob'")
    tracker.add_argument("--dry-run", action="store_true", help="print what would be sent; send nothing")
    reverts = command(
        "revert-prs",
        "cockpit.cli.revert_prs:run",
        "the reverts the release branch owes, as pull requests from your fork (a preview unless --yes)",
        ("config", "read-only", "take-over", "debug"),
    )
    reverts.add_argument("--yes", action="store_true", help="open them (the one confirmation); else only the preview")
    reverts.add_argument("--comment", action="store_true", help="also post the tracker's request for each PR opened")
    reverts.add_argument("--format", choices=["text", "json"], default="text", help="the preview as text or JSON")
