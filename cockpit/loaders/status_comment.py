"""The team's status comment as the tracker's comments show it, kept for the checklist.

The cherry-pick load reads every comment of the tracker anyway; it hands them here, so the team's
sign-offs cost no request of their own and are as fresh as the last refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cockpit.domain.github import IssueComment
    from cockpit.ports import Ports


def remember_team_status(backend: Ports, comments: list[IssueComment]) -> list[IssueComment]:
    """Keep the status comment's and the sign-off records' reading in ``backend.shared``; the other
    comments, for the pick parser."""
    from cockpit.services.signoff_record import is_record
    from cockpit.services.status_comment import is_status_comment
    from cockpit.services.status_read import read_status

    release = backend.config.release.version
    try:
        backend.shared.team_status = read_status(comments, release, backend.clock())
        return [c for c in comments if not (is_status_comment(c.body, release) or is_record(c.body, release))]
    except ValueError:  # a version that cannot be in a marker has no status comment
        return comments
