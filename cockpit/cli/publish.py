"""``cockpit publish``: the release's status to the tracker issue as one comment, edited in place.

``--dry-run`` prints the Markdown that would be sent and its diff against the published comment,
reading GitHub only. A publish that finds an unreadable or hand-edited comment stops before writing
and says so; ``--replace-unreadable`` republishes from what is known. Publishing goes through the
action registry like the overview's ``P``: refused in a read-only session, audited in the state file.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cockpit.domain.status import StatusInput, StatusPublication

if TYPE_CHECKING:
    from cockpit.cockpit_backend import CockpitBackend


def picture_to_publish(backend: CockpitBackend) -> StatusInput:
    """The whole release picture (every pane loaded, as ``cockpit report`` does), as a publish renders it."""
    from cockpit.loaders.picture import gather

    picture = gather(backend, backend.clock())
    return StatusInput(
        version=picture.version,
        repository=picture.repository,
        branch=picture.branch,
        gates=picture.gates,
        checklist=picture.checklist,
        verdict=picture.verdict,
    )


def run(args: argparse.Namespace) -> int:
    from cockpit.actions.publish import ACTION_ID
    from cockpit.bootstrap import build_backend
    from cockpit.cli.commands import load, print_dry_run, tell_interrupted

    config = load(args)
    backend = build_backend(config, read_only=bool(args.read_only or args.dry_run), take_over=args.take_over)
    try:
        repair = bool(getattr(args, "replace_unreadable", False))
        publication = StatusPublication(picture_to_publish(backend), repair=repair)
        if args.dry_run:
            return print_dry_run(
                backend.actions, ACTION_ID, StatusPublication(publication.picture, read_tracker=True, repair=repair)
            )
        tell_interrupted(backend.actions)  # a publish cut short last time is looked up and said first (issue 30)
        result = backend.actions.run(ACTION_ID, publication, confirmed=True)
    finally:
        backend.state.close()
    print(result.message, file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1
