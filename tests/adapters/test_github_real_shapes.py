"""The GitHub adapter reads what GitHub really sends: its full shapes (``github_shapes``, each checked
against GitHub's REST description first) and the odd cases of a real release: pull requests in the
issues list, deleted accounts, null bodies, every check-run conclusion, re-runs, forks, transferred
and deleted issues, and a GitHub Enterprise server under ``/api/v3``."""

from __future__ import annotations

import json

import pytest

from cockpit.adapters.github import GitHubClient
from cockpit.config import load_config
from cockpit.domain.github import ItemKind, ItemState, PullState
from cockpit.errors import GitHubError
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.http_base import Request, Response, SandboxServer
from cockpit.services.ci import BAD, GOOD
from tests.adapters import github_shapes as shapes
from tests.fixtures_world import REPO, tiny_world
from tests.github_description import check_response

CORE = "pytorch/pytorch"
CONCLUSIONS = ["success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required", None]


class CannedGitHub(SandboxServer):
    """Answers fixed JSON per route, like GitHub would for these requests."""

    def __init__(self, answers: dict[str, object]) -> None:
        super().__init__()
        self.answers = answers

    def handle(self, request: Request) -> Response:
        if request.route not in self.answers:
            return self.error(404, "Not Found")
        return Response.json(self.answers[request.route])


@pytest.fixture
def canned():
    servers = []

    def serve(answers: dict[str, object]) -> GitHubClient:
        server = CannedGitHub(answers)
        servers.append(server)
        return GitHubClient(server.start(), None, timeout=5)

    yield serve
    for server in servers:
        server.stop()


def milestone_rows():
    return [
        shapes.issue(1, state="open"),
        shapes.issue(2, state="closed", state_reason="completed"),
        shapes.issue(3, state="closed", state_reason="not_planned", author=None),  # reporter deleted their account
        shapes.issue(4, state="closed", state_reason="duplicate", body=None),
        shapes.issue(
            5, state="closed", pull_merged_at=shapes.WHEN, body="Fixes https://github.com/pytorch/pytorch/pull/9"
        ),
        shapes.issue(6, state="closed", pull_merged_at=None),
        shapes.issue(7, state="open", pull_merged_at=None),
    ]


def test_each_example_is_in_githubs_real_shape():
    examples = [
        ("GET", f"/repos/{CORE}/issues", milestone_rows()),
        ("GET", f"/repos/{CORE}/issues/130000", shapes.issue(130000)),
        ("GET", f"/repos/{CORE}/milestones/47", shapes.milestone()),
        ("GET", f"/repos/{CORE}/milestones", [shapes.milestone(), shapes.milestone(46, "2.4.1", "closed")]),
        ("GET", f"/repos/{CORE}/issues/130000/comments", [shapes.comment(1, "text"), shapes.comment(2, None, None)]),
        ("GET", f"/repos/{CORE}/pulls/140001", shapes.pull(140001)),
        ("GET", f"/repos/{CORE}/pulls/140002", shapes.pull(140002, head_repo=shapes.repo("dev/pytorch", 1, fork=True))),
        ("GET", f"/repos/{CORE}/pulls/140003", shapes.pull(140003, head_repo=None, author=shapes.user("ghost", 10137))),
        (
            "GET",
            f"/repos/{CORE}/actions/runs",
            {
                "total_count": 2,
                "workflow_runs": [
                    shapes.workflow_run(1, attempt=3, conclusion="failure"),
                    shapes.workflow_run(2, conclusion="startup_failure"),
                ],
            },
        ),
        (
            "GET",
            f"/repos/{CORE}/commits/release%2F2.5/check-runs",
            {"total_count": 8, "check_runs": [shapes.check_run(k, c) for k, c in enumerate(CONCLUSIONS)]},
        ),
    ]
    for method, path, body in examples:
        assert check_response(method, path, 200, json.dumps(body)) == [], path


def test_the_milestone_list_tells_issues_from_pull_requests_and_keeps_why_an_issue_closed(canned):
    client = canned({f"/repos/{CORE}/issues": milestone_rows()})
    items = {i.number: i for i in client.milestone_items(CORE, 47)}
    issue, pull = ItemKind.ISSUE, ItemKind.PULL
    assert [items[n].kind for n in (1, 2, 5, 6, 7)] == [issue, issue, pull, pull, pull]
    assert [items[n].state for n in (1, 2, 5, 6, 7)] == [
        ItemState.OPEN,
        ItemState.CLOSED,
        ItemState.MERGED,
        ItemState.CLOSED_UNMERGED,
        ItemState.OPEN,
    ]
    assert [items[n].state_reason for n in (2, 3, 4)] == ["completed", "not_planned", "duplicate"]
    assert items[1].state_reason == "" and items[5].state_reason == ""
    assert items[3].author == "ghost" and items[1].author == "malfet"
    assert items[4].body == "" and items[5].linked_prs == (9,)


def test_a_deleted_commenter_shows_as_ghost_and_a_null_body_as_empty_text(canned):
    path = f"/repos/{CORE}/issues/130000/comments"
    client = canned({path: [shapes.comment(1, "Link to landed trunk PR"), shapes.comment(2, None, None)]})
    first, second = client.issue_comments(CORE, 130000)
    assert (first.author, second.author, second.body) == ("atalman", "ghost", "")


def test_every_check_run_conclusion_is_kept_and_none_is_mistaken_for_pending(canned):
    conclusions = [*CONCLUSIONS, "stale"]  # GitHub marks a check run stale after 14 days; its description omits it
    client = canned(
        {
            f"/repos/{CORE}/commits/release%2F2.5/check-runs": {
                "total_count": len(conclusions),
                "check_runs": [shapes.check_run(k, c) for k, c in enumerate(conclusions)],
            },
            f"/repos/{CORE}/actions/runs": {"total_count": 1, "workflow_runs": [shapes.workflow_run(9_000_001)]},
        }
    )
    runs = client.check_runs(CORE, "release/2.5")
    assert [r.conclusion for r in runs] == conclusions
    assert {r.workflow for r in runs} == {"trunk"} and {r.run_id for r in runs} == {9_000_001}
    assert all(r.conclusion in GOOD | BAD for r in runs if r.status == "completed")
    assert "startup_failure" in BAD


def test_a_rerun_workflow_reports_its_attempt_and_a_startup_failure_its_conclusion(canned):
    client = canned(
        {
            f"/repos/{CORE}/actions/runs": {
                "total_count": 2,
                "workflow_runs": [
                    shapes.workflow_run(1, attempt=3, conclusion="failure", suite=1),
                    shapes.workflow_run(2, conclusion="startup_failure", suite=2),
                ],
            }
        }
    )
    rerun, broken = client.workflow_runs(CORE, branch="release/2.5")
    assert (rerun.attempt, rerun.conclusion) == (3, "failure")
    assert (broken.attempt, broken.conclusion) == (1, "startup_failure")


def test_a_pull_request_from_a_fork_and_one_whose_fork_and_author_are_gone(canned):
    client = canned(
        {
            f"/repos/{CORE}/pulls/140002": shapes.pull(140002, head_repo=shapes.repo("dev/pytorch", 1, fork=True)),
            f"/repos/{CORE}/pulls/140003": shapes.pull(140003, head_repo=None, author=None, state="open", merged=False),
        }
    )
    fork = client.pull(CORE, 140002)
    assert (fork.repository, fork.base_ref, fork.head_ref) == (CORE, "release/2.5", "fix-140002")
    assert fork.state is PullState.MERGED
    orphan = client.pull(CORE, 140003)
    assert (orphan.repository, orphan.state, orphan.author) == (CORE, PullState.OPEN, "ghost")


def test_a_milestone_is_found_by_title_among_githubs_full_milestones(canned):
    client = canned({f"/repos/{CORE}/milestones": [shapes.milestone(), shapes.milestone(46, "2.4.1", "closed")]})
    assert client.milestone(CORE, "v2.4.1").number == 46


class Enterprise(GitHubEmulator):
    """The emulator behind a GitHub Enterprise path: everything lives under ``/api/v3``."""

    def start(self) -> str:
        root = super().start()
        self.base_url = f"{root}/api/v3"  # the URLs it writes in bodies and Link headers
        return self.base_url

    def serve(self, request: Request) -> Response:
        if not request.route.startswith("/api/v3/"):
            return self.error(404, "Not Found")
        request.route = request.route.removeprefix("/api/v3")
        return super().serve(request)


def test_a_github_enterprise_server_under_api_v3_is_read_and_paged(tmp_path):
    with Enterprise(tiny_world()) as ghe:
        client = GitHubClient(ghe.base_url, None, timeout=5)
        try:
            assert len(client.check_runs(REPO, "release/2.5")) == 130  # two pages through Link headers
            assert client.milestone(REPO, "2.5.0").number == 1
            client.create_comment(REPO, 1, "Validated on GHE")
        finally:
            client.close()
        paths = [e["path"] for e in ghe.log()]
    assert paths and all(p.startswith("/api/v3/repos/acme/torchlet/") for p in paths)
    assert any("page=2" in p for p in paths)


def test_the_config_takes_an_enterprise_api_url(tmp_path):
    path = tmp_path / "cockpit.toml"
    path.write_text(
        '[release]\nversion = "2.5.0"\nrepository = "acme/torchlet"\n'
        '[github]\napi_url = "https://ghe.example.com/api/v3/"\n[git]\nclone = "torchlet"\n',
        encoding="utf-8",
    )
    assert load_config(path).github.api_url == "https://ghe.example.com/api/v3"


def test_enterprise_pull_request_links_in_bodies_are_read(canned):
    row = shapes.issue(
        5,
        state="closed",
        pull_merged_at=shapes.WHEN,
        body="Cherry-pick of https://ghe.example.com/pytorch/pytorch/pull/77",
    )
    client = canned({f"/repos/{CORE}/issues": [row]})
    assert client.milestone_items(CORE, 47)[0].linked_prs == (77,)


@pytest.fixture
def two_repos():
    with GitHubEmulator(tiny_world()) as gh:
        yield gh


def test_a_transferred_tracker_issue_is_followed_to_its_new_home_with_its_comments(two_repos):
    gh = two_repos
    new = gh.transfer_issue(REPO, 1, "acme/vision")
    client = GitHubClient(gh.base_url, None, timeout=5)
    try:
        tracker = client.issue(REPO, 1)
        comments = client.issue_comments(REPO, 1)
    finally:
        client.close()
    assert tracker.number == new and tracker.title == "[v2.5.0] Release Tracker"
    assert tracker.html_url == f"https://github.com/acme/vision/issues/{new}"
    assert [c.id for c in comments] == [5001, 5002, 5003]
    statuses = [(e["status"], e["path"]) for e in gh.log()]
    assert statuses[0][0] == 301 and statuses[1][0] == 200
    followed = [p for s, p in statuses if p.startswith("/repositories/") and p.endswith("/comments?per_page=100")]
    assert followed, f"the query was lost following the redirect: {statuses}"


def test_a_deleted_or_unknown_issue_says_so(two_repos):
    two_repos.delete_issue(REPO, 2)
    client = GitHubClient(two_repos.base_url, None, timeout=5)
    try:
        with pytest.raises(GitHubError, match=r"read issue #2 of acme/torchlet: it was deleted on GitHub \(410"):
            client.issue(REPO, 2)
        with pytest.raises(GitHubError, match=r"not found \(404\)"):
            client.issue(REPO, 999)
        assert 2 not in {i.number for i in client.milestone_items(REPO, 1)}
    finally:
        client.close()


class MovedAway(SandboxServer):
    def handle(self, request: Request) -> Response:
        return Response.json(
            {"message": "Moved Permanently"},
            status=301,
            headers={"Location": "https://elsewhere.example.com/repos/acme/torchlet/issues/1"},
        )


def test_a_redirect_to_another_host_is_not_followed():
    with MovedAway() as server:
        client = GitHubClient(server.base_url, "ghp_tokenThatMustStayHere", timeout=5)
        try:
            moved = r"read issue #1 of acme/torchlet: GitHub moved .* another host \(elsewhere.example.com\)"
            with pytest.raises(GitHubError, match=moved):
                client.issue(REPO, 1)
        finally:
            client.close()
        assert len(server.log()) == 1
