"""The sandbox world builder: a release manager's fictional release, checked with plain git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cockpit.profile import load_profile
from cockpit.sandbox.gitgen import git_env
from cockpit.sandbox.world import build_world, load_world, save_world

N = 300
BRANCH = "release/2.5"
CUT = f"orig/{BRANCH}"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(tmp_path_factory.mktemp("world"), seed=11, trunk_commits=N)


@pytest.fixture(scope="module")
def git(world):
    def run(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=world.clone_path, env=git_env(), check=True, capture_output=True, text=True
        ).stdout

    return run


@pytest.fixture(scope="module")
def branch_log(git) -> dict[str, str]:
    """Release-branch commits after the cut: sha -> full message."""
    out = git("log", "--format=%H%x1f%B%x1e", f"{CUT}..{BRANCH}")
    return dict(entry.strip("\n").split("\x1f", 1) for entry in out.split("\x1e") if entry.strip())


def patch_id(git, sha: str) -> str:
    diff = git("show", "--format=", sha)
    out = subprocess.run(
        ["git", "patch-id", "--stable"], input=diff, cwd=None, env=git_env(), capture_output=True, text=True, check=True
    ).stdout
    return out.split()[0] if out else ""


def pull(world, number: int):
    return next(p for p in world.repos[world.repository].pulls if p.number == number)


def is_ancestor(git, a: str, b: str) -> bool:
    try:
        git("merge-base", "--is-ancestor", a, b)
        return True
    except subprocess.CalledProcessError:
        return False


def test_the_same_seed_builds_the_same_shas(world, tmp_path):
    again = build_world(tmp_path / "again", seed=11, trunk_commits=N)
    assert again.truth == world.truth
    other = build_world(tmp_path / "other", seed=12, trunk_commits=N)
    assert other.truth["main_head"] != world.truth["main_head"]


def test_the_clone_tracks_a_bare_origin_with_the_cut_branches_and_rc_tags(world, git):
    assert Path(world.remote_path, "HEAD").is_file() and not Path(world.remote_path, ".git").exists()
    assert git("remote", "get-url", "origin").strip() == world.remote_path
    for ref in ("main", BRANCH, CUT):
        assert git("rev-parse", ref) == git("rev-parse", f"origin/{ref}")
    assert git("rev-parse", CUT).strip() == world.truth["cut_sha"]
    assert git("rev-parse", f"{BRANCH}@{{upstream}}").strip() == git("rev-parse", f"origin/{BRANCH}").strip()
    assert is_ancestor(git, CUT, "main") and is_ancestor(git, CUT, BRANCH)
    rc1, rc2 = "v2.5.0-rc1", "v2.5.0-rc2"
    assert git("cat-file", "-t", rc1).strip() == "tag"
    assert git("rev-parse", f"{rc2}^{{commit}}").strip() == world.truth["tags"][rc2]
    assert is_ancestor(git, rc1, rc2) and is_ancestor(git, rc2, BRANCH)
    assert git("rev-list", "--count", "main").strip() == str(N)


def test_a_new_rc_tag_can_be_pushed_to_origin(world, tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(Path(world.clone_path).parent, root)
    clone = root / "torchlet"
    env = git_env()
    subprocess.run(
        ["git", "remote", "set-url", "origin", str(root / "torchlet-remote.git")], cwd=clone, env=env, check=True
    )
    subprocess.run(["git", "tag", "v2.5.0-rc3", BRANCH], cwd=clone, env=env, check=True)
    subprocess.run(["git", "push", "-q", "origin", "v2.5.0-rc3"], cwd=clone, env=env, check=True, capture_output=True)
    out = subprocess.run(
        ["git", "tag"], cwd=root / "torchlet-remote.git", env=env, capture_output=True, text=True
    ).stdout
    assert "v2.5.0-rc3" in out.split()


def test_trunk_commits_are_written_by_the_merge_bot(git):
    log = git("log", "--format=%s%x1f%B%x1e", "-n", "50", "main")
    merged = [e for e in log.split("\x1e") if re.search(r"\(#\d+\)\x1f", e)]
    assert merged
    for entry in merged:
        subject, body = entry.strip("\n").split("\x1f", 1)
        number = re.search(r"\(#(\d+)\)$", subject).group(1)
        assert f"Pull Request resolved: https://github.com/acme/torchlet/pull/{number}" in body
        assert re.search(r"^Approved by: https://github.com/\S+$", body, re.M)


def test_x_picks_carry_the_trailer_of_a_trunk_commit_after_the_cut(world, git, branch_log):
    message = branch_log[world.truth["shapes"]["x_pick"]]
    trunk = re.search(r"\(cherry picked from commit ([0-9a-f]{40})\)", message).group(1)
    assert is_ancestor(git, trunk, "main") and not is_ancestor(git, trunk, CUT)
    assert git("log", "-1", "--format=%s", trunk).strip() == message.split("\n", 1)[0]
    assert patch_id(git, trunk) == patch_id(git, world.truth["shapes"]["x_pick"])


def test_a_pick_through_a_release_pr_is_titled_with_both_numbers(world, branch_log):
    sha = world.truth["shapes"]["pr_plain"]
    n, m = map(int, re.search(r"\(#(\d+)\) \(#(\d+)\)$", branch_log[sha].split("\n", 1)[0]).groups())
    release = pull(world, m)
    assert release.merged and release.base == BRANCH and release.merge_commit_sha == sha
    assert pull(world, n).base == "main" and pull(world, n).merged


def test_a_bulk_pick_lists_its_trunk_prs_as_bullets(world, branch_log):
    message = branch_log[world.truth["shapes"]["bulk"]]
    assert re.match(r"Cherry-pick changes for 2\.5\.0 \(#\d+\)\n", message)
    bullets = [int(n) for n in re.findall(r"^\* .+ \(#(\d+)\)$", message, re.M)]
    assert len(bullets) == 3
    assert all(world.truth["evidence"][str(n)] == ["bulk_pick"] for n in bullets)


def test_a_pick_edited_in_a_conflict_keeps_its_references_but_not_its_patch(world, git, branch_log):
    sha = world.truth["shapes"]["conflict"]
    trunk = re.search(r"cherry picked from commit ([0-9a-f]{40})", branch_log[sha]).group(1)
    number = re.search(r"\(#(\d+)\)$", branch_log[sha].split("\n", 1)[0]).group(1)
    assert patch_id(git, trunk) != patch_id(git, sha)
    assert world.truth["verdicts"][number] == "landed_modified"


def test_a_reworded_pick_is_found_only_by_its_patch(world, git, branch_log):
    sha = world.truth["shapes"]["noref"]
    assert "#" not in branch_log[sha] and "cherry picked" not in branch_log[sha] and "http" not in branch_log[sha]
    trunk = world.truth["trunk"]["pick_noref"]
    assert patch_id(git, trunk) == patch_id(git, sha)
    number = re.search(r"\(#(\d+)\)$", git("log", "-1", "--format=%s", trunk).strip()).group(1)
    assert world.truth["evidence"][number] == ["patch_id"]


def test_reverts_on_main_of_picked_or_pre_cut_commits_are_owed(world, git, branch_log):
    branch_patches = {patch_id(git, sha) for sha in branch_log}
    owed = world.truth["reverts_owed"]
    assert len(owed) == 2
    for revert in owed:
        message = git("log", "-1", "--format=%B", revert["revert_sha"])
        assert message.startswith('Revert "') and f"This reverts commit {revert['reverted_sha']}." in message
        picked = f"(cherry picked from commit {revert['reverted_sha']})" in "".join(branch_log.values())
        assert picked or is_ancestor(git, revert["reverted_sha"], BRANCH)
        assert not is_ancestor(git, revert["revert_sha"], BRANCH)
        assert revert["revert_sha"] not in "".join(branch_log.values())
        assert patch_id(git, revert["revert_sha"]) not in branch_patches
    assert any(not is_ancestor(git, r["reverted_sha"], CUT) for r in owed)
    assert any(is_ancestor(git, r["reverted_sha"], CUT) for r in owed)


def test_a_revert_the_branch_already_took_is_not_owed(world, git, branch_log):
    taken, elsewhere = world.truth["reverts_not_owed"]
    assert taken["why"] == "already_taken" and elsewhere["why"] == "target_not_in_branch"
    assert f"(cherry picked from commit {taken['revert_sha']})" in branch_log[world.truth["shapes"]["revert_pick"]]
    assert not is_ancestor(git, elsewhere["reverted_sha"], BRANCH)


def test_release_only_commits_and_a_fix_missing_in_main(world, git):
    bump, pin, reworded = world.truth["release_only"]
    assert git("log", "-1", "--format=%s", bump).startswith("Bump version to 2.5.0")
    assert git("log", "-1", "--format=%s", reworded).startswith(f"[{BRANCH}] Keep the 2.x error message")
    assert git("show", f"{BRANCH}:version.txt").strip() == "2.5.0"
    assert ".ci/docker/ci_commit_pins/triton.txt" in git("show", "--name-only", "--format=", pin).split()
    (fix,) = world.truth["missing_in_main"]
    main_patches = {patch_id(git, sha) for sha in git("rev-list", f"{CUT}..main").split()}
    assert patch_id(git, fix) not in main_patches


def test_the_rc_delta_is_the_range_between_the_two_rc_tags(world, git):
    delta = world.truth["rc_delta"]
    assert git("rev-list", "--reverse", f"{delta['base']}..{delta['head']}").split() == delta["commits"]
    messages = git("log", "--format=%B", f"{delta['base']}..{delta['head']}")
    assert all(f"#{n}" in messages or f"/pull/{n}" in messages for n in delta["prs"])
    assert set(delta["prs"]) & set(delta["trunk_prs"])


def test_milestone_prs_missing_from_the_branch_landed_on_main_after_the_cut(world, git, branch_log):
    text = "".join(branch_log.values())
    for number, verdict in world.truth["verdicts"].items():
        item = next((p for p in world.repos[world.repository].pulls if p.number == int(number)), None)
        if verdict == "missing" and item is not None:
            assert item.merged and not is_ancestor(git, item.merge_commit_sha, CUT)
            assert not re.search(rf"#{number}\b", text)
        if verdict == "landed_before_cut" and item is not None:
            assert is_ancestor(git, item.merge_commit_sha, CUT)


def test_prefix_collisions_look_alike_only_without_word_boundaries(world, branch_log):
    text = "".join(branch_log.values())
    for pair in world.truth["prefix_collisions"]:
        short, long = str(pair["short"]), str(pair["long"])
        assert long.startswith(short) and world.truth["verdicts"][short] == pair["short_verdict"]
        assert f"#{long}" in text and f"/pull/{short}" in text
        assert not re.search(rf"#{short}\b", text)


def test_commit_messages_exercise_parser_edge_cases(world, git):
    edge = world.truth["edge_cases"]
    assert (
        "[bold]" in pull(world, edge["markup_title_pr"]).title
        and "<Tensor>" in pull(world, edge["markup_title_pr"]).title
    )
    assert edge["non_ascii_author"] in git("log", "--format=%an", BRANCH)
    assert len(git("log", "-1", "--format=%B", edge["long_body_sha"]).splitlines()) > 100


def test_every_milestone_item_exists_once_in_one_number_space(world):
    repo = world.repos[world.repository]
    numbers = [i.number for i in repo.issues] + [p.number for p in repo.pulls]
    assert len(numbers) == len(set(numbers))
    in_milestone = {i.number for i in repo.issues + repo.pulls if i.milestone == world.milestone_number}
    assert {int(n) for n in world.truth["verdicts"]} == in_milestone
    assert len(in_milestone) == 60
    assert {m.state for m in repo.milestones if m.title == "2.4.1"} == {"closed"}
    skipped = [n for n, v in world.truth["verdicts"].items() if v == "skipped"]
    assert skipped and all(
        "release-feature-request" in next(i for i in repo.issues if i.number == int(n)).labels for n in skipped
    )


def test_every_trunk_pr_is_a_merged_pull_whose_merge_commit_is_on_main(world, git):
    log = git("log", "--format=%H %s", "main").splitlines()
    for line in log:
        sha, subject = line.split(" ", 1)
        found = re.search(r"\(#(\d+)\)$", subject)
        if found:
            p = pull(world, int(found.group(1)))
            assert (p.merged, p.base, p.merge_commit_sha) == (True, "main", sha)


def test_pick_requests_agree_with_the_pull_requests_they_name(world):
    repo = world.repos[world.repository]
    comments = {str(c.id): c for c in repo.comments if c.issue_number == world.tracker_issue}
    team = {str(c.id) for c in comments.values() if "release-cockpit:signoffs" in c.body}  # a manager's sign-offs
    picks = world.truth["picks"]
    assert set(picks) == set(comments) - team and len(picks) >= 25
    expected_state = {"accepted": (True, "closed"), "under_review": (False, "open"), "rejected": (False, "closed")}
    for _cid, pick in picks.items():
        for number in pick["release_prs"]:
            if isinstance(number, int) and pick["status"] in expected_state:
                p = pull(world, number)
                assert (p.merged, p.state) == expected_state[pick["status"]]
                assert p.base == ("main" if "wrong_base" in pick["flags"] else BRANCH)
        if "trunk_not_merged" in pick["flags"]:
            assert not pull(world, pick["trunk_prs"][0]).merged
    flags = {f for p in picks.values() for f in p["flags"]}
    assert {
        "trunk_reverted",
        "wrong_base",
        "trunk_not_merged",
        "duplicate",
        "missing_issue_link",
        "no_release_pr",
        "unparsed",
    } <= flags
    assert any(c.updated_at > c.created_at for c in comments.values())
    assert any(isinstance(n, str) and n.startswith("acme/vision#") for p in picks.values() for n in p["trunk_prs"])
    (unrequested,) = world.truth["unrequested_merges"]
    assert pull(world, unrequested).merged and pull(world, unrequested).base == BRANCH


def test_ci_is_red_for_the_core_green_for_vision_and_amber_for_audio(world):
    core = world.repos[world.repository]
    head = core.branches[BRANCH]
    at_head = [c for c in core.check_runs if c.head_sha == head]
    assert len(at_head) > 100
    failed = [c.name for c in at_head if c.conclusion == "failure"]
    assert any("unstable" not in n for n in failed) and any("unstable" in n for n in failed)
    vision = world.repos["acme/vision"]
    at_vision = [c for c in vision.check_runs if c.head_sha == vision.branches[BRANCH]]
    assert all(c.conclusion in ("success", "skipped") for c in at_vision if "unstable" not in c.name)
    assert any(c.conclusion == "failure" for c in at_vision if "unstable" in c.name)
    audio = world.repos["acme/audio"]
    assert {c.status for c in audio.check_runs if c.head_sha == audio.branches[BRANCH]} >= {"queued", "in_progress"}
    green = world.truth["ci_detail"]["acme/torchlet"]["last_green"]
    assert green in core.branch_history[BRANCH][1:]
    required = {r.id for r in core.workflow_runs if r.head_sha == green and r.name in ("pull", "trunk", "Lint")}
    assert len(required) == 3
    assert all(
        c.conclusion in ("success", "skipped")
        for c in core.check_runs
        if c.run_id in required and "unstable" not in c.name
    )
    on_rc = {r.name for r in core.workflow_runs if r.head_sha == world.truth["tags"]["v2.5.0-rc2"]}
    assert on_rc >= set(load_profile().strings("ci.binary_build_workflows")), "named as PyTorch's, from the profile"


def _rc_matrix(world) -> dict[tuple[str, str, str, str], object]:
    """(package, variant, python tag, platform) -> the test channel's wheel for it, read from its name."""
    matrix = {}
    for w in world.wheels:
        if w.channel != "test":
            continue
        name, version, python, abi, platform = w.filename[:-4].split("-")
        tag = abi if abi.endswith("t") else python
        assert version in ("2.5.0", f"2.5.0+{w.variant}"), w.filename
        matrix[(name.replace("_", "-"), w.variant, tag, platform)] = w
    return matrix


def test_the_rc_channel_is_laid_out_like_pytorchs_with_one_gap_of_each_kind_planted(world):
    storage = world.truth["storage"]
    assert world.packages == ["torchlet", "torchlet-vision", "torchlet-audio"] and world.platforms == []
    assert set(world.variants) == {"cpu", "cu126", "cu128", "rocm6.3", "xpu"}
    assert world.variants["rocm6.3"] == ["manylinux_2_28_x86_64"] and "macosx_11_0_arm64" in world.variants["cpu"]
    assert world.variants["xpu"] == ["manylinux_2_28_x86_64", "win_amd64"], "ROCm and XPU are manylinux too"
    matrix = _rc_matrix(world)
    expected = {
        (p, v, t, plat)
        for p in world.packages
        for v, plats in world.variants.items()
        for plat in plats
        for t in world.python_tags
    }
    assert len(expected) == storage["expected_count"] == 3 * 12 * 5
    absent = expected - set(matrix)
    assert {f"{v}:{p}:{t}:{plat}" for p, v, t, plat in absent} == {
        "cpu:torchlet:cp313t:win_amd64",
        "cu128:torchlet:cp312:manylinux_2_28_aarch64",
    }
    assert len(storage["missing"]) == 2 and storage["by_variant"]["cu128"]["missing"] == [
        "torchlet-2.5.0+cu128-cp312-cp312-manylinux_2_28_aarch64.whl"
    ]
    yanked = [w for w in matrix.values() if w.yanked is not None]
    assert [(w.variant, w.filename) for w in yanked] == [("cu126", n) for n in storage["yanked"]]
    assert "wrong CUDA runtime" in yanked[0].yanked
    assert [w.filename for w in matrix.values() if w.size > 1000 * 1000 * 1000] == storage["oversize"]
    assert [w.filename for w in matrix.values() if w.metadata_version] == storage["wrong_version"]
    assert (
        matrix[("torchlet", "cpu", "cp312", "macosx_11_0_arm64")].filename
        == "torchlet-2.5.0-cp312-none-macosx_11_0_arm64.whl"
    )
    assert all(re.fullmatch(r"[0-9a-f]{64}", w.sha256) for w in world.wheels)
    promoted = set(world.truth["promotion"]["stable_promoted"]["promoted"])  # the planted half-done promotion
    assert {w.filename.split("-")[1] for w in world.wheels if w.channel == "stable" and w.filename not in promoted} == {
        "2.4.1"
    }
    assert promoted and all(
        w.variant == "cpu" for w in world.wheels if w.channel == "stable" and w.filename in promoted
    )
    assert sorted({r.version for r in world.pypi if r.package != "triton"}) == ["2.4.0", "2.4.1"]


def test_a_saved_world_loads_back_equal(world, tmp_path):
    save_world(world, tmp_path / "world.json")
    assert load_world(tmp_path / "world.json") == world


def test_a_history_too_small_to_plant_every_shape_is_refused(tmp_path):
    with pytest.raises(ValueError, match="at least"):
        build_world(tmp_path, trunk_commits=50)


def test_the_all_green_world_plants_nothing_that_blocks_a_release(tmp_path):
    green = build_world(tmp_path / "green", seed=11, trunk_commits=N, all_green=True)
    truth = green.truth
    assert green.all_green and truth["all_green"]
    assert set(truth["verdicts"].values()) <= {"landed", "landed_before_cut", "not_merged", "skipped"}
    assert truth["reverts_owed"] == [] and truth["missing_in_main"] == []
    assert {r["why"] for r in truth["reverts_not_owed"]} == {"already_taken", "target_not_in_branch"}
    assert set(truth["ci"].values()) == {"green"} and truth["ci_detail"]["acme/torchlet"]["failed"] == []
    assert all(truth["storage"][kind] == [] for kind in ("missing", "yanked", "oversize", "wrong_version"))
    assert not any(w.yanked is not None or w.metadata_version for w in green.wheels)
    assert len(_rc_matrix(green)) == truth["storage"]["expected_count"]
    assert all(p["status"] in ("accepted", "unparsed") for p in truth["picks"].values())
    assert not {f for p in truth["picks"].values() for f in p["flags"]} & {
        "trunk_reverted",
        "wrong_base",
        "trunk_not_merged",
    }
    assert truth["unrequested_merges"] == []
    milestone = green.milestone_number
    core = green.repos[green.repository]
    open_items = [i.number for i in core.issues if i.milestone == milestone and i.state == "open"]
    open_items += [p.number for p in core.pulls if p.milestone == milestone and p.state == "open"]
    skipped = {int(n) for n, v in truth["verdicts"].items() if v == "skipped"}
    assert set(open_items) <= skipped
    # the option changes what the release manager did, not the history of main
    assert truth["main_head"] == build_world(tmp_path / "plain", seed=11, trunk_commits=N).truth["main_head"]
