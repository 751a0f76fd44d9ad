"""A release of the core and its domain libraries, described with ``[[repo]]``; today's configs unchanged."""

from pathlib import Path

import pytest

from cockpit.config import load_config
from cockpit.errors import ConfigError

CORE = """
[release]
version = "2.5.0"
repository = "acme/torchlet"
milestone = 12
tracker_issue = 4000

[git]
clone = "torchlet"

[[ci]]
repository = "acme/torchlet"

[[ci]]
repository = "acme/vision"
branch = "release/0.20"

[storage]
index_url = "http://127.0.0.1:9"
packages = ["torchlet"]
"""

VISION = """
[[repo]]
name = "vision"
repository = "acme/vision"
version = "0.20.0"
milestone = "0.20.0"
tracker_issue = 77
clone = "vision"
rc_tag_pattern = "v{version}-rc{n}"
packages = ["torchvision"]
core_pins = ["requirements.txt"]

[[repo]]
name = "audio"
repository = "acme/audio"
version = "2.5.0"
clone = "/elsewhere/audio"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cockpit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_config_from_today_is_one_repository_the_core(tmp_path):
    config = load_config(write(tmp_path, CORE))
    assert [r.name for r in config.repositories] == ["torchlet"]
    core = config.core
    assert core.core and core.release == config.release and core.clone == tmp_path / "torchlet"
    assert core.packages == ("torchlet",) and config.repos == ()
    assert config.for_repo("torchlet") is config


def test_each_domain_library_has_its_own_version_branch_milestone_tracker_clone_and_packages(tmp_path):
    config = load_config(write(tmp_path, CORE + VISION))
    assert [r.name for r in config.repositories] == ["torchlet", "vision", "audio"]
    vision, audio = config.repos
    assert vision.release.branch == "release/0.20" and vision.release.milestone == "0.20.0"
    assert vision.release.tracker_issue == 77 and vision.clone == tmp_path / "vision"
    assert vision.packages == ("torchvision",) and vision.core_pins == ("requirements.txt",)
    assert audio.clone == Path("/elsewhere/audio") and audio.release.main == "main" and audio.packages == ()


def test_a_library_is_judged_through_a_single_repository_view_of_the_config(tmp_path):
    config = load_config(write(tmp_path, CORE + VISION))
    view = config.for_repo("vision")
    assert view.release.repository == "acme/vision" and view.release.version == "0.20.0"
    assert view.git.clone == tmp_path / "vision" and view.storage.packages == ("torchvision",)
    assert [t.repository for t in view.ci] == ["acme/vision"] and view.repos == ()
    assert view.storage.index_url == config.storage.index_url and view.core_name == "vision"


def test_an_unknown_repository_name_lists_the_configured_ones(tmp_path):
    config = load_config(write(tmp_path, CORE + VISION))
    with pytest.raises(ConfigError, match=r"no repository named 'text'.*torchlet, vision, audio"):
        config.repo_named("text")


def test_the_core_can_be_given_a_short_name(tmp_path):
    config = load_config(
        write(tmp_path, CORE.replace("tracker_issue = 4000", 'tracker_issue = 4000\nname = "pytorch"'))
    )
    assert config.core.name == "pytorch"


@pytest.mark.parametrize(
    ("old", "new", "key", "expected"),
    [
        ('version = "0.20.0"', 'version = "0.20"', "repo[0] (vision).version", "a release version"),
        ('name = "vision"', 'name = "Vision Lib"', "repo[0].name", "a short name"),
        ('name = "audio"', 'name = "vision"', "repo[1].name", "a name used once"),
        ('name = "audio"', 'name = "torchlet"', "repo[1].name", "the core"),
        ('repository = "acme/audio"', 'repository = "audio"', "repo[1] (audio).repository", "'owner/name'"),
        ('repository = "acme/audio"', 'repository = "acme/torchlet"', "repo[1] (audio).repository", "other than"),
        ('clone = "vision"', "clone = 3", "repo[0] (vision).clone", "a string"),
        (
            'rc_tag_pattern = "v{version}-rc{n}"',
            'rc_tag_pattern = "v{version}"',
            "repo[0] (vision).rc_tag_pattern",
            "one '{n}'",
        ),
        (
            'core_pins = ["requirements.txt"]',
            'core_pins = "requirements.txt"',
            "repo[0] (vision).core_pins",
            "a list of strings",
        ),
        ('packages = ["torchvision"]', 'pakages = ["torchvision"]', "repo[0] (vision).pakages", "one of name"),
    ],
)
def test_a_wrong_repository_entry_names_the_file_the_entry_and_the_key(tmp_path, old, new, key, expected):
    text = CORE + VISION
    assert old in text
    path = write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message and f"'{key}'" in message and expected in message


def test_a_missing_clone_of_a_library_is_a_clear_error(tmp_path):
    text = (CORE + VISION).replace('clone = "/elsewhere/audio"\n', "")
    with pytest.raises(ConfigError, match=r"missing key 'repo\[1\] \(audio\).clone'"):
        load_config(write(tmp_path, text))
