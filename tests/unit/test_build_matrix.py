"""The release's Python builds, variants and platform tags come from the build matrix generator."""

from __future__ import annotations

import pytest

from cockpit.profile import load_profile
from cockpit.services.build_matrix import (
    MatrixError,
    bound_pairs,
    bound_table,
    expected_variants,
    matrix_from_profile,
    pypi_bound,
    python_tags,
    read_build_matrix,
)

# A generator of our own in the real file's shape: per-channel dictionaries of literals.
GENERATOR = """
PYTHON_ARCHES_DICT = {
    "nightly": ["3.11", "3.12", "3.13", "3.13t", "3.16", "3.16t"],
    "test": ["3.11", "3.12", "3.13", "3.13t", "3.16", "3.16t"],
    "release": ["3.11", "3.12", "3.13", "3.13t"],
}
CUDA_ARCHES_DICT = {"nightly": ["14.0", "14.2"], "test": ["14.0", "14.2"], "release": ["13.8", "14.0"]}
ROCM_ARCHES_DICT = {"nightly": ["8.1"], "test": ["8.1"], "release": ["8.0", "8.1"]}
STABLE_CUDA_VERSIONS = {"nightly": "14.0", "test": "14.0", "release": "14.0"}
CUDA_ARCHES_NO_WINDOWS = ["14.2"]

def never_run():
    raise SystemExit
"""


def test_the_release_channel_is_read_free_threaded_builds_included() -> None:
    matrix = read_build_matrix(GENERATOR)
    assert matrix.python == ("3.11", "3.12", "3.13", "3.13t")
    assert python_tags(matrix.python) == ("cp311", "cp312", "cp313", "cp313t")
    assert matrix.cuda == ("13.8", "14.0") and matrix.stable_cuda == "14.0"
    assert read_build_matrix(GENERATOR, "test").python[-1] == "3.16t"


def test_pre_release_pythons_are_left_out_of_what_goes_to_pypi() -> None:
    matrix = read_build_matrix(GENERATOR, "test")
    assert python_tags(matrix.python, not_for_pypi=("3.16", "3.16t"))[-1] == "cp313t"


def test_rocm_and_xpu_wheels_carry_manylinux_tags_like_the_rest() -> None:
    variants = dict(expected_variants(read_build_matrix(GENERATOR)))
    assert variants["rocm8.1"] == ("manylinux_2_28_x86_64",)
    assert variants["xpu"] == ("manylinux_2_28_x86_64", "win_amd64")
    assert variants["cu140"] == ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64")
    assert "manylinux_2_28_aarch64" not in variants["cu138"]
    assert all(p != "linux_x86_64" for ps in variants.values() for p in ps)


def test_only_one_variant_per_platform_goes_to_pypi() -> None:
    matrix = read_build_matrix(GENERATOR)
    bound = bound_pairs(load_profile().value("pypi.bound_variants"))
    assert pypi_bound("cu140", "manylinux_2_28_x86_64", bound, matrix)
    assert pypi_bound("cpu", "win_amd64", bound, matrix)
    assert pypi_bound("", "macosx_14_0_arm64", bound, matrix)
    assert not pypi_bound("rocm8.1", "manylinux_2_28_x86_64", bound, matrix)
    assert not pypi_bound("cu138", "manylinux_2_28_x86_64", bound, matrix)


def test_a_generator_without_the_tables_is_named() -> None:
    with pytest.raises(MatrixError, match="PYTHON_ARCHES_DICT"):
        read_build_matrix("STABLE_CUDA_VERSIONS = {'release': '1.0'}\n")
    with pytest.raises(MatrixError, match="not Python"):
        read_build_matrix("PYTHON_ARCHES_DICT = {")
    with pytest.raises(MatrixError, match="'beta'"):
        read_build_matrix(GENERATOR, "beta")


def test_the_profile_holds_a_sourced_copy_of_the_release_channel() -> None:
    profile = load_profile()
    keys = (
        "python.release_builds",
        "variants.cuda",
        "variants.rocm",
        "variants.stable_cuda",
        "variants.cuda_not_on_windows",
    )
    matrix = matrix_from_profile({k: profile.value(k) for k in keys})
    assert "3.14t" in matrix.python
    assert "generate_binary_build_matrix.py" in profile.get("python.release_builds").source


def test_cuda_on_aarch64_is_what_cuda_aarch64_arches_lists_of_the_release() -> None:
    text = GENERATOR + 'CUDA_AARCH64_ARCHES = ["13.8-aarch64", "14.2-aarch64"]\n'
    variants = dict(expected_variants(read_build_matrix(text)))
    assert "manylinux_2_28_aarch64" in variants["cu138"]
    assert "manylinux_2_28_aarch64" not in variants["cu140"]  # the stable one, but not built there
    assert "cu142" not in variants, "a CUDA only the nightly channel has is not the release's"


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('"13.8", "14.0"]', '"13.8", "14.0; rm -rf /"]', "CUDA_ARCHES_DICT['release'] has '14.0; rm -rf /'"),
        ('"8.0", "8.1"]', '"8.0", "8.1\\x1b[2J"]', "ROCM_ARCHES_DICT['release'] has '8.1\\x1b[2J'"),
        ('"release": "14.0"}', '"release": "../14"}', "STABLE_CUDA_VERSIONS['release'] has '../14'"),
        ('CUDA_ARCHES_NO_WINDOWS = ["14.2"]', 'CUDA_ARCHES_NO_WINDOWS = "14.2"', "must be a list"),
    ],
)
def test_a_version_that_is_not_one_makes_the_matrix_unreadable(old: str, new: str, said: str) -> None:
    assert old in GENERATOR
    with pytest.raises(MatrixError) as caught:
        read_build_matrix(GENERATOR.replace(old, new))
    assert said in caught.value.message and "\x1b" not in caught.value.message


def test_the_pypi_bound_table_follows_the_stable_cuda() -> None:
    bound = bound_pairs(load_profile().value("pypi.bound_variants"))
    assert bound_table(bound, "14.0") == (
        ("cu140", ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64")),
        ("cpu", ("win_amd64", "macosx_*_arm64")),
    )


def test_the_init_example_is_the_profiles_matrix_not_a_stale_list() -> None:
    from cockpit.config.pytorch import PYPI_BOUND, VARIANTS

    profile = load_profile()
    names = [v for v, _p in VARIANTS]
    assert names == ["cpu", *(f"cu{c.replace('.', '')}" for c in profile.value("variants.cuda"))] + [
        f"rocm{r}" for r in profile.value("variants.rocm")
    ] + ["xpu"]
    assert all(p.startswith("manylinux_2_28_") for _v, ps in VARIANTS for p in ps if "linux" in p)
    assert dict(PYPI_BOUND)["cu130"] == ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64")
