"""The GitHub emulator speaks GitHub's wire format, counts what it is asked, and fails on demand."""

from __future__ import annotations

import time

import httpx
import pytest

from cockpit.sandbox.github_server import GitHubEmulator
from tests.fixtures_world import BRANCH, RELEASE_HEAD, REPO, tiny_world

API = f"/repos/{REPO}"


@pytest.fixture
def gh():
    with GitHubEmulator(tiny_world()) as emulator:
        yield emulator


@pytest.fixture
def client(gh):
    with httpx.Client(base_url=gh.base_url, timeout=5) as c:
        yield c


def test_milestone_items_page_30_at_a_time_with_githubs_link_header(gh, client):
    first = client.get(f"{API}/issues?milestone=1&state=all")
    assert first.status_code == 200 and len(first.json()) == 30
    base = f"{gh.base_url}{API}/issues?milestone=1&state=all"
    assert first.headers["Link"] == f'<{base}&page=2>; rel="next", <{base}&page=2>; rel="last"'
    second = client.get(f"{API}/issues?milestone=1&state=all&page=2")
    assert len(second.json()) == 8
    assert second.headers["Link"] == f'<{base}&page=1>; rel="prev", <{base}&page=1>; rel="first"'
    numbers = {i["number"] for i in first.json() + second.json()}
    assert len(numbers) == 38 and 20 not in numbers  # #20 is in the other milestone


def test_a_middle_page_links_all_four_ways(client, gh):
    page = client.get(f"{API}/issues?state=all&per_page=10&page=2")
    rels = [part.split("; ")[1] for part in page.headers["Link"].split(", ")]
    assert rels == ['rel="prev"', 'rel="next"', 'rel="last"', 'rel="first"']
    assert "per_page=10&page=4>" in page.headers["Link"]


def test_per_page_is_capped_at_100_and_one_page_has_no_link(client):
    everything = client.get(f"{API}/issues?milestone=1&state=all&per_page=500")
    assert len(everything.json()) == 38 and "Link" not in everything.headers


def test_issue_objects_of_prs_carry_pull_request_and_merged_at(client, gh):
    items = {i["number"]: i for i in client.get(f"{API}/issues?milestone=1&state=all&per_page=100").json()}
    merged, unmerged, issue = items[10], items[11], items[3]
    assert merged["pull_request"]["merged_at"] and merged["html_url"].endswith(f"{REPO}/pull/10")
    assert unmerged["state"] == "closed" and unmerged["pull_request"]["merged_at"] is None
    assert "pull_request" not in issue and issue["html_url"] == f"https://github.com/{REPO}/issues/3"
    assert issue["url"] == f"{gh.base_url}{API}/issues/3"
    assert items[1]["labels"][0]["name"] == "release tracker" and items[2]["assignees"][0]["login"] == "dev"
    assert merged["milestone"]["number"] == 1 and merged["user"]["login"] == "dev"


def test_milestones_by_state_and_a_closed_one_by_number(client):
    assert [m["title"] for m in client.get(f"{API}/milestones").json()] == ["2.5.0"]
    assert [m["title"] for m in client.get(f"{API}/milestones?state=all").json()] == ["2.5.0", "2.4.1"]
    closed = client.get(f"{API}/milestones/2").json()
    assert closed["state"] == "closed" and closed["closed_issues"] == 1


def test_repeated_get_with_etag_is_a_304_that_costs_no_rate_limit_unit(client):
    first = client.get(f"{API}/issues/2")
    used = int(first.headers["X-RateLimit-Used"])
    assert first.headers["ETag"].startswith('W/"')
    again = client.get(f"{API}/issues/2", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert int(again.headers["X-RateLimit-Used"]) == used
    assert again.headers["X-RateLimit-Remaining"] == first.headers["X-RateLimit-Remaining"]


def test_every_answer_carries_rate_limit_headers_and_json_content_type(client):
    response = client.get(f"{API}/pulls/10")
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert response.headers["X-RateLimit-Limit"] == "5000"
    assert response.headers["X-RateLimit-Resource"] == "core"
    assert int(response.headers["X-RateLimit-Reset"]) > time.time()
    assert response.json()["base"]["ref"] == "main" and response.json()["merged"] is True
    head = client.head(f"{API}/pulls/10")
    assert head.status_code == 200 and head.content == b"" and head.headers["ETag"] == response.headers["ETag"]


def test_an_exhausted_budget_answers_403_like_github():
    with GitHubEmulator(tiny_world(), rate_limit=2) as gh, httpx.Client(base_url=gh.base_url) as c:
        assert c.get(API).status_code == 200 and c.get(API).status_code == 200
        refused = c.get(API)
        assert refused.status_code == 403 and refused.headers["X-RateLimit-Remaining"] == "0"
        assert refused.json()["message"].startswith("API rate limit exceeded")
        assert c.get("/rate_limit").json()["rate"]["remaining"] == 0


def test_check_runs_of_a_release_branch_with_an_encoded_slash_page_by_100(client):
    url = f"{API}/commits/release%2F2.5/check-runs?filter=latest&per_page=100"
    first = client.get(url).json()
    assert first["total_count"] == 130 and len(first["check_runs"]) == 100
    run = first["check_runs"][0]
    assert run["head_sha"] == RELEASE_HEAD and run["check_suite"]["id"] and run["details_url"]
    second = client.get(url + "&page=2").json()
    assert len(second["check_runs"]) == 30
    assert client.get(f"{API}/commits/v2.5.0-rc1/check-runs").json()["total_count"] == 0
    assert client.get(f"{API}/commits/nope/check-runs").status_code == 422


def test_workflow_runs_jobs_and_rerun_failed_jobs(client):
    runs = client.get(f"{API}/actions/runs?head_sha={RELEASE_HEAD}&event=push").json()
    assert runs["total_count"] == 3
    trunk = next(r for r in runs["workflow_runs"] if r["name"] == "trunk")
    assert trunk["conclusion"] == "failure" and trunk["check_suite_id"]
    rerun = client.post(f"{API}/actions/runs/{trunk['id']}/rerun-failed-jobs")
    assert rerun.status_code == 201 and rerun.json() == {}  # GitHub answers an empty object
    jobs = client.get(f"{API}/actions/runs/{trunk['id']}/jobs?filter=latest").json()["jobs"]
    assert sum(j["status"] == "queued" for j in jobs) == 2
    assert client.get(f"{API}/actions/runs?branch={BRANCH}&status=queued").json()["total_count"] == 1


def test_comments_are_posted_edited_and_deleted(client):
    posted = client.post(f"{API}/issues/1/comments", json={"body": "@pytorchbot cherry-pick --onto release/2.5"})
    assert posted.status_code == 201 and posted.headers["Location"] == posted.json()["url"]
    comment_id = posted.json()["id"]
    bodies = [c["body"] for c in client.get(f"{API}/issues/1/comments").json()]
    assert bodies[-1].startswith("@pytorchbot")
    edited = client.patch(f"{API}/issues/comments/{comment_id}", json={"body": "merged"})
    assert edited.json()["body"] == "merged"
    assert client.delete(f"{API}/issues/comments/{comment_id}").status_code == 204
    assert client.get(f"{API}/issues/comments/{comment_id}").status_code == 404
    assert client.post(f"{API}/issues/1/comments", json={}).status_code == 422


def test_removing_an_item_from_the_milestone(client):
    assert client.patch(f"{API}/issues/2", json={"milestone": None}).json()["milestone"] is None
    numbers = {i["number"] for i in client.get(f"{API}/issues?milestone=1&state=all&per_page=100").json()}
    assert 2 not in numbers
    invalid = client.patch(f"{API}/issues/2", json={"milestone": 99})
    assert invalid.status_code == 422 and invalid.json()["message"] == "Validation Failed"


def test_commits_of_a_branch_come_from_its_history(client):
    shas = [c["sha"] for c in client.get(f"{API}/commits?sha={BRANCH}&per_page=2").json()]
    assert shas[0] == RELEASE_HEAD and len(shas) == 2


def test_unknown_paths_answer_githubs_json_404(client):
    for path in ("/nope", "/repos/acme/missing", f"{API}/issues/9999"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["message"] == "Not Found" and "documentation_url" in response.json()


def test_the_log_records_each_request_with_its_query_but_not_control_calls(client, gh):
    client.get(f"{API}/issues?milestone=1&state=all")
    client.get("/nope")
    log = client.get("/_sandbox/log").json()
    assert [(e["method"], e["path"], e["status"]) for e in log] == [
        ("GET", f"{API}/issues?milestone=1&state=all", 200),
        ("GET", "/nope", 404),
    ]
    assert gh.log() == log and all(isinstance(e["time"], float) for e in log)


def test_a_5xx_burst_hits_the_matching_path_count_times(client, gh):
    gh.faults.status_burst(503, count=2, path=r"/pulls/")
    assert client.get(f"{API}/issues/1").status_code == 200
    statuses = [client.get(f"{API}/pulls/10").status_code for _ in range(3)]
    assert statuses == [503, 503, 200]


def test_rate_limit_faults_primary_and_secondary(client, gh):
    gh.faults.rate_limit(count=1, reset_in=600)
    primary = client.get(API)
    assert primary.status_code == 403 and primary.headers["X-RateLimit-Remaining"] == "0"
    assert 500 < int(primary.headers["X-RateLimit-Reset"]) - time.time() <= 601  # room for a busy machine
    gh.faults.secondary_rate_limit(status=429, retry_after=7, count=1)
    secondary = client.get(API)
    assert secondary.status_code == 429 and secondary.headers["Retry-After"] == "7"
    assert "secondary rate limit" in secondary.json()["message"]
    assert client.get(API).status_code == 200


def test_malformed_body_not_found_and_latency_faults(client, gh):
    gh.faults.malformed(count=1)
    with pytest.raises(ValueError):
        client.get(API).json()
    gh.faults.not_found(r"/pulls/10$")
    assert client.get(f"{API}/pulls/10").status_code == 404
    assert client.get(f"{API}/pulls/11").status_code == 200
    gh.faults.clear()
    gh.faults.latency(0.2, count=1)
    assert client.get(API).status_code == 200
    assert gh.faults.armed() == [], "the latency fault was spent on that request"


def test_a_timeout_fault_outlasts_the_clients_timeout(client, gh):
    gh.faults.timeout(5, count=1)
    with pytest.raises(httpx.TimeoutException):
        client.get(API, timeout=0.2)
    assert client.get(API).status_code == 200


def test_faults_are_armed_and_cleared_over_http(client, gh):
    armed = client.post("/_sandbox/faults", json=[{"kind": "status", "status": 502, "count": 1, "path": "/rate_limit"}])
    assert armed.status_code == 201 and gh.faults.armed()[0]["status"] == 502
    assert client.get("/rate_limit").status_code == 502
    client.post("/_sandbox/faults", json={"kind": "not_found"})
    assert client.delete("/_sandbox/faults").status_code == 204
    assert client.get("/rate_limit").status_code == 200
    assert client.post("/_sandbox/faults", json={"kind": "meteor"}).status_code == 422


def test_a_token_other_than_the_worlds_gets_401():
    with GitHubEmulator(tiny_world(), token="s3cret") as gh, httpx.Client(base_url=gh.base_url) as c:
        assert c.get(API, headers={"Authorization": "token nope"}).status_code == 401
        assert c.get(API, headers={"Authorization": "token s3cret"}).status_code == 200


def test_an_emulator_changes_a_copy_of_its_world_unless_the_world_is_its_own():
    world = tiny_world()
    shared = GitHubEmulator(world)
    owned = GitHubEmulator(world, owned=True)
    name = next(iter(world.repos))
    assert shared.repos[name.lower()].repo is not world.repos[name]  # a test's world is shared: copied
    assert owned.repos[name.lower()].repo is world.repos[name]  # cockpit demo's, just loaded: used as is


def test_a_client_that_resets_its_connection_prints_nothing(capfd):
    """cockpit demo serves from the app's own process: a traceback on stderr would land on the
    screen. A keep-alive connection reset by the client (a retrying or quitting client does it)
    used to make socketserver print one."""
    import socket
    import struct

    with GitHubEmulator(tiny_world()) as gh:
        host, port = gh.base_url.removeprefix("http://").split(":")
        for _ in range(3):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(f"GET {API}/milestones HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()  # RST while the emulator waits for the next request on this connection
        time.sleep(0.3)
    assert "Traceback" not in capfd.readouterr().err
