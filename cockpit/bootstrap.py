"""The composition root: builds the real adapters from a config and hands the UI/CLI a Backend."""

from __future__ import annotations

import getpass
import threading
from dataclasses import replace
from datetime import date, datetime, timezone
from typing import Callable

from cockpit.config import Config
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import (
    BranchReport,
    ChecklistReport,
    CIReport,
    GoNoGo,
    MilestoneReport,
    PicksReport,
    StorageGateReport,
)
from cockpit.errors import CockpitError


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class CockpitBackend:
    """The real Backend (see ``cockpit/backend.py``): adapters in, reports out.

    Loads are called from worker threads, possibly several at once; the shared caches are
    guarded by a lock and each load is otherwise independent.
    """

    def __init__(self, config: Config, *, read_only: bool, github, git_repo, wheel_index, pypi,
                 state, who: str, clock: Callable[[], datetime] = utc_now) -> None:
        from cockpit.actions.registry import ActionRegistry
        from cockpit.actions.catalog import register_actions

        self.config = config
        self.read_only = read_only
        self.github = github
        self.git = git_repo
        self.wheel_index = wheel_index
        self.pypi = pypi
        self.state = state
        self.who = who
        self.clock = clock
        self._lock = threading.Lock()
        self._milestone_items = None
        self._branch_report: BranchReport | None = None
        self.actions = ActionRegistry(state, read_only=read_only, who=who, clock=clock)
        register_actions(self)

    @property
    def repository(self) -> str:
        return self.config.release.repository

    # -- milestone -------------------------------------------------------------------------
    def _milestone(self):
        ref = self.config.release.milestone
        if ref is None:
            raise CockpitError(f"{self.config.path}: key 'release.milestone' is not set: expected a milestone number or title", title="Config")
        milestone = self.github.milestone(self.repository, ref)
        items = self.github.milestone_items(self.repository, milestone.number)
        with self._lock:
            self._milestone_items = items
        return milestone, items

    def load_milestone(self) -> MilestoneReport:
        from cockpit.services.milestone import summarize_milestone

        milestone, items = self._milestone()
        return summarize_milestone(milestone, items, skip_labels=self.config.skip_labels)

    # -- branch diff -----------------------------------------------------------------------
    def load_branch_diff(self) -> BranchReport:
        from cockpit.services.branch_diff import branch_gate
        from cockpit.services.branch_loader import load_branch_diff

        with self._lock:
            items = self._milestone_items
        if items is None:
            _, items = self._milestone()
        rel = self.config.release
        report = load_branch_diff(
            self.git,
            main=rel.main,
            branch=rel.branch,
            cut_override=self.config.git.cut,
            remote=self.config.git.remote,
            items=items,
            repository=self.repository,
            skip_labels=self.config.skip_labels,
            release_only_patterns=self.config.git.release_only_patterns,
            **self._rc_range(),
        )
        result = BranchReport(diff=report, gate=branch_gate(report))
        with self._lock:
            self._branch_report = result
        return result

    def _rc_range(self) -> dict[str, str]:
        """The two newest RC tags, for the RC delta; empty before the second RC."""
        tags = self.rc_tags()
        return {"rc_base": tags[-2], "rc_head": tags[-1]} if len(tags) >= 2 else {}

    def rc_tags(self) -> list[str]:
        """This release's RC tags in the local clone, oldest first."""
        prefix = f"v{self.config.release.version}-rc"
        tags = [t for t in self.git.tags() if t.startswith(prefix) and t[len(prefix):].isdigit()]
        return sorted(tags, key=lambda t: int(t[len(prefix):]))

    # -- cherry-picks ----------------------------------------------------------------------
    def load_picks(self) -> PicksReport:
        from cockpit.services.pick_parser import parse_requests
        from cockpit.services.picks import needed_pull_numbers, picks_report, pr_numbers_in_subjects

        rel = self.config.release
        if rel.tracker_issue is None:
            raise CockpitError(f"{self.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number", title="Config")
        tracker = self.github.issue(self.repository, rel.tracker_issue)
        comments = self.github.issue_comments(self.repository, rel.tracker_issue)
        requests = parse_requests(comments, repository=self.repository)
        release_pulls = {p.number: p for p in self.github.pulls(self.repository, base=rel.branch)}
        pulls = dict(release_pulls)
        for number in sorted(needed_pull_numbers(requests, self.repository) - pulls.keys()):
            try:
                pulls[number] = self.github.pull(self.repository, number)
            except CockpitError:
                continue  # a deleted or mistyped PR: the analysis flags the request instead
        with self._lock:
            branch = self._branch_report
        reverted = {r.reverted_pr for r in branch.diff.reverts_to_propagate if r.reverted_pr} if branch else set()
        cut = branch.diff.cut if branch else self._cut()
        branch_log = self.git.log(f"{cut}..{rel.branch}") if cut else []
        return picks_report(
            requests,
            tracker_issue=rel.tracker_issue,
            tracker_title=tracker.title,
            pulls=pulls,
            release_branch=rel.branch,
            repository=self.repository,
            reverted_trunk_prs=reverted,
            # only numbers of PRs based on the release branch: a pick's subject also names its trunk PR
            branch_pr_numbers=pr_numbers_in_subjects(c.subject for c in branch_log) & release_pulls.keys(),
            now=self.clock(),
            stale_days=self.config.stale_days,
        )

    def _cut(self) -> str | None:
        """The cut, for when the branch diff has not run yet; None when it cannot be found."""
        from cockpit.services.branch_loader import find_cut

        rel, git_cfg = self.config.release, self.config.git
        main_sha = self.git.rev_parse(rel.main) or self.git.rev_parse(f"{git_cfg.remote}/{rel.main}")
        branch_sha = self.git.rev_parse(rel.branch) or self.git.rev_parse(f"{git_cfg.remote}/{rel.branch}")
        if not (main_sha and branch_sha):
            return None
        try:
            return find_cut(self.git, main_sha=main_sha, branch_sha=branch_sha, branch=rel.branch,
                            remote=git_cfg.remote, cut_override=git_cfg.cut)
        except CockpitError:
            return None

    # -- CI --------------------------------------------------------------------------------
    def load_ci(self) -> CIReport:
        from cockpit.services.ci import ci_report

        before = self.github.request_count
        branches, rc_builds = [], []
        tags = self.rc_tags()
        for target in self.config.ci:
            runs = self.github.check_runs(target.repository, target.branch)
            history = []
            for sha in self.github.branch_commits(target.repository, target.branch, 6)[1:]:
                history.append((sha, self.github.check_runs(target.repository, sha)))
            branches.append((target, target.branch, runs, history))
            if target.repository == self.repository and target.binary_workflow and tags:
                rc_builds.append((target, tags[-1], self.github.check_runs(target.repository, tags[-1])))
        return ci_report(branches, rc_builds, requests=self.github.request_count - before)

    # -- storage ---------------------------------------------------------------------------
    def load_storage(self) -> StorageGateReport:
        from cockpit.services.storage import expected_artifacts, pypi_gate, storage_gate, validate_rc
        from cockpit.services.support_policy import default_python_tags

        st = self.config.storage
        if not st.index_url or not st.packages:
            raise CockpitError(f"{self.config.path}: table [storage] needs 'index_url' and 'packages' to check release candidates", title="Config")
        version = self.config.release.version
        tags = st.python_tags or default_python_tags(_release_date(st.release_date, self.clock), free_threaded=st.free_threaded)
        expected = expected_artifacts(st.packages, version, st.platforms, tags)
        found = []
        for package in st.packages:
            found.extend(self.wheel_index.with_sizes(self.wheel_index.project_files(package, channel="test")))
        report = validate_rc(expected, found, version=version, size_limit_mb=st.size_limit_mb,
                             size_warn_mb=st.size_warn_mb, index_url=st.index_url)
        published, versions = False, []
        if self.pypi is not None:
            for package in st.packages:
                versions.extend(self.pypi.versions(package))
            published = version in versions
        report = replace(report, published_on_pypi=published, pypi_versions=tuple(versions))
        return StorageGateReport(report=report, gate=storage_gate(report), pypi_gate=pypi_gate(published, version))

    # -- checklist and go/no-go ------------------------------------------------------------
    def checklist_steps(self):
        from cockpit.services.checklist import load_template

        return load_template(self.config.checklist_template)

    def load_checklist(self, gates: dict[str, Gate]) -> ChecklistReport:
        from cockpit.services.checklist import checklist_report

        return checklist_report(self.checklist_steps(), self.state.signoffs(), gates)

    def go_no_go(self, gates: dict[str, Gate], checklist: ChecklistReport) -> GoNoGo:
        from cockpit.services.overview import go_no_go

        return go_no_go(gates, checklist)

    def rate_limit_text(self) -> str:
        limit = self.github.rate_limit
        count = self.github.request_count
        if limit is None:
            return f"GitHub · {count} requests"
        return f"GitHub {limit.remaining:,}/{limit.limit:,} · {count} requests"


def _release_date(text: str, clock: Callable[[], datetime]) -> date:
    if text:
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    return clock().date()


def current_user(git_repo=None) -> str:
    """git ``user.name``, else the login name: who signs a checklist step."""
    if git_repo is not None:
        try:
            name = git_repo.current_user()
            if name:
                return name
        except CockpitError:
            pass
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def build_backend(config: Config, *, read_only: bool = False, token: str | None = None,
                  clock: Callable[[], datetime] = utc_now) -> CockpitBackend:
    """Build the real adapters for ``config``. ``token`` None means: resolve it as configured."""
    from cockpit.adapters.credentials import resolve_token
    from cockpit.adapters.git import GitRepo
    from cockpit.adapters.github import GitHubClient
    from cockpit.adapters.storage import PyPIClient, WheelIndex
    from cockpit.state.store import StateStore

    gh = config.github
    if token is None and gh.auth == "auto":
        token = resolve_token(gh.api_url).token
    github = GitHubClient(gh.api_url, token, timeout=gh.timeout_s, retries=gh.retries,
                          max_rate_limit_wait=gh.max_rate_limit_wait_s, read_only=read_only)
    git_repo = GitRepo(config.git.clone, read_only=read_only)
    st = config.storage
    wheel_index = WheelIndex(st.index_url, timeout=gh.timeout_s) if st.index_url else None
    pypi = PyPIClient(st.pypi_url, timeout=gh.timeout_s) if st.pypi_url else None
    state = StateStore(config.resolved_state_path, read_only=read_only)
    state.load()
    effective_read_only = read_only or state.read_only
    return CockpitBackend(config, read_only=effective_read_only, github=github, git_repo=git_repo,
                          wheel_index=wheel_index, pypi=pypi, state=state,
                          who=current_user(git_repo), clock=clock)
