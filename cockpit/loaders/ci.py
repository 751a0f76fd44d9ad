"""CI pane: check runs of each release branch head, a few commits back for the last green one,
and the newest RC tag's binary builds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.reports import CIReport

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend

LAST_GREEN_WALK = 5  # commits behind the head searched for the last green one


def load_ci(backend: "CockpitBackend") -> CIReport:
    from cockpit.loaders.branch import rc_tags
    from cockpit.services.ci import ci_report

    gh = backend.github
    before = gh.request_count
    branches, rc_builds = [], []
    tags = rc_tags(backend)
    for target in backend.config.ci:
        runs = gh.check_runs(target.repository, target.branch)
        history = [(sha, gh.check_runs(target.repository, sha))
                   for sha in gh.branch_commits(target.repository, target.branch, LAST_GREEN_WALK + 1)[1:]]
        branches.append((target, target.branch, runs, history))
        if target.repository == backend.repository and target.binary_workflow and tags:
            rc_builds.append((target, tags[-1], gh.check_runs(target.repository, tags[-1])))
    return ci_report(branches, rc_builds, requests=gh.request_count - before)
