"""Release day's Actions answers from the emulator are GitHub's: each validates against the published REST
description (API version 2022-11-28), recorded while the real adapter reads, starts, watches, re-runs,
cancels and approves (the machinery is ``test_github_conformance``'s).

Three kinds of answer are checked by hand, and why: the pinned description's dispatch operation
predates its 200 answer, so that body is checked against the description's own
``WorkflowDispatchResponse`` model; it lists no error answer for a dispatch either, though GitHub
answers 404 and 422 there, so those are checked as the description's ``BasicError``; a job log is a
302 whose ``Location`` is the download (the description gives it no body).
"""

from __future__ import annotations

import pytest

from cockpit.adapters.github_actions import GitHubActions
from cockpit.errors import GitHubError
from cockpit.sandbox.github_actions_routes import LOG_ROUTE
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.world_release_day import TEST_INFRA, VERSIONS_PATH
from tests.github_description import operation_for, violations
from tests.release_day_world import release_day_world
from tests.sandbox.test_github_conformance import Recorder, nonconforming

pytestmark = pytest.mark.slow
USERS = {"rm-token": "rmarquez"}


def _walk_release_day(client: GitHubActions, truth: dict) -> None:
    client.workflows(TEST_INFRA)
    client.workflow_file(TEST_INFRA, ".github/workflows/release-download-site.yml", "main")
    client.file_text(TEST_INFRA, VERSIONS_PATH, "main")
    client.runs(TEST_INFRA, workflow="release-pypi.yml", event="workflow_dispatch", branch="main")
    client.runs(TEST_INFRA, workflow="validate-binaries.yml")
    failed = truth["dry_run_failed"]
    for job in client.jobs(TEST_INFRA, failed):
        client.job_log_tail(TEST_INFRA, job.id)
    client.rerun_failed_jobs(TEST_INFRA, failed)
    client.run(TEST_INFRA, failed)
    waiting = truth["waiting_run"]
    (pending,) = client.pending_deployments(TEST_INFRA, waiting)
    client.review_deployments(TEST_INFRA, waiting, (pending.environment_id,), approve=True, comment="promote")
    done = client.dispatch(TEST_INFRA, "release-pypi.yml", "main", {"dryrun": "disabled", "package": "torchlet"})
    assert done.run_id is not None
    (pending,) = client.pending_deployments(TEST_INFRA, done.run_id)
    client.review_deployments(TEST_INFRA, done.run_id, (pending.environment_id,), approve=False, comment="not yet")
    again = client.dispatch(TEST_INFRA, "release-download-site.yml", "main", {"dryrun": "disabled"})
    assert again.run_id is not None
    client.cancel(TEST_INFRA, again.run_id)
    for refused in (
        lambda: client.cancel(TEST_INFRA, failed),
        lambda: client.dispatch(TEST_INFRA, "release-pypi.yml", "main", {"colour": "blue"}),
        lambda: client.dispatch(TEST_INFRA, "no-such.yml", "main", {}),
    ):
        with pytest.raises(GitHubError):
            refused()


def _checked_by_hand(answers) -> list:
    rest = []
    for a in answers:
        if a.path.startswith(LOG_ROUTE):
            continue  # the log's download, outside the API
        if a.method == "GET" and a.path.split("?")[0].endswith("/logs"):
            assert a.status == 302 and a.headers["Location"].startswith("http"), a
            continue
        if a.method == "POST" and a.path.endswith("/dispatches") and a.status == 200:
            op = operation_for(a.method, a.path)
            assert violations(op, 200, a.body, expression="WorkflowDispatchResponse") == []
            continue
        if a.method == "POST" and a.path.endswith("/dispatches") and a.status >= 400:
            op = operation_for(a.method, a.path)  # GitHub answers 404/422 here; the description lists no error
            assert violations(op, a.status, a.body, expression="BasicError") == []
            continue
        rest.append(a)
    return rest


def test_every_release_day_answer_validates_against_githubs_description():
    world = release_day_world()
    with GitHubEmulator(world, users=USERS) as gh:
        recorder = Recorder().attach(gh)
        _walk_release_day(GitHubActions(gh.base_url, "rm-token"), world.truth["release_day"])
    answers = _checked_by_hand(recorder.answers)
    assert {a.operation for a in recorder.answers if not a.path.startswith(LOG_ROUTE)} >= {
        "actions/list-repo-workflows",
        "actions/create-workflow-dispatch",
        "actions/list-workflow-runs",
        "actions/get-workflow-run",
        "actions/list-jobs-for-workflow-run",
        "actions/re-run-workflow-failed-jobs",
        "actions/cancel-workflow-run",
        "actions/get-pending-deployments-for-run",
        "actions/review-pending-deployments-for-run",
        "repos/get-content",
        "actions/download-job-logs-for-workflow-run",
    }
    assert nonconforming(answers) == []


def test_the_older_204_dispatch_answer_validates_too():
    world = release_day_world(run_details=False)
    with GitHubEmulator(world, users=USERS) as gh:
        recorder = Recorder().attach(gh)
        GitHubActions(gh.base_url, "rm-token").dispatch(TEST_INFRA, "release-stage-pypi.yml", "main", {})
    statuses = [a.status for a in recorder.answers if a.path.endswith("/dispatches")]
    assert statuses == [204]
    assert nonconforming(recorder.answers) == []
