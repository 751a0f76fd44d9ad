"""``cockpit missing-in-branch`` in CI: against the sandbox's clone and GitHub emulator, or a PR list."""

from __future__ import annotations

import json
import subprocess

import pytest

from cockpit.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def planted(world, verdict: str) -> list[int]:
    return sorted(int(n) for n, v in world.truth["verdicts"].items() if v == verdict)


def standalone(world, *more: str) -> list[str]:
    return [
        "missing-in-branch",
        "--repo-path",
        world.clone_path,
        "--branch",
        world.release_branch,
        "--repo",
        world.repository,
        *more,
    ]


def test_the_milestone_from_github_gives_the_planted_verdicts_as_json_and_exit_1(sandbox, sandbox_world, capsys):
    status, out, err = run(capsys, "--config", str(sandbox.config_path), "missing-in-branch", "--format", "json")
    assert status == 1, err
    data = json.loads(out)
    assert set(data) == {"items", "reverts_to_propagate", "missing_in_main"}
    assert {str(i["number"]): i["verdict"] for i in data["items"]} == sandbox_world.truth["verdicts"]
    modified = next(i for i in data["items"] if i["verdict"] == "landed_modified")
    assert {"number", "title", "verdict", "evidence", "commits"} <= modified.keys()
    assert {e["kind"] for e in modified["evidence"]} >= {"cherry_pick_trailer"} and modified["commits"]
    assert {r["revert_sha"] for r in data["reverts_to_propagate"]} == {
        r["revert_sha"] for r in sandbox_world.truth["reverts_owed"]
    }
    assert [c["sha"] for c in data["missing_in_main"]] == sandbox_world.truth["missing_in_main"]


def test_a_closed_milestone_is_found_by_title(sandbox, sandbox_world, capsys):
    title = sandbox_world.truth["closed_milestone"]["title"]
    status, out, err = run(
        capsys, "--config", str(sandbox.config_path), "missing-in-branch", "--milestone", title, "--format", "json"
    )
    assert status in (0, 1), err
    assert not {str(i["number"]) for i in json.loads(out)["items"]} & set(sandbox_world.truth["verdicts"])


def test_markdown_lists_the_missing_prs_first(sandbox, sandbox_world, capsys):
    status, out, _ = run(capsys, "--config", str(sandbox.config_path), "missing-in-branch", "--format", "markdown")
    assert status == 1
    assert out.startswith("## Branch diff: ") and out.index("### Missing") < out.index("### Landed")
    assert f"#{planted(sandbox_world, 'missing')[0]}" in out


def test_a_prs_file_needs_no_github_and_treats_listed_prs_as_merged(sandbox_world, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no cockpit.toml here: flags only
    missing, landed = planted(sandbox_world, "missing")[0], planted(sandbox_world, "landed")[0]
    prs = tmp_path / "prs.txt"
    prs.write_text(f"{landed}\n\nhttps://github.com/{sandbox_world.repository}/pull/{missing}\n", encoding="utf-8")
    status, out, err = run(capsys, *standalone(sandbox_world, "--prs-file", str(prs)))
    assert status == 1, err
    lines = out.splitlines()
    assert lines[1].startswith("missing") and f"#{missing}" in lines[1]
    assert any(line.startswith("landed ") and f"#{landed}" in line and "trailer" in line for line in lines)


def test_nothing_missing_and_no_revert_owed_exits_0(sandbox_world, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    landed = planted(sandbox_world, "landed")[:3]
    prs = tmp_path / "prs.txt"
    prs.write_text("\n".join(f"#{n}" for n in landed), encoding="utf-8")
    cut = sandbox_world.truth["cut_sha"]  # main as it was at the cut: nothing to pick, nothing to revert
    status, out, err = run(
        capsys, *standalone(sandbox_world, "--prs-file", str(prs), "--main", cut, "--format", "json")
    )
    data = json.loads(out)
    assert status == 0, err
    assert "missing" not in {i["verdict"] for i in data["items"]} and data["reverts_to_propagate"] == []


@pytest.mark.parametrize(
    "bad, says",
    [
        ("12abc", "not a PR number or PR URL"),
        ("https://github.com/other/lib/pull/12", "is a PR of other/lib"),
    ],
)
def test_a_bad_line_in_the_prs_file_is_one_line_and_exit_2(sandbox_world, tmp_path, capsys, bad, says):
    prs = tmp_path / "prs.txt"
    prs.write_text(f"1\n{bad}\n", encoding="utf-8")
    status, out, err = run(capsys, *standalone(sandbox_world, "--prs-file", str(prs)))
    assert status == 2 and out == ""
    assert says in err and "line 2" in err and err.count("\n") == 1


def test_bad_refs_and_a_path_that_is_no_clone_are_one_line_and_exit_2(sandbox_world, tmp_path, capsys):
    prs = tmp_path / "prs.txt"
    prs.write_text("1\n", encoding="utf-8")
    for argv, says in (
        (standalone(sandbox_world, "--prs-file", str(prs), "--branch", "release/9.9"), "release/9.9"),
        (standalone(sandbox_world, "--prs-file", str(prs), "--cut", "no-such-tag"), "no-such-tag"),
        (
            [
                "missing-in-branch",
                "--repo-path",
                str(tmp_path),
                "--branch",
                "release/2.5",
                "--repo",
                "a/b",
                "--prs-file",
                str(prs),
            ],
            "not a git repository",
        ),
    ):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == "" and says in err and err.count("\n") == 1, err
        assert "Traceback" not in err


def test_a_shallow_clone_lacking_the_cut_is_refused_with_the_fix(sandbox_world, tmp_path, capsys):
    shallow = tmp_path / "shallow"
    subprocess.run(
        [
            "git",
            "clone",
            "-q",
            "--depth",
            "2",
            "--no-single-branch",
            f"file://{sandbox_world.remote_path}",
            str(shallow),
        ],
        check=True,
        capture_output=True,
    )
    prs = tmp_path / "prs.txt"
    prs.write_text("1\n", encoding="utf-8")
    status, _out, err = run(
        capsys,
        "missing-in-branch",
        "--repo-path",
        str(shallow),
        "--branch",
        sandbox_world.release_branch,
        "--repo",
        sandbox_world.repository,
        "--prs-file",
        str(prs),
    )
    assert status == 2 and "shallow" in err and "--unshallow" in err and err.count("\n") == 1


def test_without_a_branch_or_a_config_it_says_which_flag_is_needed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "missing-in-branch", "--prs-file", str(tmp_path / "x"))
    assert status == 2 and "--branch" in err


def test_predict_says_which_picks_apply_conflict_or_need_another_first_and_writes_nothing(
    sandbox, sandbox_world, capsys
):
    from pathlib import Path

    from tests.adapters.pick_replay import snapshot

    clone = Path(sandbox_world.clone_path)
    before = snapshot(clone)
    argv = ("--config", str(sandbox.config_path), "missing-in-branch", "--predict", "--format", "json")
    status, out, err = run(capsys, *argv)
    assert status == 1, err
    data = json.loads(out)
    picks = {i["number"]: i["pick"] for i in data["items"] if i["verdict"] == "missing"}
    assert all({"applies", "conflicts", "after"} <= p.keys() for p in picks.values())
    assert all("pick" not in i for i in data["items"] if i["verdict"] != "missing")
    planted = sandbox_world.truth["pick_predictions"]
    assert picks[planted["applies"]] == {
        "applies": True,
        "conflicts": [],
        "after": [],
        "empty": False,
        "group": [planted["after"]["pr"]],
    }
    after = picks[planted["after"]["pr"]]
    assert not after["applies"] and after["after"] == [planted["after"]["needs"]] and after["conflicts"]
    conflict = picks[planted["conflicts"]["pr"]]
    assert not conflict["applies"] and conflict["conflicts"] == planted["conflicts"]["paths"] and not conflict["after"]
    reverts = {r["revert_sha"]: r["pick"] for r in data["reverts_to_propagate"]}
    planted_reverts = sandbox_world.truth["revert_prs"]
    assert reverts[planted_reverts["opens"]["revert_sha"]]["applies"]  # one revert owed applies, one conflicts
    assert reverts[planted_reverts["manual"]["revert_sha"]]["conflicts"] == planted_reverts["manual"]["paths"]
    assert snapshot(clone) == before  # not a ref, an object, the index or a file of the clone changed
