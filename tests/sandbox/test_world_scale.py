"""A release the size of PyTorch's: the generator builds the sizes asked for, the emulator pages them
as GitHub does, and the default world stays what it was. (The panes at that size are measured by
``tests/benchmarks/bench_panes.py``, outside the suite.)"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from cockpit.adapters.github import GitHubClient
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.world import build_world, save_world
from cockpit.sandbox.world_scale import SCALES, sizes

SIZES = {"milestone_items": 150, "tracker_comments": 600, "ci_repositories": 5, "jobs_per_run": 300}


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    return build_world(tmp_path_factory.mktemp("big"), seed=7, trunk_commits=400, **SIZES)


def test_a_pytorch_sized_world_has_the_sizes_asked_for(big):
    got = sizes(big)
    assert got["tracker comments"] == 600
    assert got["milestone items"] == 150
    evidence = {"acme/test-infra", "acme/docs", "acme/torchlet.github.io", "acme/colab-requests"}
    evidence.add("pytorch/test-infra")  # the build matrix generator (world_matrix)
    assert got["CI repositories"] == 5 and len(set(big.repos) - evidence) == 5
    assert got["jobs in the largest run"] >= 300
    for name in big.ci_repositories:
        per_run: dict[int, int] = {}
        for check in big.repos[name].check_runs:
            per_run[check.run_id] = per_run.get(check.run_id, 0) + 1
        pull_runs = [r.id for r in big.repos[name].workflow_runs if r.name in ("pull", "trunk")]
        assert pull_runs and all(per_run[r] >= 300 for r in pull_runs), name
    assert len(big.truth["picks"]) == 600


def test_the_emulator_pages_a_600_comment_tracker_in_six_requests_and_a_refresh_costs_only_304s(big):
    with GitHubEmulator(big) as gh:
        client = GitHubClient(gh.base_url, None, timeout=10, retries=0)
        try:
            comments = client.issue_comments(big.repository, big.tracker_issue)
            items = client.milestone_items(big.repository, big.milestone_number)
            head = big.repos[big.repository].branches[big.release_branch]
            runs = client.check_runs(big.repository, head)
            cold = gh.log()
            gh.request_log.clear()
            client.issue_comments(big.repository, big.tracker_issue)
            refresh = gh.log()
        finally:
            client.close()
    assert len(comments) == 600 and len({c.id for c in comments}) == 600
    assert [c.id for c in comments] == sorted(c.id for c in comments)
    assert len(items) == 150
    at_head = [c for c in big.repos[big.repository].check_runs if c.head_sha == head]
    assert len(runs) == len(at_head) > 600
    comment_pages = [e for e in cold if f"/issues/{big.tracker_issue}/comments" in e["path"]]
    item_pages = [e for e in cold if "/issues?" in e["path"]]
    check_pages = [e for e in cold if "/check-runs" in e["path"]]
    assert len(comment_pages) == 6 and len(item_pages) == 2
    assert len(check_pages) == -(-len(at_head) // 100)
    assert all(e["status"] == 200 for e in cold)
    assert len(refresh) == 6 and {e["status"] for e in refresh} == {304}


def test_the_requests_and_replies_of_the_crowd_read_as_planted(big):
    """Every added comment is either a request the parser reads as planted or chatter nobody
    mistakes for one."""
    from cockpit.domain.github import IssueComment
    from cockpit.services.pick_parser import parse_requests
    from cockpit.services.pick_rows import looks_like_request

    def as_planted(refs) -> list:
        return sorted(((r.number if r.repository in ("", big.repository) else r.label()) for r in refs), key=str)

    core = big.repos[big.repository]
    comments = [IssueComment(c.id, c.author, c.body) for c in core.comments if c.issue_number == big.tracker_issue]
    for request in parse_requests(comments, repository=big.repository):
        planted = big.truth["picks"][str(request.comment_id)]
        assert request.parsed == planted["parsed"], request.body
        if planted["parsed"]:
            assert as_planted(request.trunk_prs) == sorted(planted["trunk_prs"], key=str)
            assert as_planted(request.release_prs) == sorted(planted["release_prs"], key=str)
        elif planted["status"] == "unparsed" and planted["flags"] == ["unparsed"]:
            assert not looks_like_request(request) or "Criteria Category" in request.body, request.body


def test_the_demo_scale_is_the_default_world_byte_for_byte(tmp_path):
    defaults = {
        name: p.default
        for name, p in inspect.signature(build_world).parameters.items()
        if name in SCALES["demo"].world_args()
    }
    assert SCALES["demo"].world_args() == defaults
    documents = []
    for k, args in enumerate(({}, {**SCALES["demo"].world_args(), "trunk_commits": 300})):
        world = build_world(
            tmp_path / str(k), seed=11, trunk_commits=300, **{a: v for a, v in args.items() if a != "trunk_commits"}
        )
        world.clone_path = world.remote_path = ""
        save_world(world, tmp_path / f"{k}.json")
        documents.append(Path(tmp_path / f"{k}.json").read_bytes())
    assert documents[0] == documents[1]
    # the CI repositories, the evidence steps' four and the build matrix's
    assert len(json.loads(documents[0])["repos"]) == 3 + 4 + 1
