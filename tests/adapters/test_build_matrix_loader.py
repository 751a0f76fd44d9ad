"""The Python builds read from the build matrix generator through the real GitHub adapter and the emulator:
the sandbox's own generator file, one read for every pane, and the profile's copy (said, with the reason)
whenever the file cannot be read or is not what it should be."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cockpit.adapters.github import GitHubClient
from cockpit.config.loading import parse_config
from cockpit.config.pytorch import RELEASE_BUILDS
from cockpit.domain.gates import Gate, GateStatus
from cockpit.loaders.build_matrix import python_builds, with_source
from cockpit.loaders.shared import SharedResults
from cockpit.sandbox import world_matrix
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.world_wheels import PYTHON_TAGS
from cockpit.services.build_matrix import python_tags
from tests.fixtures_world import tiny_world

PROFILE_TAGS = python_tags(RELEASE_BUILDS)


@dataclass
class Ports:
    """What ``python_builds`` reads of the backend: the config, GitHub and the shared results."""

    config: object
    github: GitHubClient
    shared: SharedResults = field(default_factory=SharedResults)


def config(tmp_path: Path, **storage: object) -> object:
    doc = {
        "release": {"version": "2.5.0", "repository": "acme/torchlet"},
        "git": {"clone": str(tmp_path)},
        "storage": {"index_url": "http://unused", "packages": ["torchlet"], **storage},
    }
    return parse_config(tmp_path / "cockpit.toml", doc)


@contextmanager
def github(url: str, **options: object) -> Iterator[GitHubClient]:
    client = GitHubClient(url, None, **options)  # type: ignore[arg-type]
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def world():
    w = tiny_world()
    world_matrix.add_build_matrix(w)
    return w


def served(world, tmp_path, text: str | None = None, **storage: object):
    """``python_builds`` through the emulator; ``text`` replaces the generator file's."""
    if text is not None:
        world.repos[world_matrix.REPOSITORY].files[world_matrix.REF][world_matrix.PATH] = text
    with GitHubEmulator(world) as gh, github(gh.base_url, timeout=2, retries=0) as client:
        ports = Ports(config(tmp_path, **storage), client)
        return python_builds(ports), ports, gh  # type: ignore[arg-type]


def test_the_sandbox_matrix_names_the_worlds_wheels_free_threaded_included(world, tmp_path):
    builds, _ports, gh = served(world, tmp_path)
    assert builds.tags == PYTHON_TAGS == ("cp310", "cp311", "cp312", "cp313", "cp313t")
    assert builds.pypi_tags == PYTHON_TAGS and not builds.fallback
    assert "pytorch/test-infra tools/scripts/generate_binary_build_matrix.py at main" in builds.source
    assert "PYTHON_ARCHES_DICT['release']" in builds.source and "3.13t" in builds.source
    assert [e["path"].split("?")[0] for e in gh.log()] == [
        "/repos/pytorch/test-infra/contents/tools/scripts/generate_binary_build_matrix.py"
    ]


def test_one_read_serves_every_pane_within_the_reuse_window(world, tmp_path):
    with GitHubEmulator(world) as gh, github(gh.base_url, timeout=2) as client:
        ports = Ports(config(tmp_path), client)
        first = python_builds(ports)  # type: ignore[arg-type]
        again = python_builds(ports)  # type: ignore[arg-type]
        assert first == again and len(gh.log()) == 1


def test_configured_tags_win_and_nothing_is_read(world, tmp_path):
    builds, _ports, gh = served(world, tmp_path, python_tags=["cp312"])
    assert builds.tags == ("cp312",) and builds.source == "Python builds: cp312 ([storage] python_tags)"
    assert gh.log() == []


def test_a_missing_file_falls_back_to_the_profile_and_says_404(world, tmp_path):
    builds, _ports, _gh = served(world, tmp_path, build_matrix_file="tools/scripts/nope.py")
    assert builds.fallback and builds.tags == PROFILE_TAGS
    assert builds.source.startswith("Python builds: the profile's copy")
    assert "build matrix unreadable: pytorch/test-infra has no tools/scripts/nope.py at main (404)" in builds.source


def test_a_missing_repository_falls_back_too(world, tmp_path):
    builds, _ports, _gh = served(world, tmp_path, build_matrix_repository="acme/nowhere")
    assert builds.fallback and "acme/nowhere has no" in builds.source


HOSTILE = [
    ("not python", "<html><body>rate limited</body></html>", "is not Python"),
    ("nul byte", "PYTHON_ARCHES_DICT = {'release': ['3.12']}\x00", "is not Python"),
    ("too deep", "X = " + "[" * 5000 + "]" * 5000, "is not Python"),
    ("dictionaries missing", "CUDA_ARCHES_DICT = {}\n", "no STABLE_CUDA_VERSIONS"),
    ("no release channel", world_matrix.generator_text().replace("'release'", "'beta'"), "no 'release'"),
    (
        "python a string",
        world_matrix.generator_text().replace(
            "PYTHON_ARCHES_DICT = ", "PYTHON_ARCHES_DICT = {'release': '3.12'}\n_ = "
        ),
        "must be a list",
    ),
    (
        "numbers",
        world_matrix.generator_text().replace("'3.10', '3.11'", "3.10, 3.11"),
        "must be a list of version strings",
    ),
    (
        "code, not a literal",
        "PYTHON_ARCHES_DICT = __import__('os').system('true')\nSTABLE_CUDA_VERSIONS = {'release': '1'}",
        "not a literal",
    ),
    ("unhashable key", "STABLE_CUDA_VERSIONS = {[1]: 2}", "not a literal"),
    ("not a build", world_matrix.generator_text(("3.10", "\x1b[2Jthree")), "is not a Python build"),
    ("empty release", world_matrix.generator_text(()), "lists no Python build"),
]


@pytest.mark.parametrize(("text", "said"), [(t, s) for _n, t, s in HOSTILE], ids=[n for n, _t, _s in HOSTILE])
def test_a_malformed_matrix_falls_back_to_the_profile_with_the_reason(world, tmp_path, text, said):
    builds, _ports, _gh = served(world, tmp_path, text)
    assert builds.fallback and builds.tags == PROFILE_TAGS
    assert "build matrix unreadable: " in builds.source and said in builds.source
    assert "\x1b" not in builds.source and "\n" not in builds.source


def test_a_file_that_is_not_utf8_text_falls_back(world, tmp_path):
    from cockpit.sandbox import github_evidence_routes

    real = github_evidence_routes.content_json

    def latin1(u, ref, path, text):
        body = real(u, ref, path, text)
        body["content"] = "//79/g==\n"  # 0xff 0xfe 0xfd 0xfe: not UTF-8
        return body

    github_evidence_routes.content_json = latin1
    try:
        builds, _ports, _gh = served(world, tmp_path)
    finally:
        github_evidence_routes.content_json = real
    assert builds.fallback and "sent no UTF-8 text" in builds.source


def test_unreachable_github_falls_back_and_the_next_load_tries_again(world, tmp_path):
    with GitHubEmulator(world) as gh:
        url = gh.base_url
    with github(url, timeout=1, retries=0) as client:  # nothing listens there any more
        ports = Ports(config(tmp_path), client)
        builds = python_builds(ports)  # type: ignore[arg-type]
        assert builds.fallback and "build matrix unreadable" in builds.source
        assert ports.shared.build_matrix.last is None  # a failure is not kept: the next load reads again


def test_the_gate_states_the_source_and_a_fallback_in_its_summary_too(world, tmp_path):
    green = Gate("rc_artifacts", "RC wheels", GateStatus.GREEN, "all 20 expected wheels staged", ("x",))
    read, _p, _g = served(world, tmp_path)
    shown = with_source(green, read)
    assert shown.summary == green.summary and shown.details == (read.source, "x")
    guessed, _p, _g = served(world, tmp_path, "not python at all (")
    shown = with_source(green, guessed)
    assert "the profile's copy" in shown.summary and shown.details[0] == guessed.source
