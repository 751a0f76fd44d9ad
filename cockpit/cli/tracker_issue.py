"""``cockpit tracker-issue``: open the release tracker issue at branch cut, from the key dates of the release
announcement, as they are written there:

    cockpit tracker-issue --m3 "week of 8/6/26" --m4 "week of 22/6/26" --m4-1 30/6/26 --m5 1/7/26 --m6 8/7/26
    cockpit tracker-issue ... --dry-run        # print what would be sent, send nothing

Through the action registry: refused in a read-only session, audited, opened once (an issue of that title
is adopted). Exit 0 when opened or adopted (or previewed), 1 when refused or failed, 2 for bad input.
"""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from cockpit.actions.release_tracker import ACTION_ID, TrackerDraft
    from cockpit.bootstrap import build_backend
    from cockpit.cli.commands import load, print_dry_run, tell_interrupted
    from cockpit.services.release_tracker import LABELS, key_dates, render, title

    config = load(args)
    dates = key_dates({name: getattr(args, name) for name in ("m3", "m4", "m4_1", "m5", "m6")})
    rel = config.release
    branch = rel.branch
    ci_url = (
        f"https://hud.pytorch.org/hud/{rel.repository}/{branch.replace('/', '%2F')}"
        if rel.repository == "pytorch/pytorch"  # PyTorch's CI dashboard (the runbook links it); else Actions
        else f"https://github.com/{rel.repository}/actions?query=branch%3A{branch.replace('/', '%2F')}"
    )
    body = render(
        version=rel.version, repository=rel.repository, branch=branch, dates=dates, managers=args.managers or "",
        ci_url=ci_url,
    )  # fmt: skip
    draft = TrackerDraft(rel.repository, title(rel.version), LABELS, body)
    backend = build_backend(config, read_only=bool(args.read_only or args.dry_run), take_over=args.take_over)
    try:
        if args.dry_run:
            return print_dry_run(backend.actions, ACTION_ID, draft)
        tell_interrupted(backend.actions)
        result = backend.actions.run(ACTION_ID, draft, confirmed=True)
    finally:
        backend.state.close()
    print(result.message, file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1
