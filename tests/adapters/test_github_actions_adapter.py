"""The GitHub Actions adapter against the sandbox's release day: read the form, start, watch, re-run, approve.

Every test runs the real adapter (httpx) against the GitHub emulator on 127.0.0.1; the few things the
emulator cannot play (a timeout, a log kept on another host) use an httpx mock transport.
"""

from __future__ import annotations

import time

import httpx
import pytest

from cockpit.adapters.github_actions import GitHubActions
from cockpit.errors import CockpitError, GitHubError, ReadOnlyError
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.world_release_day import TEST_INFRA, VERSIONS_PATH
from tests.release_day_world import release_day_world

RM = "rmarquez"  # a release manager the world names as a reviewer of promote-env
USERS = {"rm-token": RM, "passer-by-token": "passer-by"}  # the emulator knows whose token each is


@pytest.fixture
def sandbox():
    world = release_day_world()
    with GitHubEmulator(world, users=USERS) as gh:
        yield gh, world


def actions(gh, *, read_only=False, token="rm-token"):
    return GitHubActions(gh.base_url, token, read_only=read_only)


def posts(gh):
    return [e for e in gh.log() if e["method"] != "GET"]


def test_the_release_workflows_are_listed_by_the_names_github_gives_them(sandbox):
    gh, _ = sandbox
    workflows = {w.file_name: w for w in actions(gh).workflows(TEST_INFRA)}
    assert workflows["release-pypi.yml"].name == "Upload staged wheels to PyPI"
    assert workflows["release-pypi.yml"].path == ".github/workflows/release-pypi.yml"
    assert "validate-binaries.yml" in workflows


def test_the_form_comes_from_the_file_on_the_ref_it_will_run_on(sandbox):
    gh, _ = sandbox
    wf = actions(gh).workflow_file(TEST_INFRA, ".github/workflows/release-pypi.yml", "main")
    assert wf.dry_run_input is not None and wf.dry_run_input.default == "enabled"
    assert wf.dry_run_input.options == ("enabled", "disabled")
    package = wf.input("package")
    assert package is not None and "torchlet" in package.options
    assert wf.environments == ("pytorchbot-env",) and wf.sha


def test_a_changed_or_unreadable_workflow_file_gives_a_clear_message_and_no_stale_form(sandbox):
    gh, _world = sandbox
    client = actions(gh)
    before = client.workflow_file(TEST_INFRA, ".github/workflows/release-pypi.yml", "main")
    files = gh.repos[TEST_INFRA].repo.files["main"]
    files[".github/workflows/release-pypi.yml"] = files[".github/workflows/release-pypi.yml"].replace(
        "default: enabled", "default: &x enabled"
    )
    with pytest.raises(CockpitError) as caught:
        client.workflow_file(TEST_INFRA, ".github/workflows/release-pypi.yml", "main")
    assert "release-pypi.yml" in str(caught.value) and "line" in str(caught.value)
    files[".github/workflows/release-pypi.yml"] = files[".github/workflows/release-pypi.yml"].replace("&x ", "")
    files[".github/workflows/release-pypi.yml"] += "# edited\n"
    after = client.workflow_file(TEST_INFRA, ".github/workflows/release-pypi.yml", "main")
    assert after.sha != before.sha  # a form built from the old file can tell it is stale
    with pytest.raises(GitHubError) as missing:
        client.workflow_file(TEST_INFRA, ".github/workflows/release-pypi.yml", "no-such-branch")
    assert "404" in str(missing.value)


def test_the_versions_file_is_read_as_text_on_a_ref(sandbox):
    gh, world = sandbox
    text, sha = actions(gh).file_text(TEST_INFRA, VERSIONS_PATH, "main")
    assert world.truth["release_day"]["versions"]["variable"] in text and sha


def test_a_dispatch_with_run_details_is_one_post_and_names_its_run(sandbox):
    gh, _ = sandbox
    client = actions(gh)
    done = client.dispatch(TEST_INFRA, "release-pypi.yml", "main", {"dryrun": "enabled", "package": "torchlet"})
    assert done.known and done.html_url.endswith(f"/actions/runs/{done.run_id}")
    assert [e["path"] for e in posts(gh)] == [f"/repos/{TEST_INFRA}/actions/workflows/release-pypi.yml/dispatches"]
    run = client.run(TEST_INFRA, done.run_id)
    assert (run.event, run.head_branch, run.actor, run.conclusion) == ("workflow_dispatch", "main", RM, "success")


def test_after_an_older_204_the_run_is_found_by_event_ref_actor_and_time():
    with GitHubEmulator(release_day_world(run_details=False), users=USERS) as gh:
        client = actions(gh)
        done = client.dispatch(TEST_INFRA, "release-stage-pypi.yml", "main", {"package": "torchlet"})
        assert done.known and "found by looking" in done.note and f"by {RM}" in done.note  # the token's user
        assert client.run(TEST_INFRA, done.run_id).actor == RM
        assert len(posts(gh)) == 1


def test_two_runs_that_fit_a_204_dispatch_are_said_to_be_ambiguous_never_guessed():
    with GitHubEmulator(release_day_world(run_details=False), users=USERS) as gh:
        client = actions(gh)
        since = time.time()
        client.dispatch(TEST_INFRA, "release-stage-pypi.yml", "main", {}, actor=RM, since=since)
        client.dispatch(TEST_INFRA, "release-stage-pypi.yml", "main", {}, actor=RM, since=since)
        found = client.find_dispatched_run(TEST_INFRA, "release-stage-pypi.yml", "main", actor=RM, since=since)
        assert not found.known and len(found.candidates) == 2 and "ambiguous" in found.note
        later = client.find_dispatched_run(TEST_INFRA, "release-stage-pypi.yml", "main", actor=RM, since=since + 3600)
        assert not later.known and "yet" in later.note


def test_an_input_the_file_does_not_declare_is_refused_by_github_with_its_words(sandbox):
    gh, _ = sandbox
    with pytest.raises(GitHubError) as caught:
        actions(gh).dispatch(TEST_INFRA, "release-pypi.yml", "main", {"dryrun": "maybe"})
    assert "422" in str(caught.value) and "dryrun" in str(caught.value)


def test_the_failed_dry_run_shows_its_failed_job_steps_and_a_readable_log_tail(sandbox):
    gh, world = sandbox
    truth = world.truth["release_day"]
    client = actions(gh)
    runs = client.runs(TEST_INFRA, workflow="release-pypi.yml", event="workflow_dispatch", branch="main")
    failed = next(r for r in runs if r.id == truth["dry_run_failed"])
    assert failed.conclusion == "failure"
    jobs = client.jobs(TEST_INFRA, failed.id)
    bad = next(j for j in jobs if j.failed)
    assert bad.name == truth["failed_job"] and [s.conclusion for s in bad.steps][-1] == "failure"
    tail = client.job_log_tail(TEST_INFRA, bad.id, lines=4)
    assert len(tail) == 4 and truth["log_line"] in tail
    assert not any(line[:4].isdigit() and "T" in line[:12] for line in tail)  # GitHub's timestamps cut off


def test_rerunning_the_failed_jobs_makes_a_new_attempt(sandbox):
    gh, world = sandbox
    client = actions(gh)
    run_id = world.truth["release_day"]["dry_run_failed"]
    client.rerun_failed_jobs(TEST_INFRA, run_id)
    run = client.run(TEST_INFRA, run_id)
    assert (run.run_attempt, run.conclusion) == (2, "success")


def test_a_real_run_waits_for_approval_and_the_reviewer_approves_it_with_a_comment(sandbox):
    gh, world = sandbox
    client = actions(gh)
    run_id = world.truth["release_day"]["waiting_run"]
    assert client.run(TEST_INFRA, run_id).waiting
    (pending,) = client.pending_deployments(TEST_INFRA, run_id)
    assert pending.environment == "promote-env" and pending.current_user_can_approve and RM in pending.reviewers
    assert not actions(gh, token="passer-by-token").pending_deployments(TEST_INFRA, run_id)[0].current_user_can_approve
    deployed = client.review_deployments(TEST_INFRA, run_id, (pending.environment_id,), approve=True, comment="go")
    assert deployed == ("promote-env",)
    assert client.run(TEST_INFRA, run_id).conclusion == "success"


def test_a_dispatched_real_run_waits_and_a_rejection_fails_it(sandbox):
    gh, _ = sandbox
    client = actions(gh)
    done = client.dispatch(TEST_INFRA, "release-pypi.yml", "main", {"dryrun": "disabled", "package": "torchlet"})
    assert client.run(TEST_INFRA, done.run_id).waiting
    (pending,) = client.pending_deployments(TEST_INFRA, done.run_id)
    assert pending.environment == "pytorchbot-env"
    client.review_deployments(TEST_INFRA, done.run_id, (pending.environment_id,), approve=False, comment="not yet")
    assert client.run(TEST_INFRA, done.run_id).conclusion == "failure"


def test_cancel_stops_a_waiting_run_and_github_refuses_to_cancel_a_finished_one(sandbox):
    gh, world = sandbox
    client = actions(gh)
    client.cancel(TEST_INFRA, world.truth["release_day"]["waiting_run"])
    assert client.run(TEST_INFRA, world.truth["release_day"]["waiting_run"]).conclusion == "cancelled"
    with pytest.raises(GitHubError, match="409"):
        client.cancel(TEST_INFRA, world.truth["release_day"]["dry_run_failed"])


def test_read_only_refuses_every_change_with_its_reason_and_sends_nothing(sandbox):
    gh, world = sandbox
    client = actions(gh, read_only=True)
    run_id = world.truth["release_day"]["waiting_run"]
    for act in (
        lambda: client.dispatch(TEST_INFRA, "release-pypi.yml", "main", {}),
        lambda: client.rerun_failed_jobs(TEST_INFRA, run_id),
        lambda: client.cancel(TEST_INFRA, run_id),
        lambda: client.review_deployments(TEST_INFRA, run_id, (1,), approve=True, comment="ok"),
    ):
        with pytest.raises(ReadOnlyError, match="read-only"):
            act()
    assert posts(gh) == []
    assert client.pending_deployments(TEST_INFRA, run_id)  # reading stays allowed


def test_a_dispatch_that_times_out_says_it_may_have_happened_and_is_not_retried():
    sent = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.method)
        raise httpx.ReadTimeout("slow", request=request)

    client = GitHubActions("https://api.github.test", transport=httpx.MockTransport(answer))
    with pytest.raises(GitHubError, match="look before trying again"):
        client.dispatch("acme/test-infra", "release-pypi.yml", "main", {})
    assert sent == ["POST"]


def test_a_log_kept_on_another_host_is_fetched_without_the_token():
    seen = {}

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.host == "api.github.test":
            return httpx.Response(302, headers={"Location": "https://logs.blob.test/job/5?sig=abc"})
        seen["authorization"] = request.headers.get("authorization")
        return httpx.Response(200, text="2026-10-01T10:00:00.0000000Z one\n2026-10-01T10:00:01.0000000Z two\n")

    client = GitHubActions("https://api.github.test", "t0ken", transport=httpx.MockTransport(answer))
    assert client.job_log_tail("acme/test-infra", 5) == ("one", "two")
    assert seen["authorization"] is None
