"""``cockpit init``: a release manager writes the config for a real release from a few flags."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cockpit.cli.main import main
from cockpit.config import load_config


def init(*flags: str) -> int:
    return main(["init", *flags])


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture()
def clone_with_remote_branch_only(tmp_path) -> Path:
    """A clone that has ``origin/release/3.1`` but never checked the branch out locally."""
    remote, clone = tmp_path / "remote.git", tmp_path / "clone"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(tmp_path, "init", "-q", "-b", "main", str(clone))
    git(clone, "commit", "-q", "--allow-empty", "-m", "initial")
    git(clone, "remote", "add", "upstream", str(remote))
    git(clone, "push", "-q", "upstream", "main:main", "main:release/3.1")
    git(clone, "fetch", "-q", "upstream")
    return clone


def test_init_writes_a_commented_config_that_the_cockpit_loads(sandbox, tmp_path, capsys):
    clone = Path(sandbox.config.git.clone)
    out = tmp_path / "release" / "cockpit.toml"
    out.parent.mkdir()
    assert (
        init(
            "--repository",
            "acme/torchlet",
            "--version",
            "2.5.0",
            "--milestone",
            "12",
            "--tracker",
            "95056",
            "--clone",
            str(clone),
            "--api-url",
            sandbox.github_url + "/",
            "--output",
            str(out),
        )
        == 0
    )
    said = capsys.readouterr().out.splitlines()
    assert said[-2:] == [f"wrote {out}", f"next: cockpit --config {out} check"]
    assert "milestone = 12   # given: --milestone 12" in said
    assert "tracker_issue = 95056   # given: --tracker 95056" in said

    config = load_config(out)
    release = config.release
    assert (release.version, release.repository, release.branch) == ("2.5.0", "acme/torchlet", "release/2.5")
    assert (release.milestone, release.tracker_issue) == (12, 95056)
    assert config.git.clone == clone.resolve() and config.git.remote == "origin"
    assert config.github.api_url == sandbox.github_url
    assert [(t.repository, t.branch) for t in config.ci] == [("acme/torchlet", "release/2.5")]

    # Every key written is explained by the comment right above it.
    lines = out.read_text(encoding="utf-8").splitlines()
    keys = [i for i, line in enumerate(lines) if line and not line.startswith(("#", "["))]
    assert len(keys) >= 15
    assert [lines[i] for i in keys if not lines[i - 1].startswith("#")] == []


def test_the_written_config_drives_a_real_check_of_the_release(sandbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GH_TOKEN", "sandbox-token")  # auth = "auto" reads it first
    out = tmp_path / "mine.toml"
    assert (
        init(
            "--repository",
            "acme/torchlet",
            "--version",
            "2.5.0",
            "--milestone",
            "12",
            "--tracker",
            "95056",
            "--clone",
            str(sandbox.config.git.clone),
            "--api-url",
            sandbox.github_url,
            "--output",
            str(out),
        )
        == 0
    )
    capsys.readouterr()
    assert main(["--config", str(out), "check"]) == 1  # the sandbox release is planted as no-go
    said = capsys.readouterr()
    assert said.out.startswith("NO-GO") and "red: Milestone empty" in said.out
    assert "Traceback" not in said.err


def test_a_milestone_title_and_no_tracker_are_written_as_such(clone_with_remote_branch_only, tmp_path):
    out = tmp_path / "cockpit.toml"
    assert (
        init(
            "--repository",
            "acme/torchlet",
            "--version",
            "3.1.2",
            "--milestone",
            "3.1.2",
            "--offline",
            "--clone",
            str(clone_with_remote_branch_only),
            "--remote",
            "upstream",
            "--output",
            str(out),
        )
        == 0
    )
    config = load_config(out)
    assert config.release.milestone == "3.1.2" and config.release.tracker_issue is None
    assert config.release.branch == "release/3.1" and config.git.remote == "upstream"
    assert "# tracker_issue = 1234" in out.read_text(encoding="utf-8")


def test_init_never_overwrites_a_config_without_force(clone_with_remote_branch_only, tmp_path, capsys):
    out = tmp_path / "cockpit.toml"
    out.write_text("# my hand-tuned config\n", encoding="utf-8")
    flags = (
        "--repository",
        "acme/torchlet",
        "--version",
        "3.1.0",
        "--clone",
        str(clone_with_remote_branch_only),
        "--remote",
        "upstream",
        "--output",
        str(out),
        "--offline",
    )
    assert init(*flags) == 2
    assert capsys.readouterr().err == f"cockpit init: --output {out}: already exists; pass --force to overwrite it\n"
    assert out.read_text(encoding="utf-8") == "# my hand-tuned config\n"
    assert init(*flags, "--force") == 0
    assert load_config(out).release.version == "3.1.0"


def test_every_bad_flag_is_one_line_and_nothing_is_written(tmp_path, capsys):
    out = tmp_path / "cockpit.toml"
    assert (
        init(
            "--repository",
            "torchlet",
            "--version",
            "3.1",
            "--tracker",
            "twelve",
            "--milestone",
            "0",
            "--api-url",
            "api.github.com",
            "--clone",
            str(tmp_path / "nowhere"),
            "--output",
            str(out),
        )
        == 2
    )
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "cockpit init: --version '3.1': expected a release version like 2.5.0",
        "cockpit init: --repository 'torchlet': expected OWNER/NAME, e.g. pytorch/pytorch",
        "cockpit init: --milestone '0': expected a milestone number (1 or more) or its title",
        "cockpit init: --tracker 'twelve': expected the tracker issue's number, a positive integer such as 1234",
        "cockpit init: --api-url 'api.github.com': expected an http(s) URL such as https://api.github.com",
        f"cockpit init: --clone {tmp_path / 'nowhere'}: no such folder; expected your local clone of the repository",
    ]
    assert not out.exists()


def test_required_flags_are_named_when_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert init() == 2
    err = capsys.readouterr().err
    assert "--version is required" in err and "--repository is required" in err
    assert f"--clone {tmp_path.resolve()}: not a git repository" in err
    assert not (tmp_path / "cockpit.toml").exists()


def test_the_clone_must_have_the_release_branch_of_the_version(clone_with_remote_branch_only, tmp_path, capsys):
    clone = clone_with_remote_branch_only
    assert (
        init(
            "--repository",
            "acme/torchlet",
            "--version",
            "3.2.0",
            "--clone",
            str(clone),
            "--remote",
            "upstream",
            "--output",
            str(tmp_path / "c.toml"),
        )
        == 2
    )
    assert capsys.readouterr().err.splitlines() == [
        f"cockpit init: --clone {clone.resolve()}: has neither release/3.2 nor upstream/release/3.2; "
        f"fetch it (git -C {clone.resolve()} fetch upstream release/3.2), or check --version"
    ]
    assert (
        init(
            "--repository",
            "acme/torchlet",
            "--version",
            "3.1.0",
            "--clone",
            str(clone),
            "--remote",
            "origin",
            "--output",
            str(tmp_path / "c.toml"),
        )
        == 2
    )
    assert "--remote 'origin': the clone" in capsys.readouterr().err
    assert (
        init(
            "--repository",
            "acme/torchlet",
            "--version",
            "3.2.0",
            "--clone",
            str(clone),
            "--output",
            str(tmp_path / "c.toml"),
        )
        == 2
    )
    assert capsys.readouterr().err.splitlines() == [
        f"cockpit init: --clone {clone.resolve()}: neither release/3.2 nor any remote's release/3.2 (upstream); "
        f"fetch it (git -C {clone.resolve()} fetch upstream release/3.2), or check --version"
    ]


@pytest.mark.parametrize("where", ["before", "after"])
def test_init_under_read_only_refuses_and_writes_nothing(clone_with_remote_branch_only, tmp_path, capsys, where):
    out = tmp_path / "cockpit.toml"
    flags = [
        "init",
        "--repository",
        "acme/torchlet",
        "--version",
        "3.1.0",
        "--clone",
        str(clone_with_remote_branch_only),
        "--remote",
        "upstream",
        "--output",
        str(out),
    ]
    argv = ["--read-only", *flags] if where == "before" else [*flags, "--read-only"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cockpit init: --read-only: init writes a config file") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clone", "remote.git"], "nothing written, no temp file"
