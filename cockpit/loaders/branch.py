"""Branch-diff pane: one git log per range, one patch-id batch, the milestone items from GitHub."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.reports import BranchReport
from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def rc_tags(backend: "CockpitBackend") -> list[str]:
    """This release's RC tags in the local clone, oldest first (``v2.5.0-rc1``, ``-rc2``, ...)."""
    prefix = f"v{backend.config.release.version}-rc"
    tags = [t for t in backend.git.tags() if t.startswith(prefix) and t[len(prefix):].isdigit()]
    return sorted(tags, key=lambda t: int(t[len(prefix):]))


def load_branch_diff(backend: "CockpitBackend") -> BranchReport:
    from cockpit.loaders.milestone import fetch_milestone
    from cockpit.services.branch_diff import branch_gate
    from cockpit.services.branch_loader import load_branch_diff as analyze

    items = backend.cached("milestone_items")
    if items is None:
        _, items = fetch_milestone(backend)
    rel, git_cfg = backend.config.release, backend.config.git
    tags = rc_tags(backend)
    rc_range = {"rc_base": tags[-2], "rc_head": tags[-1]} if len(tags) >= 2 else {}
    report = analyze(
        backend.git,
        main=rel.main,
        branch=rel.branch,
        cut_override=git_cfg.cut,
        remote=git_cfg.remote,
        items=items,
        repository=backend.repository,
        skip_labels=backend.config.skip_labels,
        release_only_patterns=git_cfg.release_only_patterns,
        **rc_range,
    )
    result = BranchReport(diff=report, gate=branch_gate(report))
    backend.remember(branch_report=result)
    return result


def find_cut(backend: "CockpitBackend") -> str | None:
    """The cut, for when the branch diff has not run yet; None when it cannot be found."""
    from cockpit.services.branch_loader import find_cut as locate

    rel, git_cfg = backend.config.release, backend.config.git
    git = backend.git
    main_sha = git.rev_parse(rel.main) or git.rev_parse(f"{git_cfg.remote}/{rel.main}")
    branch_sha = git.rev_parse(rel.branch) or git.rev_parse(f"{git_cfg.remote}/{rel.branch}")
    if not (main_sha and branch_sha):
        return None
    try:
        return locate(git, main_sha=main_sha, branch_sha=branch_sha, branch=rel.branch,
                      remote=git_cfg.remote, cut_override=git_cfg.cut)
    except CockpitError:
        return None
