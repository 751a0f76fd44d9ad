"""``cockpit init`` finds a real release by itself: given the repository and the version, it finds the
milestone, the tracker issue, the remote carrying the release branch and the workflows, passing over
the sandbox's decoys (a closed "v2.5" milestone, the 2.4.1 tracker, a duplicate tracker)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cockpit.cli.main import main
from cockpit.config import load_config
from cockpit.sandbox.github_server import GitHubEmulator


def git(path: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True, text=True).stdout.strip()


def init(sandbox, out: Path, *flags: str, clone: Path | str | None = None, api_url: str | None = None) -> int:
    return main(
        [
            "init",
            "--repository",
            "acme/torchlet",
            "--version",
            "2.5.0",
            "--clone",
            str(clone or sandbox.world.clone_path),
            "--api-url",
            api_url or sandbox.github_url,
            "--output",
            str(out),
            *flags,
        ]
    )


def gets(sandbox) -> list[str]:
    return [e["path"] for e in sandbox.github.log() if e["method"] == "GET"]


def test_init_finds_the_sandbox_release_by_itself_and_says_where_each_value_came_from(sandbox, tmp_path, capsys):
    world, out = sandbox.world, tmp_path / "init.toml"
    assert init(sandbox, out) == 0
    said = capsys.readouterr().out
    release = load_config(out).release
    assert (release.milestone, release.tracker_issue, release.main) == (
        world.milestone_number,
        world.tracker_issue,
        "main",
    )
    assert release.tracker_issue not in world.truth["decoy_trackers"]
    config = load_config(out)
    assert config.git.remote == "origin"
    [ci] = config.ci
    assert ci.required_workflows == ("pull", "trunk", "Lint"), "as GitHub names them (Lint, not lint)"
    assert ci.binary_workflows == (
        "linux-binary-manywheel",
        "linux-aarch64-binary-manywheel",
        "windows-binary-wheel",
        "macos-arm64-binary-wheel",
    ), "the binary builds that ran on the RC tag"

    text = out.read_text(encoding="utf-8")
    decoy = world.truth["decoy_milestones"][0]
    assert (
        f"# found: milestone 12 '2.5.0' (open); also seen: {decoy['number']} '{decoy['title']}' (closed)\n"
        "milestone = 12\n"
    ) in text
    assert (
        f"# found: #{world.tracker_issue} '[v2.5.0] Release Tracker' (open, labelled 'release tracker')\n"
        f"tracker_issue = {world.tracker_issue}\n"
    ) in text
    assert '# found: origin/release/2.5 exists\nremote = "origin"\n' in text
    assert "# found: RC tags v2.5.0-rc1, v2.5.0-rc2 in the clone\n" in text
    assert "# TODO: " not in text and "not found" not in said
    assert f"tracker_issue = {world.tracker_issue}   # found: #{world.tracker_issue}" in said
    assert said.endswith(f"wrote {out}\nnext: cockpit --config {out} check\n")
    assert len(gets(sandbox)) <= 7, (
        "the repository, milestones, labelled issues, its workflow list, runs on the branch and on the RC tag"
    )
    assert {e["method"] for e in sandbox.github.log()} == {"GET"}


def gate_lines(text: str, names: tuple[str, ...]) -> list[str]:
    return [line for line in text.splitlines() if line.split(": ", 1)[-1].startswith(names)]


def test_the_config_init_wrote_checks_the_same_release_as_the_sandboxs_own(sandbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GH_TOKEN", "sandbox-token")  # the written config says auth = "auto"
    out = tmp_path / "found.toml"
    assert init(sandbox, out) == 0
    capsys.readouterr()
    assert main(["--config", str(sandbox.config_path), "check"]) == 1
    expected = capsys.readouterr().out
    assert main(["--config", str(out), "check"]) == 1
    got = capsys.readouterr()
    gates = ("Milestone empty", "Branch diff clean", "Cherry-picks clear", "CI green")
    assert len(gate_lines(expected, gates)) == 4
    assert gate_lines(got.out, gates) == gate_lines(expected, gates)
    assert "Traceback" not in got.err


def test_an_unlabelled_tracker_is_found_by_title_search_over_its_closed_duplicate(sandbox, tmp_path, capsys):
    world = sandbox.world
    sandbox.github.repos["acme/torchlet"].items[world.tracker_issue].labels = []
    out = tmp_path / "init.toml"
    assert init(sandbox, out) == 0
    assert load_config(out).release.tracker_issue == world.tracker_issue
    duplicate = world.truth["decoy_trackers"][1]
    assert (
        f"(open, not labelled, found by title search); also seen: #{duplicate} '[v.2.5.0] Release Tracker' (closed)"
    ) in out.read_text(encoding="utf-8")
    assert any(path.startswith("/search/issues?") for path in gets(sandbox))


def test_flags_override_what_would_be_found_and_spare_the_lookups(sandbox, tmp_path, capsys):
    out = tmp_path / "init.toml"
    assert init(sandbox, out, "--milestone", "2.4.1", "--tracker", "7", "--remote", "origin") == 0
    release = load_config(out).release
    assert (release.milestone, release.tracker_issue) == ("2.4.1", 7)
    text = out.read_text(encoding="utf-8")
    assert (
        "# given: --milestone 2.4.1\n" in text
        and "# given: --tracker 7\n" in text
        and "# given: --remote origin\n" in text
    )
    assert not any("/milestones" in p or "/issues" in p or "/search/" in p for p in gets(sandbox))


def test_a_version_with_no_milestone_nor_tracker_is_written_with_todos_to_fill(sandbox, tmp_path, capsys):
    out = tmp_path / "init.toml"
    assert (
        main(
            [
                "init",
                "--repository",
                "acme/torchlet",
                "--version",
                "2.5.1",
                "--clone",
                sandbox.world.clone_path,
                "--api-url",
                sandbox.github_url,
                "--output",
                str(out),
            ]
        )
        == 0
    )
    said = capsys.readouterr().out.splitlines()
    assert [line.split(":")[1].strip() for line in said if line.startswith("not found:")] == [
        "milestone",
        "tracker_issue",
        "RC tags",
    ]
    text = out.read_text(encoding="utf-8")
    assert "# TODO: no milestone titled 2.5.1 or v2.5.1 (open or closed) in acme/torchlet (it has " in text
    assert '\n# milestone = "2.5.1"\n' in text and "\n# tracker_issue = 1234\n" in text
    config = load_config(out)
    assert (config.release.milestone, config.release.tracker_issue) == (None, None)
    assert config.ci[0].required_workflows == ("pull", "trunk", "Lint"), "the release branch's runs are still found"


@pytest.fixture
def fork_clone(sandbox, tmp_path) -> Path:
    """A contributor's clone: ``origin`` is their fork (main only), ``upstream`` the real repository."""
    fork = tmp_path / "fork.git"
    subprocess.run(
        [
            "git",
            "clone",
            "--quiet",
            "--bare",
            "--single-branch",
            "--branch",
            "main",
            sandbox.world.remote_path,
            str(fork),
        ],
        check=True,
        capture_output=True,
    )
    clone = tmp_path / "mine"
    subprocess.run(["git", "clone", "--quiet", str(fork), str(clone)], check=True, capture_output=True)
    git(clone, "remote", "add", "upstream", sandbox.world.remote_path)
    git(clone, "fetch", "--quiet", "upstream")
    assert not git(clone, "branch", "-r", "--list", "origin/release/*")
    return clone


def test_in_a_fork_clone_the_release_branch_is_read_from_upstream(sandbox, fork_clone, tmp_path, monkeypatch, capsys):
    out = tmp_path / "init.toml"
    assert init(sandbox, out, clone=fork_clone) == 0
    config = load_config(out)
    assert (config.git.remote, config.release.main) == ("upstream", "main")
    assert '# found: upstream/release/2.5 exists\nremote = "upstream"\n' in out.read_text(encoding="utf-8")
    monkeypatch.setenv("GH_TOKEN", "sandbox-token")
    capsys.readouterr()
    assert main(["--config", str(out), "check"]) == 1
    assert "red: Branch diff clean: 9 missing" in capsys.readouterr().out


def test_when_the_fork_has_the_branch_too_the_remote_naming_the_repository_wins(sandbox, fork_clone, tmp_path):
    git(fork_clone, "push", "--quiet", "origin", "refs/remotes/upstream/release/2.5:refs/heads/release/2.5")
    git(fork_clone, "fetch", "--quiet", "origin")
    git(fork_clone, "remote", "set-url", "upstream", "https://github.com/acme/torchlet.git")
    out = tmp_path / "init.toml"
    assert init(sandbox, out, clone=fork_clone) == 0
    assert load_config(out).git.remote == "upstream"
    assert (
        "# found: upstream/release/2.5 exists and upstream is https://github.com/acme/torchlet.git; "
        "also has it: origin\n"
    ) in out.read_text(encoding="utf-8")


def test_a_repository_that_does_not_exist_is_one_line_and_nothing_is_written(sandbox, tmp_path, capsys):
    out = tmp_path / "init.toml"
    assert (
        main(
            [
                "init",
                "--repository",
                "acme/nothing",
                "--version",
                "2.5.0",
                "--clone",
                sandbox.world.clone_path,
                "--api-url",
                sandbox.github_url,
                "--output",
                str(out),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err == (
        f"cockpit init: --repository acme/nothing: not found at {sandbox.github_url}: no such repository, "
        "or a private one and no token was found (set GH_TOKEN or run 'cockpit auth login')\n"
    )
    assert not out.exists()


def test_a_refused_token_is_one_line_naming_what_to_do(sandbox_world, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GH_TOKEN", "expired-token")
    out = tmp_path / "init.toml"
    with GitHubEmulator(sandbox_world, token="the-real-one") as gh:
        assert (
            main(
                [
                    "init",
                    "--repository",
                    "acme/torchlet",
                    "--version",
                    "2.5.0",
                    "--clone",
                    sandbox_world.clone_path,
                    "--api-url",
                    gh.base_url,
                    "--output",
                    str(out),
                ]
            )
            == 2
        )
    err = capsys.readouterr().err
    assert err.startswith(
        f"cockpit init: cannot read acme/torchlet at {gh.base_url}: look up acme/torchlet: "
        "GitHub refused the token (401: Bad credentials)"
    )
    assert err.endswith("; or pass --offline to write the config without asking GitHub\n") and err.count("\n") == 1
    assert "expired-token" not in err and not out.exists()


def test_a_rate_limit_without_a_token_says_no_token_was_found(sandbox, tmp_path, capsys):
    sandbox.github.faults.rate_limit(path=r"/milestones", count=5)
    out = tmp_path / "init.toml"
    assert init(sandbox, out) == 2
    err = capsys.readouterr().err
    assert "rate limit is exhausted" in err and "(no token was found: set GH_TOKEN or run 'cockpit auth login')" in err
    assert err.count("\n") == 1 and "Traceback" not in err and not out.exists()


def test_a_hostile_milestone_title_stays_inside_its_comment(sandbox, tmp_path, capsys):
    core = sandbox.github.repos["acme/torchlet"]
    core.milestones[13].title = '2.6.0\n[storage]\nindex_url = "https://evil.example"\x1b[2J'
    out = tmp_path / "init.toml"
    assert (
        main(
            [
                "init",
                "--repository",
                "acme/torchlet",
                "--version",
                "2.5.1",
                "--clone",
                sandbox.world.clone_path,
                "--api-url",
                sandbox.github_url,
                "--output",
                str(out),
            ]
        )
        == 0
    )
    text = out.read_text(encoding="utf-8")
    assert "\x1b" not in text and not any(line.startswith(("[storage]", "index_url")) for line in text.splitlines())
    assert load_config(out).storage.index_url == ""
    assert "\x1b" not in capsys.readouterr().out
