"""One release over the core and two domain libraries, judged over the real adapters on the sandbox."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.domain.repos import REPO_GATES, repo_gate_name
from cockpit.loaders.picture import gather


def _picture(config):
    backend = build_backend(config, read_only=True)
    try:
        return gather(backend)
    finally:
        backend.state.close()


def test_every_gate_of_every_domain_library_equals_what_the_world_planted(multi_sandbox):
    picture = _picture(multi_sandbox.config)
    truth = multi_sandbox.world.truth["libraries"]
    assert [r.name for r in picture.repos] == ["vision", "audio"]
    for repo in picture.repos:
        shown = {g.name: g.status.value for g in repo.gates}
        planted = {repo_gate_name(gate, repo.name): truth[repo.name]["gates"][gate] for gate in REPO_GATES}
        assert shown == planted, repo.name
        assert {g.name: g.status.value for g in picture.gates.values() if g.name in planted} == planted


def test_the_missing_pick_of_vision_is_named_and_the_picked_prs_landed(multi_sandbox):
    picture = _picture(multi_sandbox.config)
    vision = next(r for r in picture.repos if r.name == "vision")
    truth = multi_sandbox.world.truth["libraries"]["vision"]
    verdicts = {i.number: i.verdict.value for i in vision.branch_diff.diff.items}
    assert [n for n, v in verdicts.items() if v == "missing"] == truth["missing"]
    assert all(verdicts[n] == "landed" for n in truth["picked"])


def test_one_verdict_for_the_release_held_back_by_a_library(multi_sandbox):
    picture = _picture(multi_sandbox.config)
    assert not picture.verdict.go
    assert any(r.startswith("Branch diff clean [vision] is red") for r in picture.verdict.reasons)
    assert any(r.startswith("CI green [audio] is amber") for r in picture.verdict.reasons)


def test_a_missing_clone_makes_only_that_librarys_branch_gate_unknown(multi_sandbox, tmp_path):
    config = multi_sandbox.config
    gone = tmp_path / "no-audio-clone"
    repos = tuple(replace(r, clone=gone) if r.name == "audio" else r for r in config.repos)
    picture = _picture(replace(config, repos=repos))
    audio = {g.name: g for g in next(r for r in picture.repos if r.name == "audio").gates}
    branch = audio["branch_diff_clean[audio]"]
    assert branch.status is GateStatus.UNKNOWN
    assert "repo[1] (audio).clone" in branch.summary and str(gone) in branch.summary
    assert audio["milestone_empty[audio]"].status is GateStatus.GREEN
    assert audio["picks_clear[audio]"].status is GateStatus.UNKNOWN, "reverts owed cannot be checked without history"
    assert audio["rc_artifacts[audio]"].status is GateStatus.RED
    vision = {g.name: g.status for g in picture.repos[0].gates}
    assert vision["branch_diff_clean[vision]"] is GateStatus.RED
    assert picture.gates["branch_diff_clean"].status is GateStatus.RED  # the core's own pane is untouched


def test_each_library_reads_its_milestone_once_for_all_its_gates(multi_sandbox):
    _picture(multi_sandbox.config)
    paths = [e["path"] for e in multi_sandbox.github.log() if e["method"] == "GET"]
    for repository in ("acme/vision", "acme/audio"):
        listed = [p for p in paths if p.startswith(f"/repos/{repository}/issues") and "milestone=" in p]
        assert len(listed) == 1, (repository, listed)


def test_the_library_clones_are_real_git_repositories_with_their_rc_tags(multi_world):
    from cockpit.adapters.git import GitRepo

    for lib in multi_world.libraries:
        tags = GitRepo(Path(lib["clone_path"]), read_only=True).tags()
        assert set(multi_world.truth["libraries"][lib["name"]]["tags"]) <= set(tags)
        assert shutil.which("git")


def _vision_request(picks):
    return next(r for r in picks.rows if any(ref.repository == "acme/vision" for ref in r.request.release_prs))


def test_a_core_request_for_a_vision_fix_is_joined_with_the_vision_prs_and_its_branch(multi_sandbox):
    picture = _picture(multi_sandbox.config)
    row = _vision_request(picture.picks)
    assert {(p.repository, p.number, p.base_ref) for p in row.pulls} == {
        ("acme/vision", 8190, "release/0.20"),
        ("acme/vision", 8123, "main"),
    }
    assert row.status.value == "under_review" and "wrong_base" not in {f.value for f in row.flags}
    assert not any("not loaded" in note for note in row.notes)


def test_in_a_single_repository_release_a_vision_pr_is_still_only_named(sandbox):
    picture = _picture(sandbox.config)
    row = _vision_request(picture.picks)
    assert row.pulls == () and any("acme/vision#8190 not loaded" in note for note in row.notes)


def test_audio_built_against_the_previous_core_release_is_a_red_gate_naming_both_versions(multi_sandbox):
    picture = _picture(multi_sandbox.config)
    gate = picture.gates["versions_coherent[audio]"]
    assert gate.status is GateStatus.RED
    assert "requirements.txt pins torchlet 2.4.0, the core is 2.5.0" in gate.summary
    assert picture.gates["versions_coherent[vision]"].status is GateStatus.GREEN


def test_the_cold_load_grows_by_each_repositorys_own_requests(multi_sandbox):
    from tests.benchmarks.bench_repos import cold_requests, with_repositories

    config = multi_sandbox.config
    runs = [cold_requests(with_repositories(config, n), multi_sandbox.github) for n in (1, 2, 3)]
    assert runs[0]["acme/torchlet"] == runs[1]["acme/torchlet"] == runs[2]["acme/torchlet"]
    assert runs[1]["acme/vision"] == runs[2]["acme/vision"] > 0
    assert runs[0]["acme/vision"] == runs[0]["acme/audio"] == runs[1]["acme/audio"] == 0
    assert sum(runs[2].values()) == sum(runs[0].values()) + runs[2]["acme/vision"] + runs[2]["acme/audio"]
