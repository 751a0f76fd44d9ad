"""A key the cockpit does not know is not silently dropped: a warning names it and the nearest known key,
and the command that opens the config says it once on stderr."""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

import pytest

from cockpit.cli.commands import load
from cockpit.config import parse_config
from cockpit.errors import ConfigError

PATH = Path("/releases/2.5/cockpit.toml")
BASE = {"release": {"version": "2.5.0", "repository": "acme/torchlet"}, "git": {"clone": "torchlet"}}


def _with(**tables) -> dict:
    doc = copy.deepcopy(BASE)
    for name, table in tables.items():
        doc[name] = {**doc.get(name, {}), **table}
    return doc


def test_a_misspelt_key_is_named_with_the_key_it_was_probably_meant_to_be():
    config = parse_config(PATH, _with(github={"timout": 5}))
    assert config.warnings == (f"{PATH}: unknown key 'github.timout' is ignored; did you mean 'github.timeout'?",)
    assert config.github.timeout_s == 15.0, "the default stands: the misspelt key is not read"


def test_a_misspelt_table_is_named_too():
    config = parse_config(PATH, _with(uii={"theme": "cockpit-light"}))
    assert config.warnings == (f"{PATH}: unknown key 'uii' is ignored; did you mean 'ui'?",)


def test_a_key_like_no_other_lists_the_known_keys_of_its_table():
    (warning,) = parse_config(PATH, _with(git={"zzz": 1})).warnings
    known = "clone, remote, cut, fork_remote, release_only_patterns"
    assert f"unknown key 'git.zzz' is ignored; the known keys here are {known}" in warning


def test_a_misspelt_required_table_says_what_it_probably_is():
    doc = copy.deepcopy(BASE)
    doc["relase"] = doc.pop("release")
    with pytest.raises(ConfigError) as caught:
        parse_config(PATH, doc)
    assert str(caught.value).endswith("missing key 'release': expected a table (is 'relase' a misspelling of it?)")


def test_tables_that_always_refused_unknown_keys_still_do():
    with pytest.raises(ConfigError, match=r"'evidence.docs_build_entry.branch': expected one of path, ref, repository"):
        parse_config(PATH, _with(evidence={"docs_build_entry": {"branch": "site"}}))


def test_a_config_with_only_known_keys_has_no_warning():
    assert parse_config(PATH, copy.deepcopy(BASE)).warnings == ()


def test_the_command_opening_the_config_says_each_warning_once_on_stderr(tmp_path, capsys):
    path = tmp_path / "cockpit.toml"
    path.write_text('[release]\nversion = "2.5.0"\nrepository = "acme/torchlet"\n[git]\nclone = "t"\nremot = "up"\n')
    load(argparse.Namespace(config=path))
    err = capsys.readouterr().err
    assert err == f"cockpit: warning: {path}: unknown key 'git.remot' is ignored; did you mean 'git.remote'?\n"
