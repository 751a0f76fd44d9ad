"""The GitHub emulator speaks GitHub exactly: every answer the cockpit gets from the sandbox validates
against GitHub's published REST description (API version 2022-11-28, from the pinned test
dependency ``githubkit-schemas-2022-11-28``; see ``tests/github_description.py``).

What passes here passes against api.github.com only if the emulator sends what GitHub sends, so the
answers are recorded while the real adapters build a full report, while they act, on list pages
beyond the first, and in worlds where GitHub has a bad minute or holds the odd cases of real life.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

import cockpit.adapters.github as github_adapter
from cockpit.adapters.github import GitHubClient
from cockpit.cli.main import main
from cockpit.errors import GitHubError
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.model import SbCheckRun, SbComment, SbIssue, SbWorkflowRun
from tests.fixtures_world import BRANCH, RELEASE_HEAD, REPO, T1, tiny_world
from tests.github_description import check_response, operation_for, violations

pytestmark = pytest.mark.slow


@dataclass
class Answer:
    method: str
    path: str
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def operation(self) -> str:
        return operation_for(self.method, self.path).operation_id


@dataclass
class Recorder:
    """Every answer an emulator sends, body included, in the order sent."""

    answers: list[Answer] = field(default_factory=list)

    def attach(self, emulator: GitHubEmulator) -> Recorder:
        serve = emulator.serve

        def recording(request):
            response = serve(request)
            self.answers.append(
                Answer(request.method, request.path, response.status, dict(response.headers), response.body)
            )
            return response

        emulator.serve = recording  # the handler calls the instance's ``serve``
        return self


def nonconforming(answers: list[Answer]) -> list[str]:
    """One line per violation: the request and where the body differs from the description."""
    problems = []
    for a in answers:
        if a.status == 304:
            continue  # no body; the headers are checked on their own
        for v in check_response(a.method, a.path, a.status, a.body):
            problems.append(f"{a.method} {a.path} -> {a.status}: {v}")
    return problems


def adapter_operations() -> set[str]:
    """The operations ``cockpit/adapters/github.py`` sends, read from its source (its syntax tree, so
    how the calls are laid out over lines does not matter)."""
    tree = ast.parse(Path(github_adapter.__file__).read_text(encoding="utf-8"))
    verbs = {}  # the path argument of each ``request("POST", ...)`` call, and its verb
    found = set()
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or not call.args:
            continue
        first = call.args[0]
        if (
            call.func.attr in ("_pages", "_get")
            and isinstance(first, ast.Constant)
            and str(first.value).startswith("/")
        ):
            found.add(operation_for("GET", first.value).operation_id)
        if call.func.attr == "request" and isinstance(first, ast.Constant) and len(call.args) > 1:
            verbs[id(call.args[1])] = first.value
    for node in ast.walk(tree):
        path = ast.unparse(node)[2:-1] if isinstance(node, ast.JoinedStr) else ""  # f"...", without f" and "
        if path.startswith("{_repo_path(repo)}"):
            concrete = re.sub(r"\{[^}]*\}", "1", path.removeprefix("{_repo_path(repo)}"))
            found.add(operation_for(verbs.get(id(node), "GET"), f"/repos/o/r{concrete}").operation_id)
    return found


def fetch(base: str, path: str, method: str = "GET", body: dict | None = None) -> Answer:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"} if data else {}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return Answer(method, path, r.status, dict(r.headers), r.read())
    except urllib.error.HTTPError as e:
        return Answer(method, path, e.code, dict(e.headers), e.read())


@pytest.fixture
def report_answers(sandbox):
    """The demo world's answers while ``cockpit report`` builds every pane."""
    recorder = Recorder().attach(sandbox.github)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--config", str(sandbox.config_path), "report", "--format", "json"]) == 0
    return sandbox, recorder.answers


def test_every_answer_while_the_report_is_built_is_what_github_would_send(report_answers):
    _, answers = report_answers
    assert len(answers) > 20
    assert nonconforming(answers) == []


def test_the_report_reads_through_the_adapters_every_list_and_lookup_they_have(report_answers):
    _, answers = report_answers
    read = {a.operation for a in answers}
    reads = {op for op in adapter_operations() if op not in ACTIONS | LOOKUPS_OUTSIDE_THE_REPORT | CHORES}
    assert reads <= read, f"not exercised by the report: {sorted(reads - read)}"


ACTIONS = {
    "issues/create-comment",
    "issues/update-comment",
    "issues/update",
    "actions/re-run-workflow-failed-jobs",
    "issues/remove-label",
    "issues/delete-comment",
}
# `cockpit init` (the repository, milestones by title, the tracker by title) and milestones by title
# and the status comment's publish (whose token, the comment re-read just before its edit)
LOOKUPS_OUTSIDE_THE_REPORT = {
    "repos/get",
    "issues/list-milestones",
    "search/issues-and-pull-requests",
    "users/get-authenticated",
    "issues/get-comment",
}
# the release manager's last chores: open the validation issue, judge and merge a release-branch PR
CHORES = {
    "issues/create",
    "pulls/merge",
    "pulls/list-reviews",
    "repos/get-branch",
    "repos/get-combined-status-for-ref",
}


def test_every_get_carries_an_etag_and_the_rate_limit_headers(report_answers):
    _, answers = report_answers
    for a in answers:
        if a.status >= 400:  # GitHub's error answers carry no ETag (the docs entry that is missing answers 404)
            assert "ETag" not in a.headers, a.path
            continue
        assert a.headers.get("ETag", "").startswith(('W/"', '"')), a.path
        assert {
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
            "X-RateLimit-Used",
            "X-RateLimit-Resource",
        } <= a.headers.keys(), a.path
        assert int(a.headers["X-RateLimit-Remaining"]) <= int(a.headers["X-RateLimit-Limit"])


def _with(path: str, **params: str) -> str:
    parts = urlsplit(path)
    query = dict(parse_qsl(parts.query)) | params
    return f"{parts.path}?{urlencode(query)}"


def _rows(answer: Answer) -> int:
    data = json.loads(answer.body)
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), [])
    return len(data)


def test_later_pages_of_every_list_conform_and_link_to_their_neighbours(report_answers):
    sandbox, answers = report_answers
    base = sandbox.github.base_url
    lists = {}  # per list operation, the request whose answer held the most rows (its paging shows)
    for a in sorted((a for a in answers if "per_page=" in a.path and a.status == 200), key=_rows):
        if _rows(a) >= 3:
            lists[a.operation] = a.path
    assert {
        "issues/list-for-repo",
        "issues/list-comments",
        "pulls/list",
        "checks/list-for-ref",
        "actions/list-workflow-runs-for-repo",
        "repos/list-commits",
        "actions/list-workflow-runs",
        "actions/list-jobs-for-workflow-run",
    } <= lists.keys()
    for operation, path in sorted(lists.items()):
        first = fetch(base, _with(path, per_page="2", page="1"))
        second = fetch(base, _with(path, per_page="2", page="2"))
        assert nonconforming([first, second]) == [], operation
        link = first.headers.get("Link", "")
        assert 'rel="next"' in link and 'rel="last"' in link, f"{operation}: {link!r}"
        assert re.search(r'<http://127\.0\.0\.1:\d+/repos/[^>]*page=2[^>]*>; rel="next"', link), link
        assert 'rel="prev"' in second.headers.get("Link", "") and 'rel="first"' in second.headers["Link"]


def test_what_the_cockpit_does_is_answered_as_github_answers(sandbox):
    recorder = Recorder().attach(sandbox.github)
    world = sandbox.world
    client = GitHubClient(sandbox.github_url, None, timeout=5)
    try:
        assert client.repository_exists(world.repository)
        assert client.milestone(world.repository, world.version).number == world.milestone_number
        found = client.search_issues(world.repository, '"release tracker" in:title is:issue', limit=2)
        assert world.tracker_issue in {i.number for i in client.search_issues(world.repository, '"release tracker"')}
        assert len(found) == 2 and all("release tracker" in i.title.lower() for i in found)
        posted = client.create_comment(world.repository, world.tracker_issue, "Validated on rc2.")
        client.edit_comment(world.repository, posted.id, "Validated on rc2 (all platforms).")
        assert client.comment(world.repository, posted.id).body == "Validated on rc2 (all platforms)."
        assert client.authenticated_user() == "release-manager"
        client.delete_comment(world.repository, posted.id)
        item = next(i for i in client.milestone_items(world.repository, world.milestone_number) if not i.state.is_open)
        client.set_milestone(world.repository, item.number, None)
        client.set_milestone(world.repository, item.number, world.milestone_number)
        failed = next(
            r for r in client.workflow_runs(world.repository, branch=world.release_branch) if r.conclusion == "failure"
        )
        client.rerun_failed_jobs(world.repository, failed.id)
        client.remove_label(world.repository, world.tracker_issue, "release tracker")
        assert "release tracker" not in client.issue(world.repository, world.tracker_issue).labels
    finally:
        client.close()
    done = {a.operation for a in recorder.answers}
    assert done >= ACTIONS | LOOKUPS_OUTSIDE_THE_REPORT
    assert nonconforming(recorder.answers) == []


def test_the_chores_are_answered_as_github_answers_including_the_merges_github_refuses(sandbox):
    """Opening the validation issue, judging a release PR (reviews, checks, statuses, the branch's
    protection) and merging it: successes and the 409 (head moved), 405 (will not merge) and 422
    (unknown method) refusals all in GitHub's shapes."""
    recorder = Recorder().attach(sandbox.github)
    world = sandbox.world
    merges = world.truth["merges"]
    client = GitHubClient(sandbox.github_url, None, timeout=5)
    try:
        opened = client.create_issue(world.repository, "[v2.5.0] Release validation", "- [ ] #1 a fix")
        assert opened.title == "[v2.5.0] Release validation" and opened.state.is_open
        # the tracking issue: opened with its label, then its body edited (a box ticked), in GitHub's shapes
        labelled = client.create_issue(
            world.repository, "[v.2.5.0] Release Day Checklist", "- [ ] a step", labels=("release tracker",)
        )
        assert labelled.labels == ("release tracker",)
        assert client.edit_issue_body(world.repository, labelled.number, "- [x] a step").body == "- [x] a step"
        assert client.required_checks(world.repository, world.release_branch) == tuple(merges["required"])
        assert client.required_checks(world.repository, "main") is None  # not protected
        ready = client.pull(world.repository, merges["ready"])
        assert [r.state for r in client.pull_reviews(world.repository, ready.number)] == ["APPROVED"]
        assert client.commit_statuses(world.repository, ready.head_sha) == []
        assert {c.name for c in client.check_runs(world.repository, ready.head_sha)} >= set(merges["required"])
        with pytest.raises(GitHubError, match="409"):
            client.merge_pull(world.repository, ready.number, sha="0" * 40, method="squash")
        with pytest.raises(GitHubError, match="405"):
            client.merge_pull(
                world.repository,
                merges["blocked"],
                sha=client.pull(world.repository, merges["blocked"]).head_sha,
                method="squash",
            )
        with pytest.raises(GitHubError, match="422"):
            client.merge_pull(world.repository, ready.number, sha=ready.head_sha, method="octopus")
        merged = client.merge_pull(world.repository, ready.number, sha=ready.head_sha, method="squash")
        assert client.pull(world.repository, ready.number).merge_commit_sha == merged
        with pytest.raises(GitHubError, match="405"):  # merged already
            client.merge_pull(world.repository, ready.number, sha=ready.head_sha, method="squash")
    finally:
        client.close()
    done = {a.operation for a in recorder.answers}
    assert done >= CHORES
    assert {a.status for a in recorder.answers} >= {200, 201, 405, 409, 422}
    assert nonconforming([a for a in recorder.answers if a.status < 400 or a.status in (405, 409, 422)]) == []


def test_every_route_of_the_emulator_conforms_including_those_the_cockpit_does_not_use_yet():
    with GitHubEmulator(tiny_world()) as gh:
        run = 70_001
        answers = [
            fetch(gh.base_url, p)
            for p in (
                "/rate_limit",
                f"/repos/{REPO}/issues/comments/5001",
                f"/repos/{REPO}/actions/runs/{run}/jobs?per_page=2",
                f"/repos/{REPO}/actions/runs/{run}/jobs?per_page=2&page=3",
                f"/repos/{REPO}/issues?state=open",
                f"/repos/{REPO}/milestones/1",
                f"/repos/{REPO}/pulls/13",
                f"/repos/{REPO}/pulls/12",
            )
        ]
        answers.append(fetch(gh.base_url, f"/repos/{REPO}/issues/comments/5003", "DELETE"))
        answers.append(fetch(gh.base_url, f"/repos/{REPO}/issues/2", "PATCH", {"state": "closed"}))
        answers.append(fetch(gh.base_url, f"/repos/{REPO}/issues/1/labels/release%20tracker", "DELETE"))
        answers.append(fetch(gh.base_url, f"/repos/{REPO}/issues/1/labels/release%20tracker", "DELETE"))
    assert [a.status for a in answers] == [200] * 8 + [204, 200, 200, 404]
    assert json.loads(answers[-2].body) == []
    assert nonconforming(answers) == []


def odd_world():
    """GitHub's odd cases in one tiny world: a deleted author, a null comment body, an issue closed as
    not planned, a re-run workflow, a startup failure, and check runs with every conclusion."""
    world = tiny_world(check_jobs=9)
    repo = world.repos[REPO]
    repo.issues.append(
        SbIssue(
            4,
            "Crash on import (reporter deleted their account)",
            None,
            state="closed",
            milestone=1,
            created_at=T1,
            updated_at=T1,
            closed_at=T1,
            state_reason="not_planned",
        )
    )
    repo.comments.append(SbComment(5004, 1, None, None, created_at=T1, updated_at=T1))
    run = repo.workflow_runs[0]
    run.run_attempt = 3
    repo.workflow_runs.append(
        SbWorkflowRun(
            70_010, "docs", RELEASE_HEAD, BRANCH, conclusion="startup_failure", check_suite_id=70_110, created_at=T1
        )
    )
    conclusions = ["success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required", None]
    for k, conclusion in enumerate(conclusions):
        repo.check_runs.append(
            SbCheckRun(
                80_000 + k,
                f"odd / job ({conclusion})",
                RELEASE_HEAD,
                run.id,
                status="completed" if conclusion else "in_progress",
                conclusion=conclusion,
                started_at=T1,
                completed_at=T1 if conclusion else None,
            )
        )
    return world


def test_a_world_of_odd_cases_still_conforms_and_the_adapters_read_it():
    with GitHubEmulator(odd_world()) as gh:
        recorder = Recorder().attach(gh)
        client = GitHubClient(gh.base_url, None, timeout=5)
        try:
            items = {i.number: i for i in client.milestone_items(REPO, 1)}
            comments = client.issue_comments(REPO, 1)
            checks = client.check_runs(REPO, BRANCH)
            runs = client.workflow_runs(REPO, branch=BRANCH)
        finally:
            client.close()
    assert nonconforming(recorder.answers) == []
    assert items[4].author == "ghost" and items[4].state_reason == "not_planned"
    assert comments[-1].author == "ghost" and comments[-1].body == ""
    assert {c.conclusion for c in checks} >= {"action_required", "neutral", "skipped", "timed_out", "cancelled", None}
    assert {r.conclusion for r in runs} >= {"startup_failure"} and max(r.attempt for r in runs) == 3


def test_when_github_has_a_bad_minute_its_error_answers_are_what_github_sends(sandbox):
    gh = sandbox.github
    recorder = Recorder().attach(gh)
    gh.faults.status_burst(502, count=1, path=r"/issues\?")
    gh.faults.not_found(r"/pulls/\d+$")
    gh.faults.rate_limit(path=r"/check-runs", count=1)
    gh.faults.secondary_rate_limit(path=r"/actions/runs", count=1, retry_after=1)
    world = sandbox.world
    client = GitHubClient(sandbox.github_url, None, timeout=5, retries=1, max_rate_limit_wait=0)
    try:
        assert client.milestone_items(world.repository, world.milestone_number)  # one retry past the 502
        for read in (
            lambda: client.pull(world.repository, 1),
            lambda: client.check_runs(world.repository, BRANCH),
            lambda: client.workflow_runs(world.repository),
        ):
            with pytest.raises(GitHubError):
                read()
    finally:
        client.close()
    errors = [a for a in recorder.answers if a.status >= 400]
    assert {a.status for a in errors} >= {502, 404, 403}
    for a in errors:  # GitHub's error body, whatever the operation lists
        expected = "ValidationError" if a.status == 422 else "BasicError"
        assert violations(operation_for(a.method, a.path), a.status, a.body, expected) == [], a.path
        assert json.loads(a.body)["documentation_url"].startswith("https://docs.github.com/")
    assert nonconforming([a for a in recorder.answers if a.status < 400]) == []


def test_the_description_is_strict_where_it_matters():
    """The check itself: missing required fields, wrong types, null where GitHub never sends null,
    values outside an enum, and an incomplete user hidden in an ``anyOf [user, empty-object]``."""
    with GitHubEmulator(tiny_world()) as gh:
        commits = json.loads(fetch(gh.base_url, f"/repos/{REPO}/commits?sha=main").body)
        checks = json.loads(fetch(gh.base_url, f"/repos/{REPO}/commits/{RELEASE_HEAD}/check-runs?per_page=1").body)
    path = "/repos/o/r/commits"
    assert check_response("GET", path, 200, json.dumps(commits)) == []
    del commits[0]["commit"]["author"]
    commits[1]["author"] = {"login": "dev"}
    commits[2]["commit"]["comment_count"] = "0"
    problems = check_response("GET", path, 200, json.dumps(commits))
    assert any("[0].commit.author: Field required" in p for p in problems)
    assert any("[1].author.SimpleUser.id: Field required" in p for p in problems)
    assert any("[2].commit.comment_count" in p for p in problems)
    checks["check_runs"][0]["conclusion"] = "stale"  # GitHub sends it, but the description does not list it
    checks["check_runs"][0]["name"] = None
    problems = check_response("GET", "/repos/o/r/commits/main/check-runs", 200, json.dumps(checks))
    assert any("check_runs[0].conclusion" in p for p in problems)
    assert any("check_runs[0].name" in p for p in problems)


def test_the_issue_search_pages_like_github_and_refuses_a_qualifier_it_does_not_know():
    with GitHubEmulator(tiny_world()) as gh:
        query = f"q=repo:{REPO}+is:issue&per_page=2"
        first = fetch(gh.base_url, f"/search/issues?{query}&page=1")
        second = fetch(gh.base_url, f"/search/issues?{query}&page=2")
        unknown = fetch(gh.base_url, f"/search/issues?q=repo:{REPO}+author:dev")
        nowhere = fetch(gh.base_url, "/search/issues?q=repo:acme/nothing+tracker")
    assert nonconforming([first, second]) == []
    page = json.loads(first.body)
    assert [i["number"] for i in page["items"]] == [3, 2] and page["total_count"] == 3
    assert 'rel="next"' in first.headers["Link"] and 'rel="prev"' in second.headers["Link"]
    for refused in (unknown, nowhere):
        assert refused.status == 422
        assert violations(operation_for("GET", "/search/issues"), 422, refused.body, "ValidationError") == []


def test_the_evidence_repositories_answer_as_github_does(sandbox):
    """The contents API (a file, a file in a folder, a missing one), a workflow's runs by its file name and
    by its number, and a run's jobs: what the checklist's evidence steps read."""
    base = sandbox.github.base_url
    runs = fetch(base, "/repos/acme/test-infra/actions/workflows/validate-binaries.yml/runs?per_page=2")
    workflow_id = json.loads(runs.body)["workflow_runs"][0]["workflow_id"]
    run_id = json.loads(runs.body)["workflow_runs"][0]["id"]
    answers = [
        fetch(base, "/repos/acme/docs/contents/index.html?ref=site"),
        fetch(base, "/repos/acme/docs/contents/2.4/index.html?ref=site"),
        runs,
        fetch(base, f"/repos/acme/test-infra/actions/workflows/{workflow_id}/runs"),
        fetch(base, f"/repos/acme/test-infra/actions/runs/{run_id}/jobs?filter=latest"),
    ]
    missing = fetch(base, "/repos/acme/docs/contents/9.9/index.html?ref=site")
    no_workflow = fetch(base, "/repos/acme/test-infra/actions/workflows/nope.yml/runs")
    assert [a.status for a in answers] == [200] * 5 and nonconforming(answers) == []
    assert [missing.status, no_workflow.status] == [404, 404]
    for a in (missing, no_workflow):
        assert violations(operation_for(a.method, a.path), a.status, a.body, "BasicError") == [], a.path
    file = json.loads(answers[1].body)
    assert file["path"] == "2.4/index.html" and file["type"] == "file" and file["encoding"] == "base64"
    assert 'rel="next"' in runs.headers.get("Link", "")


def test_opening_a_pull_request_is_answered_as_github_answers():
    """``POST /repos/{owner}/{repo}/pulls`` (the revert PRs of issue 29): 201 with the PR in GitHub's shape, and
    the 422 GitHub sends for a second PR of the same head and base or a missing field."""
    opened = {"title": "[release/2.5] Revert X", "head": "rm:cherry-pick-revert-7-2.5", "base": "main", "body": "why"}
    with GitHubEmulator(tiny_world()) as gh:
        answers = [
            fetch(gh.base_url, f"/repos/{REPO}/pulls", "POST", opened),
            fetch(gh.base_url, f"/repos/{REPO}/pulls", "POST", opened),
            fetch(gh.base_url, f"/repos/{REPO}/pulls", "POST", {**opened, "title": ""}),
        ]
    assert [a.status for a in answers] == [201, 422, 422]
    assert json.loads(answers[0].body)["head"]["ref"] == "cherry-pick-revert-7-2.5"
    assert nonconforming(answers) == []
