"""``cockpit picks``: a tracker exported with any tool is analysed offline; without a file, the configured one."""

from __future__ import annotations

import json
import urllib.request

import pytest

from cockpit.cli.main import main

FIELDS = {"comment_id", "author", "trunk_prs", "release_prs", "category", "parsed"}


@pytest.fixture()
def export(sandbox, tmp_path):
    """The tracker's comments exactly as the REST API returns them, saved to a file."""
    world = sandbox.world
    url = f"{sandbox.github_url}/repos/{world.repository}/issues/{world.tracker_issue}/comments?per_page=100"
    with urllib.request.urlopen(url) as response:
        comments = json.load(response)
    path = tmp_path / "tracker.json"
    path.write_text(json.dumps(comments), encoding="utf-8")
    return path


def _planted(world) -> dict[int, dict]:
    """What the world planted, in the printed shape (this repository's PR numbers only)."""
    return {
        int(cid): {
            "trunk_prs": [n for n in pick["trunk_prs"] if isinstance(n, int)],
            "release_prs": [n for n in pick["release_prs"] if isinstance(n, int)],
            "category": pick["category"] if pick["parsed"] else "",
            "parsed": pick["parsed"],
        }
        for cid, pick in world.truth["picks"].items()
    }


def test_an_exported_tracker_is_read_offline_into_the_planted_requests(export, sandbox, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no cockpit.toml here: the repository comes from the comments' URLs
    assert main(["picks", "--from-json", str(export)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert all(set(row) == FIELDS for row in printed)
    got = {
        row["comment_id"]: {k: row[k] for k in ("trunk_prs", "release_prs", "category", "parsed")} for row in printed
    }
    assert got == _planted(sandbox.world)
    assert all(isinstance(row["author"], str) and row["author"] for row in printed)


def test_without_a_file_the_configured_tracker_is_read_and_gives_the_same_answer(
    export, sandbox, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    assert main(["picks", "--from-json", str(export), "--repo", sandbox.world.repository]) == 0
    offline = json.loads(capsys.readouterr().out)
    assert main(["--config", str(sandbox.config_path), "picks"]) == 0
    assert json.loads(capsys.readouterr().out) == offline
    assert {e["method"] for e in sandbox.github.log()} == {"GET"}


def test_a_pr_of_another_repository_is_left_out_of_the_numbers(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    body = (
        "Link to landed trunk PR (if applicable):\n* https://github.com/acme/vision/pull/8123\n* #91001\n\n"
        "Link to release branch PR:\n* https://github.com/acme/torchlet/pull/91100\n\n"
        "Criteria Category:\n* Critical fix\n"
    )
    path = tmp_path / "one.json"
    path.write_text(json.dumps([{"id": 5, "user": {"login": "dev"}, "body": body}]), encoding="utf-8")
    assert main(["picks", "--from-json", str(path), "--repo", "acme/torchlet"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row == {
        "comment_id": 5,
        "author": "dev",
        "trunk_prs": [91001],
        "release_prs": [91100],
        "category": "Critical fix",
        "parsed": True,
    }


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", "not valid JSON"),
        ('{"id": 1, "body": "a comment, not an array"}', "not an array"),
        ('"just a string"', "not an array"),
        ("[1, 2]", "item 0 is not an issue comment"),
        ('[{"body": "no id"}]', "item 0 is not an issue comment"),
        ("[" * 100_000, "not valid JSON|nested too deeply"),
    ],
)
def test_a_file_that_is_not_an_array_of_comments_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, content, words):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["picks", "--from-json", str(path), "--repo", "acme/torchlet"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == "" and err.count("\n") == 0 and "Traceback" not in err
    assert any(w in err for w in words.split("|")) and str(path) in err


def test_a_missing_file_and_a_bad_repo_are_one_line_each(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["picks", "--from-json", str(tmp_path / "nowhere.json")]) == 2
    assert "cannot read it" in capsys.readouterr().err
    (tmp_path / "empty.json").write_text("[]", encoding="utf-8")
    assert main(["picks", "--from-json", str(tmp_path / "empty.json"), "--repo", "not a repo"]) == 2
    assert "expected OWNER/NAME" in capsys.readouterr().err
    assert main(["picks", "--from-json", str(tmp_path / "empty.json"), "--repo", "acme/torchlet"]) == 0
    assert json.loads(capsys.readouterr().out) == []
