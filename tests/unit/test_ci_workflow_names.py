"""The CI pane warns about a required workflow that no run on the release branch is called, with the
near match (``lint`` when GitHub reports ``Lint``), and judges the RC tag on the binary-build workflows.

The runs are GitHub's REST shapes (``GET /repos/{owner}/{repo}/actions/runs``), read by the adapter's parser.
"""

from __future__ import annotations

from types import SimpleNamespace

from cockpit.adapters.github_parse import run_from
from cockpit.domain.ci import CITarget
from cockpit.domain.release import Release
from cockpit.loaders.ci import load_ci

SHA = "5f0b2c3d4e5f60718293a4b5c6d7e8f901234567"


def rest_run(run_id: int, name: str, branch: str, event: str = "push") -> dict:
    """One item of ``workflow_runs`` as GitHub sends it (the fields the cockpit reads, and a few it does not)."""
    return {
        "id": run_id,
        "name": name,
        "node_id": f"WFR_{run_id}",
        "head_branch": branch,
        "head_sha": SHA,
        "path": f".github/workflows/{name.lower()}.yml",
        "display_title": "[release/2.9] Bump version",
        "run_number": 812,
        "event": event,
        "status": "completed",
        "conclusion": "success",
        "workflow_id": 1000 + run_id,
        "check_suite_id": 2000 + run_id,
        "html_url": f"https://github.com/pytorch/pytorch/actions/runs/{run_id}",
        "created_at": "2026-11-20T10:00:00Z",
        "run_attempt": 1,
    }


class _GitHub:
    def __init__(self, runs: list[dict]) -> None:
        self.runs = [run_from(r) for r in runs]

    def thread_request_counts(self) -> tuple[int, int]:
        return 0, 0

    def check_runs(self, repo: str, ref: str) -> list:
        return []

    def branch_commits(self, repo: str, branch: str, limit: int) -> list[str]:
        return [SHA]

    def workflow_runs(self, repo, *, branch=None, head_sha=None, event=None, limit=300):
        return [r for r in self.runs if branch is None or r.head_branch == branch]


def _ports(target: CITarget, runs: list[dict]) -> SimpleNamespace:
    config = SimpleNamespace(
        ci=(target,), release=Release("2.9.0", "pytorch/pytorch", "release/2.9"), rc_tag_pattern="v{version}-rc{n}"
    )
    git = SimpleNamespace(tags=lambda: {})
    return SimpleNamespace(config=config, repository="pytorch/pytorch", github=_GitHub(runs), git=git)


RUNS = [rest_run(1, "pull", "release/2.9"), rest_run(2, "trunk", "release/2.9"), rest_run(3, "Lint", "release/2.9")]


def test_a_lowercase_lint_is_warned_with_githubs_spelling() -> None:
    report = load_ci(_ports(CITarget("pytorch/pytorch", "release/2.9", ("pull", "trunk", "lint")), RUNS))
    warned = [n for n in report.notes if "lint" in n]
    assert warned == ["pytorch/pytorch: required workflow 'lint' matches no workflow; did you mean 'Lint'?"]


def test_the_right_names_warn_nothing() -> None:
    report = load_ci(_ports(CITarget("pytorch/pytorch", "release/2.9", ("pull", "trunk", "Lint")), RUNS))
    assert not [n for n in report.notes if "required workflow" in n]


def test_no_run_yet_warns_nothing() -> None:
    report = load_ci(_ports(CITarget("pytorch/pytorch", "release/2.9", ("pull", "trunk", "lint")), []))
    assert not [n for n in report.notes if "required workflow" in n]
