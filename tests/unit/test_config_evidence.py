"""``[evidence]``: each step's table turns it automatic with PyTorch's defaults; mistakes name file and key."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from cockpit.config import parse_config
from cockpit.config.evidence import TritonEvidence, ValidateBinariesEvidence
from cockpit.errors import ConfigError

PATH = Path("/releases/2.5/cockpit.toml")
BASE = {"release": {"version": "2.5.0", "repository": "acme/torchlet"}, "git": {"clone": "torchlet"}}


def _config(evidence):
    return parse_config(PATH, {**copy.deepcopy(BASE), "evidence": evidence})


def test_no_evidence_table_leaves_every_step_to_a_signature():
    config = parse_config(PATH, copy.deepcopy(BASE))
    assert config.evidence.configured == ()
    assert not config.evidence.enabled("docs_build_entry")


def test_an_empty_step_table_takes_the_defaults_that_match_pytorch():
    config = _config({"validate_binaries": {}, "docs_build_entry": {}, "triton_pin_release": {}})
    assert config.evidence.validate_binaries == ValidateBinariesEvidence()
    assert config.evidence.validate_binaries.repository == "pytorch/test-infra"
    assert config.evidence.docs_build_entry.path == "{version_short}/index.html"
    assert config.evidence.triton_pin_release == TritonEvidence()
    assert set(config.evidence.configured) == {"validate_binaries", "docs_build_entry", "triton_pin_release"}


def test_a_pr_given_by_its_address_is_read_by_number():
    config = _config({"release_matrix_pr": {"url": "https://github.com/pytorch/pytorch.github.io/pull/1790"}})
    pr = config.evidence.release_matrix_pr
    assert (pr.repository, pr.number) == ("pytorch/pytorch.github.io", 1790)


def test_the_triton_versions_map_pinned_commits_to_releases():
    config = _config({"triton_pin_release": {"versions": {"cc0a1f3e9": "3.1.0"}}})
    assert config.evidence.triton_pin_release.versions == (("cc0a1f3e9", "3.1.0"),)


WRONG = [
    ({"docs": {}}, "'evidence.docs'", "one of colab_issue"),
    ({"docs_build_entry": []}, "'evidence.docs_build_entry'", "a table"),
    ({"docs_build_entry": {"branch": "site"}}, "'evidence.docs_build_entry.branch'", "one of path, ref, repository"),
    ({"docs_build_entry": {"repository": "docs"}}, "'evidence.docs_build_entry.repository'", "'owner/name'"),
    ({"docs_build_entry": {"path": "{release}/index.html"}}, "'evidence.docs_build_entry.path'", "{version_short}"),
    ({"validate_binaries": {"workflow": ""}}, "'evidence.validate_binaries.workflow'", "a non-empty string"),
    ({"validation_issue": {"title": 3}}, "'evidence.validation_issue.title'", "a title form"),
    ({"release_matrix_pr": {"title": []}}, "'evidence.release_matrix_pr.title'", "a title form"),
    ({"validation_comments": {"max_issues": 0}}, "'evidence.validation_comments.max_issues'", "a number >= 1"),
    (
        {"release_matrix_pr": {"url": "https://github.com/o/r/issues/3"}},
        "'evidence.release_matrix_pr.url'",
        "/pull/123",
    ),
    ({"triton_pin_release": {"versions": {"main": "3.1.0"}}}, "'evidence.triton_pin_release.versions.main'", "hex"),
    ({"triton_pin_release": {"versions": {"cc0a1f3e9": 3}}}, "versions.cc0a1f3e9'", "a triton version"),
]


@pytest.mark.parametrize(("evidence", "key", "expected"), WRONG, ids=[w[1] for w in WRONG])
def test_a_mistake_in_the_evidence_table_names_the_file_the_key_and_what_was_expected(evidence, key, expected):
    with pytest.raises(ConfigError) as caught:
        _config(evidence)
    message = str(caught.value)
    assert str(PATH) in message and key in message and expected in message, message
    assert "\n" not in message
