"""release_versions.sh read as data, and the release_versions gate, told as the release manager meets them.

The real file (pytorch/test-infra ``release/release_versions.sh``) is about twenty lines
``NAME=${NAME:-X.Y.Z}`` plus two that copy another variable; the texts below have its shape with our
own numbers.
"""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from cockpit.domain.gates import GateStatus
from cockpit.domain.release_versions import ExpectedVersion
from cockpit.services.release_versions import (
    expected_versions,
    own_packages,
    parse_release_versions,
    release_versions_gate,
    variable_for,
)

SHAPED_LIKE_THE_REAL_FILE = """#!/usr/bin/env bash

# Bump these before promoting a release
PYTORCH_VERSION=${PYTORCH_VERSION:-2.14.0}
TORCHVISION_VERSION=${TORCHVISION_VERSION:-0.29.0}
TORCHAUDIO_VERSION=${TORCHAUDIO_VERSION:-2.11.0}
TRITON_VERSION=${TRITON_VERSION:-3.9.0}
TORCH_TENSORRT_VERSION=${TORCH_TENSORRT_VERSION:-2.15.0}
TORCH_TENSORRT_RTX_VERSION=${TORCH_TENSORRT_VERSION}
FBGEMM_GPU_VERSION=${FBGEMM_GPU_VERSION:-1.10.0}
FBGEMM_GPU_GENAI_VERSION=${FBGEMM_GPU_VERSION}
"""


def test_every_assignment_of_the_real_shape_is_read_with_its_line():
    versions = parse_release_versions(SHAPED_LIKE_THE_REAL_FILE)
    assert versions.unread == ()
    assert [a.name for a in versions.assignments][:3] == [
        "PYTORCH_VERSION",
        "TORCHVISION_VERSION",
        "TORCHAUDIO_VERSION",
    ]
    vision = versions.assignment("TORCHVISION_VERSION")
    assert vision is not None and (vision.value, vision.line, vision.overridable) == ("0.29.0", 5, True)


def test_a_variable_that_copies_another_takes_its_value_and_says_so():
    versions = parse_release_versions(SHAPED_LIKE_THE_REAL_FILE)
    rtx = versions.assignment("TORCH_TENSORRT_RTX_VERSION")
    assert rtx is not None and (rtx.value, rtx.refers_to, rtx.overridable) == (
        "2.15.0",
        "TORCH_TENSORRT_VERSION",
        False,
    )
    assert versions.value("FBGEMM_GPU_GENAI_VERSION") == "1.10.0"


def test_plain_quoted_and_exported_assignments_are_read():
    text = "export A_VERSION=1.2.3\nB_VERSION=\"0.4.0\"  # pinned by hand\nC_VERSION='5.0.0rc1'\nD_VERSION=$A_VERSION\n"
    versions = parse_release_versions(text)
    assert [(a.name, a.value) for a in versions.assignments] == [
        ("A_VERSION", "1.2.3"),
        ("B_VERSION", "0.4.0"),
        ("C_VERSION", "5.0.0rc1"),
        ("D_VERSION", "1.2.3"),
    ]
    assert versions.unread == ()


def test_a_line_the_reader_cannot_take_is_named_with_its_number_never_skipped():
    text = (
        'A_VERSION=1.0.0\nB_VERSION=$(cat version.txt)\nif [ -n "$X" ]; then\nC_VERSION=${MISSING}\nD_VERSION=${D:=2}\n'
    )
    versions = parse_release_versions(text)
    assert [a.name for a in versions.assignments] == ["A_VERSION"]
    assert [u.line for u in versions.unread] == [2, 3, 4, 5]
    assert "MISSING" in versions.unread[2].why and "no earlier line" in versions.unread[2].why
    assert "not an assignment" in versions.unread[1].why


def test_the_file_is_never_run():
    versions = parse_release_versions("X_VERSION=`touch /tmp/never`\n")
    assert versions.assignments == () and versions.unread[0].line == 1


def test_the_variable_of_a_package_is_the_one_the_workflows_look_up():
    assert variable_for("torch") == "PYTORCH_VERSION"
    assert variable_for("torchvision") == "TORCHVISION_VERSION"
    assert variable_for("fbgemm-gpu") == "FBGEMM_GPU_VERSION"
    assert variable_for("torch_tensorrt") == "TORCH_TENSORRT_VERSION"


def _expected(core="2.14.0", vision="0.29.0", audio="2.11.0"):
    libraries = [("vision", vision, ["torchvision"]), ("audio", audio, ["torchaudio"])]
    expected, notes = expected_versions(core, ["torch"], libraries)
    return expected, notes


def test_a_file_that_agrees_with_the_release_and_each_library_is_green():
    expected, notes = _expected()
    gate = release_versions_gate(parse_release_versions(SHAPED_LIKE_THE_REAL_FILE), expected, ref="main")
    assert gate.status is GateStatus.GREEN and notes == ()
    assert any("not checked" in d and "TRITON_VERSION=3.9.0" in d for d in gate.details)


def test_a_library_in_maintenance_keeps_its_older_number_and_is_not_flagged():
    # audio stays at 2.11.0 while the core moves to 2.14.0: its own configured version is what counts
    expected, _ = _expected(audio="2.11.0")
    gate = release_versions_gate(parse_release_versions(SHAPED_LIKE_THE_REAL_FILE), expected)
    assert gate.status is GateStatus.GREEN


def test_a_variable_left_at_the_previous_release_is_red_naming_it_and_both_values():
    expected, _ = _expected(vision="0.29.1", core="2.14.0")
    gate = release_versions_gate(parse_release_versions(SHAPED_LIKE_THE_REAL_FILE), expected, ref="main")
    assert gate.status is GateStatus.RED
    assert "TORCHVISION_VERSION=0.29.0" in gate.summary and "0.29.1" in gate.summary and "vision" in gate.summary
    assert "PYTORCH_VERSION" not in gate.summary


def test_a_variable_the_release_needs_but_the_file_lacks_is_red():
    expected, _ = expected_versions("2.14.0", ["torch"], [("codec", "0.18.0", ["torchcodec"])])
    gate = release_versions_gate(parse_release_versions(SHAPED_LIKE_THE_REAL_FILE), expected)
    assert gate.status is GateStatus.RED and "assigns no TORCHCODEC_VERSION" in gate.summary


def test_sources_that_disagree_among_themselves_make_it_amber_naming_the_odd_one():
    expected = (
        ExpectedVersion("PYTORCH_VERSION", "2.14.0", "the release"),
        ExpectedVersion("PYTORCH_VERSION", "2.14.1", "version.txt on release/2.14"),
    )
    gate = release_versions_gate(parse_release_versions(SHAPED_LIKE_THE_REAL_FILE), expected)
    assert gate.status is GateStatus.AMBER and "version.txt on release/2.14 is 2.14.1" in gate.summary


def test_an_unread_line_makes_the_gate_amber_and_is_named():
    expected, _ = _expected()
    text = SHAPED_LIKE_THE_REAL_FILE + "source ./more_versions.sh\n"
    gate = release_versions_gate(parse_release_versions(text), expected, ref="main")
    assert gate.status is GateStatus.AMBER and "main, line 12" in gate.summary


def test_an_unreadable_file_is_unknown_with_the_reason():
    gate = release_versions_gate(None, (), ref="main", unreadable="404 on pytorch/test-infra@main")
    assert gate.status is GateStatus.UNKNOWN and "404" in gate.summary


def test_a_library_without_packages_is_said_not_guessed():
    expected, notes = expected_versions("2.14.0", ["torch"], [("vision", "0.29.0", [])])
    assert [e.variable for e in expected] == ["PYTORCH_VERSION"]
    gate = release_versions_gate(parse_release_versions(SHAPED_LIKE_THE_REAL_FILE), expected, notes=notes)
    assert gate.status is GateStatus.UNKNOWN and "vision lists no packages" in gate.summary


names = st.text(string.ascii_uppercase + "_", min_size=1, max_size=12).map(lambda s: f"{s}_VERSION")
versions_st = st.tuples(*[st.integers(0, 40)] * 3).map(lambda t: ".".join(map(str, t)))
forms = st.sampled_from(["defaulted", "plain", "double", "single", "export"])


@given(st.lists(st.tuples(names, versions_st, forms), min_size=1, max_size=20, unique_by=lambda t: t[0]))
def test_any_file_of_assignments_reads_back_as_written(rows):
    lines = ["#!/usr/bin/env bash", "# versions"]
    for name, version, form in rows:
        value = {
            "defaulted": f"${{{name}:-{version}}}",
            "plain": version,
            "double": f'"{version}"',
            "single": f"'{version}'",
            "export": version,
        }[form]
        lines.append(("export " if form == "export" else "") + f"{name}={value}")
    versions = parse_release_versions("\n".join(lines))
    assert versions.unread == ()
    assert [(a.name, a.value, a.line) for a in versions.assignments] == [
        (name, version, i + 3) for i, (name, version, _) in enumerate(rows)
    ]


@given(st.text(max_size=400))
def test_any_text_is_read_without_a_crash_and_no_line_is_lost(text):
    versions = parse_release_versions(text)
    lines = text.splitlines()
    meaningful = {i for i, line in enumerate(lines, 1) if line.strip() and not line.strip().startswith("#")}
    accounted = {a.line for a in versions.assignments} | {u.line for u in versions.unread}
    assert accounted == meaningful


def test_a_core_index_that_also_lists_the_libraries_expects_only_its_own_package_at_the_core_version():
    assert own_packages("pytorch/pytorch", ["torchvision", "torch", "torchaudio"]) == ["torch"]
    assert own_packages("acme/torchlet", ["torchlet", "torchlet-vision"]) == ["torchlet"]
    assert own_packages("acme/odd", ["first", "second"]) == ["first"]
    assert own_packages("acme/odd", []) == []
