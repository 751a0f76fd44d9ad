"""The GitHub adapter against the emulator: what the release manager's panes read, and how it fails."""

from __future__ import annotations

import logging
import time

import pytest

from cockpit.adapters.github import GitHubClient
from cockpit.domain.github import ItemKind, ItemState, PullState
from cockpit.errors import GitHubError, RateLimited, ReadOnlyError
from cockpit.sandbox.github_server import GitHubEmulator
from tests.fixtures_world import BRANCH, CHECK_JOBS, RELEASE_HEAD, REPO, tiny_world

TOKEN = "ghp_s3cretT0kenForTests"


@pytest.fixture
def gh():
    with GitHubEmulator(tiny_world(), token=TOKEN) as emulator:
        yield emulator


@pytest.fixture
def client(gh):
    c = GitHubClient(gh.base_url, TOKEN, timeout=2)
    yield c
    c.close()


def paths(gh, method="GET"):
    return [e["path"] for e in gh.log() if e["method"] == method]


def test_milestone_items_in_one_request_with_merged_and_closed_unmerged_prs(client, gh):
    items = {i.number: i for i in client.milestone_items(REPO, 1)}
    assert len(items) == 38 and len(gh.log()) == 1 and client.request_count == 1
    assert "per_page=100" in gh.log()[0]["path"]
    assert items[10].kind is ItemKind.PULL and items[10].state is ItemState.MERGED
    assert items[11].state is ItemState.CLOSED_UNMERGED
    assert items[12].state is ItemState.OPEN
    assert items[3].kind is ItemKind.ISSUE and items[3].state is ItemState.CLOSED
    assert items[1].labels == ("release tracker",) and items[2].assignees == ("dev",)
    assert items[15].labels == ("release-feature-request",)
    assert items[10].html_url == f"https://github.com/{REPO}/pull/10" and items[10].linked_prs == (2,)


def test_a_closed_milestone_is_found_by_its_title(client):
    milestone = client.milestone(REPO, "2.4.1")
    assert (milestone.number, milestone.state, milestone.closed_items) == (2, "closed", 1)
    assert client.milestone(REPO, 1).title == "2.5.0"
    with pytest.raises(GitHubError, match=r"no milestone titled '9\.9\.9'.*'2\.5\.0'"):
        client.milestone(REPO, "9.9.9")


def test_tracker_comments_are_read_posted_and_edited(client):
    comments = client.issue_comments(REPO, 1)
    assert [c.id for c in comments] == [5001, 5002, 5003]
    assert "pull/13" in comments[0].body and comments[1].edited and not comments[0].edited
    posted = client.create_comment(REPO, 1, "Validated for 2.5.0")
    assert posted.body == "Validated for 2.5.0" and posted.html_url.endswith(f"#issuecomment-{posted.id}")
    edited = client.edit_comment(REPO, posted.id, "Validated for 2.5.0 (rc2)")
    assert edited.body.endswith("(rc2)")
    assert client.issue_comments(REPO, 1)[-1].body.endswith("(rc2)")


def test_pulls_aimed_at_the_release_branch(client):
    pulls = {p.number: p for p in client.pulls(REPO, base=BRANCH)}
    assert set(pulls) == {13, 14}
    assert pulls[13].state is PullState.MERGED and pulls[14].state is PullState.OPEN
    assert pulls[13].base_ref == BRANCH and pulls[13].repository == REPO
    closed = client.pull(REPO, 11)
    assert closed.state is PullState.CLOSED_UNMERGED and closed.merge_commit_sha is None


def test_check_runs_past_100_are_paged_and_joined_with_their_workflows(client, gh):
    runs = client.check_runs(REPO, BRANCH)
    assert len(runs) == CHECK_JOBS and len({r.id for r in runs}) == CHECK_JOBS
    assert {r.workflow for r in runs} == {"pull", "trunk", "lint"}
    failed = [r for r in runs if r.conclusion == "failure"]
    assert len(failed) == 2 and {r.workflow for r in failed} == {"trunk"}
    assert all(r.run_id and r.head_sha == RELEASE_HEAD for r in runs)
    asked = paths(gh)
    assert sum("/commits/release%2F2.5/check-runs" in p for p in asked) == 2
    assert sum("/actions/runs?" in p and f"head_sha={RELEASE_HEAD}" in p for p in asked) == 1
    assert len(asked) == 3


def test_a_refresh_with_nothing_changed_is_answered_by_304s(client, gh):
    client.milestone_items(REPO, 1)
    remaining = client.rate_limit.remaining
    again = client.milestone_items(REPO, 1)
    assert len(again) == 38
    assert [e["status"] for e in gh.log()] == [200, 304]
    assert client.rate_limit.remaining == remaining and client.request_count == 2


def test_a_change_is_seen_through_the_etag_cache(client):
    client.milestone_items(REPO, 1)
    client.set_milestone(REPO, 2, None)
    assert 2 not in {i.number for i in client.milestone_items(REPO, 1)}


def test_read_only_refuses_every_mutation_before_sending_anything(gh):
    viewer = GitHubClient(gh.base_url, TOKEN, read_only=True)
    for mutate in (
        lambda: viewer.create_comment(REPO, 1, "hello"),
        lambda: viewer.edit_comment(REPO, 5001, "edited"),
        lambda: viewer.set_milestone(REPO, 2, None),
        lambda: viewer.rerun_failed_jobs(REPO, 70_001),
        lambda: viewer._t.request("POST", f"/repos/{REPO}/issues/1/comments", "comment", body={"body": "x"}),
        lambda: viewer._t.http.post(f"{gh.base_url}/repos/{REPO}/issues/1/comments", json={"body": "x"}),
    ):
        with pytest.raises(ReadOnlyError):
            mutate()
    assert gh.log() == [] and viewer.request_count == 0
    assert viewer.issue(REPO, 2).title  # reading still works
    assert [e["method"] for e in gh.log()] == ["GET"]


def test_mutations_reach_github(client, gh):
    client.set_milestone(REPO, 3, 2)
    assert client.issue(REPO, 3).number == 3 and 3 in {i.number for i in client.milestone_items(REPO, 2)}
    trunk = next(r for r in client.workflow_runs(REPO, head_sha=RELEASE_HEAD) if r.name == "trunk")
    client.rerun_failed_jobs(REPO, trunk.id)
    assert [e["status"] for e in gh.log() if e["method"] == "POST"] == [201]
    assert sum(r.status == "queued" for r in client.check_runs(REPO, BRANCH)) == 2


def test_a_5xx_burst_is_recovered_by_retry(client, gh):
    gh.faults.status_burst(502, count=2, path="/pulls/10")
    assert client.pull(REPO, 10).state is PullState.MERGED
    assert [e["status"] for e in gh.log()] == [502, 502, 200]
    assert client.request_count == 3


def test_a_lasting_outage_is_a_github_error_naming_the_status(gh):
    client = GitHubClient(gh.base_url, TOKEN, retries=2)
    gh.faults.status_burst(503, count=None, path="/pulls/10")
    with pytest.raises(GitHubError, match=r"read pull request #10 of acme/torchlet: GitHub failed \(503"):
        client.pull(REPO, 10)
    assert [e["status"] for e in gh.log()] == [503, 503, 503]


def test_a_malformed_body_is_a_github_error(client, gh):
    gh.faults.malformed(count=1, path="/milestones")
    with pytest.raises(GitHubError, match="not valid JSON"):
        client.milestone(REPO, "2.4.1")


def test_a_rate_limit_raises_quickly_instead_of_sleeping_an_hour(client, gh):
    gh.faults.rate_limit(reset_in=3600, count=5)
    started = time.monotonic()
    with pytest.raises(RateLimited) as caught:
        client.milestone_items(REPO, 1)
    assert time.monotonic() - started < 30  # it would sleep an hour; 30 s is room for a busy machine
    assert caught.value.reset_at and caught.value.reset_at > time.time() + 3000
    gh.faults.clear()
    gh.faults.secondary_rate_limit(status=429, retry_after=600, count=5)
    started = time.monotonic()
    with pytest.raises(RateLimited, match="rate limit"):
        client.pull(REPO, 10)
    assert time.monotonic() - started < 30  # it would sleep an hour; 30 s is room for a busy machine


def test_a_short_secondary_limit_is_waited_out(client, gh):
    gh.faults.secondary_rate_limit(status=403, retry_after=1, count=1)
    assert client.pull(REPO, 10).number == 10
    assert [e["status"] for e in gh.log()] == [403, 200]


def test_a_timeout_is_a_github_error_that_says_so(gh):
    impatient = GitHubClient(gh.base_url, TOKEN, timeout=0.3, retries=1)
    gh.faults.timeout(5, count=None)
    with pytest.raises(GitHubError, match=r"did not answer within 0\.3 s"):
        impatient.pull(REPO, 10)


def test_the_token_never_appears_in_errors_or_on_stderr(gh, capfd, caplog):
    caplog.set_level(logging.DEBUG)
    wrong = GitHubClient(gh.base_url, "ghp_wrongTokenThatMustNotLeak", timeout=0.5, retries=1)
    with pytest.raises(GitHubError) as bad_token:
        wrong.pull(REPO, 10)
    assert "401" in str(bad_token.value) and "ghp_wrong" not in str(bad_token.value)
    right = GitHubClient(gh.base_url, TOKEN, timeout=0.5, retries=1)
    gh.faults.status_burst(502, count=1)
    right.pull(REPO, 10)
    errors = []
    for fault in (
        lambda: gh.faults.rate_limit(count=3),
        lambda: gh.faults.timeout(3, count=3),
        lambda: gh.faults.not_found("/pulls/"),
    ):
        gh.faults.clear()
        fault()
        with pytest.raises(GitHubError) as caught:
            right.pull(REPO, 10)
        errors.append(caught.value)
    assert all(TOKEN not in f"{e} {e!r} {e.args}" for e in errors)
    out, err = capfd.readouterr()
    assert err == "" and TOKEN not in out and TOKEN not in caplog.text


def test_missing_repositories_and_bad_names(client):
    assert client.repository_exists(REPO) and not client.repository_exists("acme/missing")
    with pytest.raises(GitHubError, match="not found \\(404\\)"):
        client.issue(REPO, 9999)
    with pytest.raises(GitHubError, match="'owner/name'"):
        client.pulls("not a repo")


def test_branch_commits_and_workflow_runs_of_the_release_branch(client):
    assert client.branch_commits(REPO, BRANCH, 2)[0] == RELEASE_HEAD
    runs = client.workflow_runs(REPO, branch=BRANCH, event="push")
    assert {r.name for r in runs} == {"pull", "trunk", "lint"} and all(r.check_suite_id for r in runs)
    assert client.check_runs(REPO, "v2.5.0-rc1") == []


def test_every_milestone_open_and_closed_and_the_issues_carrying_a_label(client, gh):
    every = [(m.number, m.title, m.state) for m in client.milestones(REPO)]
    assert every == [(1, "2.5.0", "open"), (2, "2.4.1", "closed")]
    assert [m.number for m in client.milestones(REPO, state="open")] == [1]
    labelled = client.issues(REPO, labels="release tracker")
    assert [(i.number, i.title) for i in labelled] == [(1, "[v2.5.0] Release Tracker")]
    assert "labels=release+tracker" in paths(gh)[-1] and "state=all" in paths(gh)[-1]
    assert [i.number for i in client.issues(REPO, limit=3)] == [128, 127, 126], "newest first"


def test_the_issue_search_finds_a_tracker_by_its_title_only_in_the_repository(client, gh):
    found = client.search_issues(REPO, '"release tracker" in:title is:issue')
    assert [(i.number, i.kind) for i in found] == [(1, ItemKind.ISSUE)]
    assert paths(gh)[-1].startswith("/search/issues?") and "repo%3Aacme%2Ftorchlet" in paths(gh)[-1]
    assert client.search_issues(REPO, '"release tracker" is:pr') == []
    with pytest.raises(GitHubError, match=r"search the issues of acme/torchlet.*422"):
        client.search_issues(REPO, "author:dev")


def test_a_comment_is_never_posted_twice_by_a_retry(client, gh):
    gh.faults.status_burst(502, count=1, path="/issues/1/comments")
    with pytest.raises(GitHubError, match=r"comment on #1 in acme/torchlet: GitHub failed \(502"):
        client.create_comment(REPO, 1, "Validated for 2.5.0")
    assert [(e["method"], e["status"]) for e in gh.log()] == [("POST", 502)] and client.request_count == 1


def test_an_edit_is_retried_like_a_read(client, gh):
    gh.faults.status_burst(503, count=1, path="/issues/comments/5001")
    assert client.edit_comment(REPO, 5001, "edited").body == "edited"
    assert [(e["method"], e["status"]) for e in gh.log()] == [("PATCH", 503), ("PATCH", 200)]


def test_no_server_at_the_api_url_is_a_github_error_that_says_so():
    nowhere = GitHubClient("http://127.0.0.1:9", TOKEN, timeout=2, retries=1)
    with pytest.raises(
        GitHubError, match=r"read pull request #10 of acme/torchlet: cannot reach http://127\.0\.0\.1:9"
    ):
        nowhere.pull(REPO, 10)
    assert nowhere.request_count == 2  # the first attempt and its retry: nothing was sent, so both are safe
    nowhere.close()


def test_a_primary_limit_that_resets_within_the_wait_is_waited_out(client, gh):
    gh.faults.rate_limit(reset_in=1, count=1, path="/pulls/10")
    assert client.pull(REPO, 10).number == 10
    assert [e["status"] for e in gh.log()] == [403, 200] and client.request_count == 2


def test_the_workflow_list_names_each_workflow_as_github_spells_it(client, gh):
    names = client.workflow_names(REPO)
    assert set(names) >= {"pull", "trunk", "lint"}, "the tiny world's own spelling, kept as GitHub sends it"
    assert [p for p in paths(gh) if "/actions/workflows" in p] == [f"/repos/{REPO}/actions/workflows?per_page=100"]
