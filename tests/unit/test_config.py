"""A release manager's config mistakes get one line naming the file, the key and the expectation."""

from pathlib import Path

import pytest

from cockpit.config import load_config
from cockpit.errors import ConfigError

GOOD = """
[release]
version = "2.5.0"
repository = "acme/torchlet"
milestone = 12
tracker_issue = 4000

[github]
api_url = "http://127.0.0.1:9/"

[git]
clone = "torchlet"

[[ci]]
repository = "acme/vision"
required = ["pull", "trunk"]

[storage]
index_url = "http://127.0.0.1:9"
packages = ["torchlet"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cockpit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_complete_config_describes_the_release(tmp_path):
    config = load_config(write(tmp_path, GOOD))
    assert config.release.branch == "release/2.5"
    assert config.release.milestone == 12
    assert config.github.api_url == "http://127.0.0.1:9"
    assert config.git.clone == tmp_path / "torchlet"
    assert config.ci[0].branch == "release/2.5"
    assert config.ci[0].required_workflows == ("pull", "trunk")
    assert config.resolved_state_path == tmp_path / "cockpit-state.toml"


def test_a_storage_table_written_before_variants_existed_still_means_the_plain_index(tmp_path):
    config = load_config(write(tmp_path, GOOD + 'platforms = ["manylinux_2_28_x86_64", "win_amd64"]\n'))
    assert config.storage.variants == ()
    assert config.storage.indexes == (("", ("manylinux_2_28_x86_64", "win_amd64")),)


def test_variants_name_each_accelerator_index_and_the_platforms_it_publishes(tmp_path):
    text = (
        GOOD
        + """
[storage.variants]
cpu = ["manylinux_2_28_x86_64", "macosx_11_0_arm64"]
cu126 = ["manylinux_2_28_x86_64", "win_amd64"]
"rocm6.3" = ["linux_x86_64"]
"""
    )
    config = load_config(write(tmp_path, text))
    assert config.storage.indexes == (
        ("cpu", ("manylinux_2_28_x86_64", "macosx_11_0_arm64")),
        ("cu126", ("manylinux_2_28_x86_64", "win_amd64")),
        ("rocm6.3", ("linux_x86_64",)),
    )


def test_an_unquoted_variant_name_with_a_dot_says_to_quote_it(tmp_path):
    path = write(tmp_path, GOOD + '\n[storage.variants]\nrocm6.3 = ["linux_x86_64"]\n')
    with pytest.raises(ConfigError, match=r"'storage.variants.rocm6'.*must be quoted: \"rocm6.3\" = \[\.\.\.\]"):
        load_config(path)


@pytest.mark.parametrize(
    "old, new, key, expected",
    [
        ('version = "2.5.0"', 'version = "2.5"', "release.version", "a release version"),
        ('version = "2.5.0"', "version = 2.5", "release.version", "a string"),
        ('repository = "acme/torchlet"', 'repository = "torchlet"', "release.repository", "'owner/name'"),
        ("milestone = 12", "milestone = true", "release.milestone", "a milestone number or title"),
        ('clone = "torchlet"', 'clone = ""', "git.clone", "a non-empty string"),
        ('required = ["pull", "trunk"]', 'required = "pull"', "ci[0].required", "a list of strings"),
        ('packages = ["torchlet"]', "packages = [1]", "storage.packages", "a list of strings"),
    ],
)
def test_a_wrong_value_names_file_key_and_expectation(tmp_path, old, new, key, expected):
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    text = str(err.value)
    assert str(path) in text and f"'{key}'" in text and expected in text
    assert "\n" not in text


def test_a_missing_table_is_named(tmp_path):
    path = write(tmp_path, GOOD.replace('[git]\nclone = "torchlet"\n', ""))
    with pytest.raises(ConfigError, match=r"missing key 'git'"):
        load_config(path)


def test_broken_toml_and_missing_file_are_one_line(tmp_path):
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "[release\nversion="))
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "absent.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe[release]")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(tmp_path / "bin.toml")
