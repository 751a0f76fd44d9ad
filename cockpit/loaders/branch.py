"""Branch-diff pane: one git log per range, one patch-id batch, the milestone items from GitHub.

The diff is computed once for every pane that needs it (the cherry-picks pane reads the reverts
owed from it), and always from the milestone list as it stands: when that list cannot be read
again, the load fails and the pane shows its last diff as STALE, never as fresh.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from cockpit.domain.commits import BranchDiffReport
from cockpit.domain.github import MilestoneItem
from cockpit.domain.reports import BranchReport, ReleaseDays
from cockpit.errors import GitError

if TYPE_CHECKING:
    from cockpit.ports import Ports
    from cockpit.services.clone_refs import ReleaseRefs, ResolvedRef


def rc_tags(backend: Ports) -> list[str]:
    """This release's RC tags in the local clone, oldest first (``v2.5.0-rc1``, ``-rc2``, ...)."""
    from cockpit.config.release import DEFAULT_RC_TAG_PATTERN
    from cockpit.services import clone_refs

    pattern = backend.config.rc_tag_pattern
    if pattern != DEFAULT_RC_TAG_PATTERN:  # a domain library may tag its RCs its own way
        from cockpit.services.rc_pattern import rc_tags_matching

        return rc_tags_matching(backend.git.tags(), backend.config.release.version, pattern)
    return clone_refs.rc_tags(backend.git.tags(), backend.config.release.version)


def release_days(backend: Ports, cut: str) -> ReleaseDays:
    """The cut commit's day, each RC tag's day and the configured final-RC target, for the burn-down.

    Two git calls (the cut commit, every tag's date); a clone that cannot answer them leaves those
    marks out rather than failing the branch diff, which has its own answer.
    """
    from cockpit.services import clone_refs

    target = backend.config.final_rc_date
    try:
        found = backend.git.log(f"{cut}^!") if cut else []
        dates = backend.git.tag_dates()
    except (GitError, OSError):
        return ReleaseDays(final_rc_target=target)
    cut_day = datetime.fromtimestamp(found[0].authored_at, UTC).date() if found and found[0].authored_at else None
    tags = clone_refs.rc_tags(list(dates), backend.config.release.version)
    return ReleaseDays(cut_day, tuple((t, dates[t].date()) for t in tags), target)


def release_branch(backend: Ports) -> ResolvedRef:
    """The release branch as the clone has it: local, else the configured remote's."""
    from cockpit.services.clone_refs import require_ref

    return require_ref(backend.git, backend.config.release.branch, backend.config.git.remote)


def release_refs(backend: Ports) -> ReleaseRefs:
    """Main, the release branch and the cut, resolved the one way every pane resolves them."""
    from cockpit.services import clone_refs

    rel, git_cfg = backend.config.release, backend.config.git
    return clone_refs.release_refs(
        backend.git, main=rel.main, branch=rel.branch, remote=git_cfg.remote, cut_override=git_cfg.cut
    )


def load_branch_diff(backend: Ports) -> BranchReport:
    """The pane's load: the diff computed again (or taken from a load running at the same time)."""
    return shared_branch_diff(backend)


def shared_branch_diff(backend: Ports, *, reuse_within: float = 0.0) -> BranchReport:
    """The branch diff, computed once for all panes loading at the same time; one younger than
    ``reuse_within`` seconds is reused, unless a later computation failed."""
    from cockpit.loaders.milestone import MILESTONE_REUSE_S, fetch_milestone
    from cockpit.services.branch_diff import branch_gate

    def compute() -> BranchReport:
        _, items = fetch_milestone(backend, reuse_within=MILESTONE_REUSE_S)
        diff = analyze(backend, items, with_rc_delta=True, predict="if_possible")
        return BranchReport(diff=diff, gate=branch_gate(diff), days=release_days(backend, diff.cut))

    return backend.shared.branch_diff.get(compute, reuse_within=reuse_within)


def analyze(
    backend: Ports,
    items: list[MilestoneItem] | tuple[MilestoneItem, ...],
    *,
    with_rc_delta: bool,
    predict: bool | Literal["if_possible"] = False,
) -> BranchDiffReport:
    """The branch-diff engine over the clone for ``items`` (none: only the history's own findings,
    reverts owed and fixes only on the branch, which need no milestone). ``predict``: with what
    each missing pick's and revert's ``git cherry-pick -x`` would do (the pane shows it;
    ``"if_possible"``: a git failure there leaves the diff standing, with the reason)."""
    from cockpit.services.branch_loader import load_branch_diff as engine

    rel, git_cfg = backend.config.release, backend.config.git
    tags = rc_tags(backend) if with_rc_delta else []
    rc_base, rc_head = (tags[-2], tags[-1]) if len(tags) >= 2 else ("", "")
    return engine(
        backend.git,
        main=rel.main,
        branch=rel.branch,
        cut_override=git_cfg.cut,
        remote=git_cfg.remote,
        items=items,
        repository=backend.repository,
        skip_labels=backend.config.skip_labels,
        release_only_patterns=git_cfg.release_only_patterns,
        rc_base=rc_base,
        rc_head=rc_head,
        predict=predict,
    )
