"""``cockpit revert-prs``: the reverts the release branch owes, opened as pull requests from your fork.

    cockpit revert-prs                 # the preview: what would happen to each revert owed; nothing sent
    cockpit revert-prs --yes           # the one confirmation: push each pick to the fork, open its PR
    cockpit revert-prs --yes --comment # ... and post the tracker's request for each PR opened

Through the action registry (``branch.revert_prs``): refused in a read-only session, its intent
audited before anything is pushed, each PR opened once (a PR from the same head branch is reused).
Exit 0 when previewed or done, 1 when refused or a PR failed, 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict


def run(args: argparse.Namespace) -> int:
    from cockpit.actions.revert_prs import ACTION, plan_batch
    from cockpit.bootstrap import build_backend
    from cockpit.cli.commands import load
    from cockpit.domain.revert_prs import RevertPRAsk
    from cockpit.loaders.branch import analyze

    config = load(args)
    backend = build_backend(config, read_only=bool(args.read_only or not args.yes), take_over=args.take_over)
    try:
        diff = analyze(backend, [], with_rc_delta=False, predict=True)
        ask = RevertPRAsk(diff.reverts_to_propagate, diff.predictions, comment=bool(args.comment))
        if not args.yes:
            batch = plan_batch(backend, ask)
            if args.format == "json":
                print(json.dumps([{**asdict(p), "outcome": p.outcome.value} for p in batch.plans], indent=2))
            else:
                print(backend.actions.dry_run(ACTION, ask))
                print("nothing was sent: run again with --yes to open them")
            return 0
        result = backend.actions.run(ACTION, ask, confirmed=True)
    finally:
        backend.state.close()
    print(result.message, file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1
