"""Every key of cockpit.toml, missing or of the wrong type: one line naming the file, the key and
what was expected (the table below walks all of them)."""

from __future__ import annotations

import copy
from datetime import date, datetime
from pathlib import Path

import pytest

from cockpit.config import parse_config
from cockpit.config.document import Document
from cockpit.config.kinds import Retired
from cockpit.config.tables import Lazy, Table, Tables, walk
from cockpit.errors import ConfigError

PATH = Path("/releases/2.5/cockpit.toml")
GOOD = {
    "release": {
        "version": "2.5.0",
        "repository": "acme/torchlet",
        "branch": "release/2.5",
        "main": "main",
        "milestone": 12,
        "tracker_issue": 4000,
        "tracker_titles": ["[v{version}] Release Tracker"],
        "skip_labels": ["x"],
        "validation_comment": "ok {version}",
        "final_rc_date": "2026-12-10",
        "phase_cutoff": "2026-11-20",
        "name": "torchlet",
        "rc_tag_pattern": "v{version}-rc{n}",
        "merge_method": "squash",
    },
    "github": {
        "api_url": "https://api.github.com",
        "timeout": 5,
        "max_rate_limit_wait": 5,
        "retries": 2,
        "refresh_interval": 60,
        "auth": "auto",
    },
    "git": {"clone": "torchlet", "remote": "origin", "cut": "", "release_only_patterns": ["^Bump"]},
    "ci": [
        {
            "repository": "acme/vision",
            "branch": "release/2.5",
            "required": ["pull"],
            "binary_workflows": ["linux-binary-manywheel"],
            "binary_workflow": "b",
            "unstable_jobs": ["flaky"],
        }
    ],
    "storage": {
        "index_url": "http://x",
        "pypi_url": "http://x",
        "packages": ["torchlet"],
        "platforms": ["linux"],
        "python_tags": ["cp312"],
        "build_matrix_repository": "acme/test-infra",
        "build_matrix_file": "tools/scripts/generate_binary_build_matrix.py",
        "size_limit_mb": 1000,
        "size_warn_mb": 800,
        "release_date": "2026-03-01",
        "variants": {"cu126": ["manylinux_2_28_x86_64", "win_amd64"]},
        "staging_channel": "staging",
        "staging_platforms": ["win_amd64"],
        "size_jump_ratio": 1.1,
        "size_jump_mb": 50,
        "pypi_bound": {"cu130": ["manylinux_2_28_x86_64"]},
        "staging_prefix": "s3://bucket/{package}-{version}-pypi-staging/",
        "staging_endpoint_url": "http://127.0.0.1:5000",
    },
    "ui": {"stale_days": 7, "theme": "dark"},
    "keymap": {"app.quit": "ctrl+q"},
    "checklist": {"template": "steps.toml"},
    "state": {"path": "state.toml"},
}

# (dotted key, a wrong value, words the expectation must contain)
WRONG = [
    ("release", "2.5.0", "a table"),
    ("release.version", 25, "a string"),
    ("release.version", "two", "a release version"),
    ("release.repository", "torchlet", "'owner/name'"),
    ("release.repository", ["acme/torchlet"], "a string"),
    ("release.branch", 2.5, "a string"),
    ("release.main", True, "a string"),
    ("release.milestone", 1.5, "a milestone number or title"),
    ("release.tracker_issue", "4000", "an issue number"),
    ("release.tracker_titles", [], "a title form or a list of them"),
    ("release.tracker_titles", "[{verison}] Release Tracker", "title forms using only {version}"),
    ("release.skip_labels", "x", "a list of strings"),
    ("release.skip_labels", [1], "a list of strings"),
    ("release.validation_comment", 3, "a string"),
    ("release.final_rc_date", "10/12/2026", 'an ISO date like "2026-12-10"'),
    ("release.final_rc_date", 20261210, 'an ISO date like "2026-12-10"'),
    ("release.final_rc_date", datetime(2026, 12, 10, 9, 0), "a day, not a time"),
    ("release.phase_cutoff", "22/6/26", 'an ISO date like "2026-12-10"'),
    ("release.name", "Torch Let", "a short name of lower-case letters"),
    ("release.rc_tag_pattern", "v{version}", "one '{n}'"),
    ("release.merge_method", "fast-forward", "'merge' or 'squash' or 'rebase'"),
    ("github", [], "a table"),
    ("github.api_url", 1, "a string"),
    ("github.timeout", "5", "a number"),
    ("github.timeout", 0, "a number >= 0.1"),
    ("github.max_rate_limit_wait", True, "a number"),
    ("github.retries", -1, "a number >= 0"),
    ("github.refresh_interval", 1, "a number >= 5"),
    ("github.auth", "token", "'auto' or 'none'"),
    ("git", "torchlet", "a table"),
    ("git.clone", 7, "a string"),
    ("git.clone", "", "a non-empty string"),
    ("git.remote", ["origin"], "a string"),
    ("git.cut", 1, "a string"),
    ("git.fork_remote", 5, "a string"),
    ("git.release_only_patterns", "^Bump", "a list of strings"),
    ("ci", {"repository": "acme/vision"}, "an array of tables"),
    ("ci[0]", "acme/vision", "a table"),
    ("ci[0].repository", "vision", "'owner/name'"),
    ("ci[0].branch", 2, "a string"),
    ("ci[0].required", "pull", "a list of strings"),
    ("ci[0].binary_workflows", "linux-binary-manywheel", "a list of strings"),
    ("ci[0].binary_workflow", False, "a string"),
    ("ci[0].unstable_jobs", [None], "a list of strings"),
    ("storage", 1, "a table"),
    ("storage.index_url", 1, "a string"),
    ("storage.pypi_url", 1, "a string"),
    ("storage.packages", "torchlet", "a list of strings"),
    ("storage.platforms", [1], "a list of strings"),
    ("storage.python_tags", "cp312", "a list of strings"),
    ("storage.build_matrix_repository", "test-infra", "'owner/name'"),
    ("storage.build_matrix_file", "", "a non-empty string"),
    ("storage.build_matrix_file", 3, "a string"),
    ("storage.size_limit_mb", "big", "a number"),
    ("storage.size_warn_mb", 0, "a number >= 1"),
    ("storage.release_date", 20260301, "a string"),
    ("storage.staging_channel", 1, "a string"),
    ("storage.staging_platforms", "win_amd64", "a list of strings"),
    ("storage.variants", ["cu126"], "a table"),
    ("storage.size_jump_ratio", 0.5, "a number >= 1"),
    ("storage.size_jump_mb", -1, "a number >= 0"),
    ("storage.pypi_bound", ["cu130"], "a table"),
    ("storage.pypi_bound.cu130", [], "a non-empty list of platform tags"),
    ("storage.staging_prefix", "https://example.com/staging/", "an S3 URL"),
    ("storage.staging_endpoint_url", 5000, "a string"),
    ("storage.variants.cu126", "win_amd64", "a list of strings"),
    ("storage.variants.cu126", [], "a non-empty list of platform tags"),
    ("storage.variants.cu126", {"3": ["linux_x86_64"]}, "a name with a dot must be quoted"),
    ("storage.variants.cu 126", ["win_amd64"], "a variant name such as cu126"),
    ("ui", "dark", "a table"),
    ("ui.stale_days", "7", "a number"),
    ("ui.theme", 1, "a string"),
    ("keymap", "vim", "a table"),
    ("keymap.app.quit", 1, "a key string"),
    ("checklist.template", 1, "a string"),
    ("state.path", 1, "a string"),
]
REQUIRED = ["release", "release.version", "release.repository", "git", "git.clone", "ci[0].repository"]


def _split(dotted: str) -> list[str | int]:
    if dotted.startswith("keymap."):
        return ["keymap", dotted.split(".", 1)[1]]
    parts: list[str | int] = []
    for part in dotted.split("."):
        if part.endswith("]"):
            name, index = part[:-1].split("[")
            parts += [name, int(index)]
        else:
            parts.append(part)
    return parts


def _with(dotted: str, value=..., *, remove: bool = False) -> dict:
    doc = copy.deepcopy(GOOD)
    *parents, last = _split(dotted)
    node = doc
    for part in parents:
        node = node[part]
    if remove:
        del node[last]
    else:
        node[last] = value
    return doc


def _one_line_error(doc: dict) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(PATH, doc)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert str(PATH) in message
    return message


def test_the_complete_config_is_accepted():
    config = parse_config(PATH, copy.deepcopy(GOOD))
    assert config.release.version == "2.5.0" and config.keymap == {"app.quit": "ctrl+q"}
    assert config.final_rc_date == date(2026, 12, 10)


def test_the_final_rc_target_may_be_a_toml_date_or_left_out():
    doc = copy.deepcopy(GOOD)
    doc["release"]["final_rc_date"] = date(2026, 12, 11)
    assert parse_config(PATH, doc).final_rc_date == date(2026, 12, 11)
    del doc["release"]["final_rc_date"]
    assert parse_config(PATH, doc).final_rc_date is None


@pytest.mark.parametrize(("key", "value", "expected"), WRONG, ids=[f"{k}={v!r}" for k, v, _e in WRONG])
def test_a_wrong_value_names_the_key_and_what_was_expected(key, value, expected):
    message = _one_line_error(_with(key, value))
    assert f"'{key}'" in message, message
    assert expected in message, message


@pytest.mark.parametrize("key", REQUIRED)
def test_a_missing_required_key_is_named(key):
    message = _one_line_error(_with(key, remove=True))
    assert f"missing key '{key}'" in message, message


def test_every_key_of_the_config_is_in_the_table():
    """A key added to cockpit.toml must be added to WRONG too."""

    def leaves(node, prefix=""):
        for name, value in node.items():
            dotted = f"{prefix}{name}"
            if isinstance(value, dict) and name != "keymap":
                yield from leaves(value, dotted + ".")
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                yield from leaves(value[0], f"{dotted}[0].")
            else:
                yield dotted

    covered = {k for k, _v, _e in WRONG}
    assert set(leaves(GOOD)) - covered - {"keymap"} == set()


def test_every_key_the_schema_declares_for_these_tables_is_in_the_table():
    """The other way round: a key declared in cockpit/config/ is in GOOD (and so in WRONG)."""
    covered = {k for k, _v, _e in WRONG}
    elsewhere = ("schedule", "evidence", "repo")  # test_patch_release, test_config_evidence, test_config_repos
    declared = set()
    for header, _schema, key in walk(Document):
        retired = isinstance(key.key.kind, Retired)  # any value loads, with a warning: nothing is wrong
        if (
            isinstance(key.key.kind, Table | Tables | Lazy)
            or retired
            or header.split(".")[0] in elsewhere
            or not header
        ):
            continue
        declared.add(f"{header}[0].{key.name}" if header == "ci" else f"{header}.{key.name}")
    assert declared - covered == set()


def test_free_threaded_is_retired_with_a_warning_naming_the_key_and_the_build_matrix():
    """``[storage] free_threaded`` chose free-threaded wheels by a rule; the build matrix (3.13t) decides now."""
    doc = _with("storage.free_threaded", True)
    config = parse_config(PATH, doc)
    (warning,) = [w for w in config.warnings if "free_threaded" in w]
    assert "'storage.free_threaded'" in warning and "no longer used" in warning and "build matrix" in warning
    assert str(PATH) in warning


def test_the_build_matrix_is_read_from_the_profiles_repository_and_file_by_default():
    from cockpit.profile import load_profile

    doc = copy.deepcopy(GOOD)
    del doc["storage"]["build_matrix_repository"], doc["storage"]["build_matrix_file"]
    st = parse_config(PATH, doc).storage
    profile = load_profile("pytorch")
    assert st.build_matrix_repository == profile.text("python.matrix_repository") == "pytorch/test-infra"
    assert st.build_matrix_file == profile.text("python.matrix_file")
    assert "read from build_matrix_repository/build_matrix_file (by default pytorch/test-infra/tools/" in _doc_of(
        "python_tags"
    )


def _doc_of(name: str) -> str:
    from cockpit.config.storage import StorageConfig

    return StorageConfig.__dataclass_fields__[name].metadata["key"].doc
