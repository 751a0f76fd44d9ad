"""A domain library built against another core release, or staged at another version, turns the release red."""

from __future__ import annotations

import pytest

from cockpit.domain.gates import GateStatus
from cockpit.services.coherence import coherence_gate, pinned_version, wheel_versions


@pytest.mark.parametrize(
    ("text", "pinned"),
    [
        ("numpy\ntorch==2.5.0\npillow>=5\n", "2.5.0"),
        ("torch ~= 2.5.0  # the core\n", "2.5.0"),
        ("Torch[opt]===2.5.0\n", "2.5.0"),
        ("2.5.0\n", "2.5.0"),
        ("# pinned by the release script\nv2.4.1\n", "2.4.1"),
        ("torch>=2.5.0\n", None),
        ("torchvision==0.20.0\n", None),
        ("", None),
    ],
)
def test_the_pinned_core_version_is_read_from_requirements_or_a_version_file(text, pinned):
    assert pinned_version(text, "torch") == pinned


def test_a_pin_of_the_previous_core_release_is_red_and_names_both_versions():
    gate = coherence_gate(
        library="audio",
        core_package="torch",
        core_version="2.5.0",
        pins=[("requirements.txt", "torch==2.4.0\n")],
        version="2.5.0",
        index_versions={"torchaudio": {"2.5.0"}},
    )
    assert gate.name == "versions_coherent[audio]" and gate.status is GateStatus.RED
    assert "pins torch 2.4.0, the core is 2.5.0" in gate.summary


def test_wheels_of_another_version_in_the_rc_index_are_red():
    found = wheel_versions(
        [
            "torchvision-0.20.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl",
            "torchvision-0.19.1-cp312-cp312-win_amd64.whl",
            "README.txt",
        ]
    )
    assert found == {"torchvision": {"0.20.0", "0.19.1"}}
    gate = coherence_gate(
        library="vision", core_package="torch", core_version="2.5.0", pins=[], version="0.20.0", index_versions=found
    )
    assert gate.status is GateStatus.RED and "torchvision 0.19.1, the release is 0.20.0" in gate.summary


def test_a_matching_pin_and_index_are_green():
    gate = coherence_gate(
        library="vision",
        core_package="torch",
        core_version="2.5.0",
        pins=[("requirements.txt", "torch==2.5.0\n")],
        version="0.20.0",
        index_versions={"torchvision": {"0.20.0"}},
    )
    assert gate.status is GateStatus.GREEN and "torch 2.5.0" in gate.summary


@pytest.mark.parametrize(
    ("pins", "unread", "said"),
    [
        ([("requirements.txt", None)], (), "requirements.txt is not on the release branch"),
        ([("version.txt", "torch>=2\n")], (), "version.txt pins no torch version"),
        ([], ("the core pin on release/0.20 could not be read: no clone",), "no clone"),
    ],
)
def test_a_pin_that_cannot_be_known_is_unknown_with_the_reason(pins, unread, said):
    gate = coherence_gate(
        library="vision",
        core_package="torch",
        core_version="2.5.0",
        pins=pins,
        version="0.20.0",
        index_versions={},
        unread=unread,
    )
    assert gate.status is GateStatus.UNKNOWN and said in gate.summary


def test_a_file_is_read_from_a_commit_of_the_clone(tmp_path):
    from cockpit.adapters.git import GitRepo
    from cockpit.errors import GitError
    from tests.gitrepo import RepoBuilder

    builder = RepoBuilder(tmp_path / "vision")
    builder.commit("Pin torch", files={"requirements.txt": "torch==2.5.0\n"})
    repo = GitRepo(tmp_path / "vision", read_only=True)
    assert repo.file_at("main", "requirements.txt") == "torch==2.5.0\n"
    assert repo.file_at("main", "version.txt") is None
    with pytest.raises(GitError, match="inside the repository"):
        repo.file_at("main", "../secrets")
    with pytest.raises(GitError, match="names no commit"):
        repo.file_at("release/9.9", "requirements.txt")
