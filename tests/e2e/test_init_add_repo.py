"""``cockpit init --add-repo``: a release manager adds a domain library to the cockpit.toml of the core,
the library found from its clone and GitHub, the rest of the file left byte for byte as it was."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cockpit.cli.main import main
from cockpit.config import load_config


def git(path: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture()
def core_config(multi_sandbox, tmp_path) -> Path:
    """The core's config as 'cockpit init' writes it, before any library is added."""
    (tmp_path / "core").mkdir()
    out = tmp_path / "core" / "cockpit.toml"
    flags = ["--repository", "acme/torchlet", "--version", "2.5.0", "--clone", multi_sandbox.world.clone_path]
    assert main(["init", *flags, "--api-url", multi_sandbox.github_url, "--output", str(out)]) == 0
    return out


@pytest.fixture()
def vision_clone(multi_sandbox, tmp_path) -> Path:
    """A clone of vision whose origin is its GitHub URL, as a release manager's clone is."""
    vision = next(lib for lib in multi_sandbox.world.libraries if lib["name"] == "vision")
    clone = tmp_path / "vision"
    subprocess.run(["git", "clone", "-q", vision["clone_path"], str(clone)], check=True, capture_output=True)
    git(clone, "remote", "set-url", "origin", "https://github.com/acme/vision.git")
    return clone


def add(config: Path, name: str, clone: Path, *flags: str) -> int:
    return main(["init", "--add-repo", name, "--clone", str(clone), "--config", str(config), *flags])


def test_a_library_is_found_from_its_clone_and_github_and_appended_leaving_the_rest_as_it_was(
    core_config, vision_clone, multi_sandbox, capsys
):
    before = core_config.read_text(encoding="utf-8")
    old = load_config(core_config)
    assert add(core_config, "vision", vision_clone) == 0, capsys.readouterr().err
    after = core_config.read_text(encoding="utf-8")
    assert after.startswith(before) and "[[repo]]" in after[len(before) :]

    config = load_config(core_config)
    [vision] = config.repos
    planted = next(lib for lib in multi_sandbox.world.libraries if lib["name"] == "vision")
    assert (vision.name, vision.repository, vision.release.version, vision.release.branch) == (
        "vision",
        "acme/vision",
        planted["version"],
        planted["branch"],
    )
    assert (vision.release.milestone, vision.release.tracker_issue) == (planted["milestone"], planted["tracker_issue"])
    assert vision.clone == vision_clone.resolve() and vision.remote == "origin"
    assert (config.release, config.git, config.ci[0]) == (old.release, old.git, old.ci[0])
    assert [ci.repository for ci in config.ci] == ["acme/torchlet", "acme/vision"]
    assert config.ci[1].branch == planted["branch"]
    said = capsys.readouterr().out
    assert f"added [[repo]] vision (acme/vision {planted['version']}, {planted['branch']})" in said


def test_a_name_or_repository_the_release_already_has_is_refused_and_the_file_is_untouched(
    core_config, vision_clone, capsys
):
    assert add(core_config, "vision", vision_clone) == 0
    once = core_config.read_text(encoding="utf-8")
    capsys.readouterr()
    assert add(core_config, "vision", vision_clone) == 2
    err = capsys.readouterr().err
    assert "--add-repo vision: the release already has a repository named 'vision': repo[0] (acme/vision)" in err
    assert add(core_config, "torchlet", vision_clone) == 2
    assert "the core ([release] name, acme/torchlet)" in capsys.readouterr().err
    assert add(core_config, "tv", vision_clone) == 2
    assert "acme/vision is already in the release: repo[0] (vision)" in capsys.readouterr().err
    assert core_config.read_text(encoding="utf-8") == once


def test_a_clone_whose_remote_names_no_github_repository_asks_for_it(core_config, vision_clone, tmp_path, capsys):
    git(vision_clone, "remote", "set-url", "origin", str(tmp_path / "somewhere.git"))
    before = core_config.read_text(encoding="utf-8")
    assert add(core_config, "vision", vision_clone, "--offline") == 2
    assert "no remote names a GitHub repository" in capsys.readouterr().err
    assert add(core_config, "vision", vision_clone, "--offline", "--repository", "acme/vision") == 0
    [vision] = load_config(core_config).repos
    assert vision.release.milestone is None and core_config.read_text(encoding="utf-8").startswith(before)


def test_adding_to_a_config_that_does_not_exist_says_to_write_the_cores_first(vision_clone, tmp_path, capsys):
    assert add(tmp_path / "none.toml", "vision", vision_clone) == 2
    assert "write the core's config first" in capsys.readouterr().err
