"""The config ``cockpit init`` writes takes its words and defaults from the schema: every key it writes is
one the cockpit reads, and each commented example, uncommented, is read as written and without a warning."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cockpit.cli.init_discover import Discovery, Found
from cockpit.cli.init_template import render
from cockpit.config import parse_config
from cockpit.config.release import GitHubConfig

PATH = Path("/releases/2.5/cockpit.toml")
FOUND = Discovery(
    remote=Found("origin", "found: origin/release/2.5 exists"),
    main=Found("main", "found: the repository's default branch"),
    rc_tags=Found(None, "found: RC tags v2.5.0-rc1"),
    milestone=Found(12, "given: --milestone 12"),
    tracker=Found(None, "TODO: no tracker issue found"),
    required=Found(("pull", "trunk"), "found: runs on release/2.5"),
    binary=Found(("linux-binary-manywheel", "windows-binary-wheel"), "found: ran on v2.5.0-rc2"),
)


def written() -> str:
    return render(version="2.5.0", repository="acme/torchlet", clone=Path("/src/t"), api_url="http://x/", found=FOUND)


def uncommented(text: str) -> str:
    """Each commented-out table (``# [name]`` and its ``# `` lines) uncommented, as a manager would."""
    out, inside = [], False
    for line in text.splitlines():
        inside = line.startswith("# [") or (inside and line.startswith("# "))
        out.append(line[2:] if inside else line)
    return "\n".join(out)


def test_the_written_config_loads_without_a_warning_and_with_the_schemas_defaults():
    config = parse_config(PATH, tomllib.loads(written()))
    assert config.warnings == ()
    assert config.github.timeout_s == GitHubConfig().timeout_s and config.release.tracker_issue is None


def test_every_example_uncommented_loads_as_written_without_a_warning():
    config = parse_config(PATH, tomllib.loads(uncommented(written())))
    assert config.warnings == ()
    assert config.storage.staging_channel == "staging" and dict(config.storage.variants)["rocm7.2"] == (
        "manylinux_2_28_x86_64",
    )
    assert len(config.evidence.configured) == 9 and config.state_path == PATH.with_name("cockpit-state.toml")


def test_each_key_is_explained_in_the_schemas_words():
    text = written()
    assert "# Seconds one request may take before it counts as failed.\ntimeout = 15\n" in text
    assert '# found: origin/release/2.5 exists\nremote = "origin"\n' in text
    assert "# TODO: no tracker issue found\n# tracker_issue = 1234\n" in text


def test_the_binary_builds_found_are_written_and_offline_the_default_is_shown_commented_out():
    text = written()
    assert '# found: ran on v2.5.0-rc2\nbinary_workflows = ["linux-binary-manywheel", "windows-binary-wheel"]\n' in text
    [ci] = parse_config(PATH, tomllib.loads(text)).ci
    assert ci.binary_workflows == ("linux-binary-manywheel", "windows-binary-wheel")
    offline = render(
        version="2.5.0",
        repository="acme/torchlet",
        clone=Path("/src/t"),
        api_url="http://x/",
        found=Discovery(remote=FOUND.remote, main=FOUND.main, rc_tags=FOUND.rc_tags),
    )
    assert '\n# binary_workflows = ["linux-binary-manywheel", ' in offline
    assert '\nrequired = ["pull", "trunk", "Lint"]\n' in offline
