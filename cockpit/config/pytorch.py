"""PyTorch's values: every default of ``cockpit.toml`` that is specific to PyTorch, in this one place.

The schema (``release``, ``storage``, ``evidence``) reads these names and nothing else PyTorch-specific.
The ones the PyTorch profile holds (``cockpit/profiles/pytorch.toml``, each value with the repository
file, PR or policy it was read from) are read from it here, so a default cannot differ from its source;
the profile is a small TOML file parsed once (``load_profile`` is cached). Three more live in the
domain, because the domain uses them too: ``domain.validation`` (the validation comment, phrase and the
title a new validation issue is opened with), ``domain.schedule`` (a patch release's qualifying and
triage labels) and ``domain.merge_methods`` (how a release PR is merged).
"""

from __future__ import annotations

from cockpit.domain.build_matrix import (
    PlatformTags,
    bound_pairs,
    bound_table,
    expected_variants,
    matrix_from_profile,
)
from cockpit.profile import load_profile

_PROFILE = load_profile("pytorch")

# [git]: subjects of commits made only on the release branch (version bumps, pins), never picked from main.
RELEASE_ONLY_PATTERNS = _PROFILE.strings("release_only.markers")
# [[ci]]: the workflows that must pass on the release branch, as GitHub names them (``Lint``, not ``lint``),
# and the binary-build workflows that must pass on the RC tag.
REQUIRED_WORKFLOWS = _PROFILE.strings("ci.required_workflows")
BINARY_BUILD_WORKFLOWS = _PROFILE.strings("ci.binary_build_workflows")
# [release]: the forms of the release tracker's title ({version}, {version_short}).
TRACKER_TITLES = _PROFILE.strings("titles.tracker")
# [release]: milestone items with this label are feature requests, not fixes to pick.
SKIP_LABELS = _PROFILE.strings("milestone.skip_labels")

# [schedule]: a cherry-pick deadline given as a day ends at this hour in this zone (5 PM Pacific).
DEADLINE_TIME = _PROFILE.text("patch.cherry_pick_deadline_time")
DEADLINE_ZONE = _PROFILE.text("patch.cherry_pick_deadline_zone")

# [evidence.*]: where each release-day step's evidence lives.
VALIDATE_BINARIES_REPOSITORY = _PROFILE.text("validate_binaries.repository")
# GitHub takes a workflow's file name where it takes its id: validate-binaries.yml.
VALIDATE_BINARIES_WORKFLOW = _PROFILE.text("validate_binaries.workflow_file").rsplit("/", 1)[-1]
VALIDATE_BINARIES_CHANNEL = _PROFILE.text("validate_binaries.rc_channel")
VALIDATE_BINARIES_EVENT = _PROFILE.text("validate_binaries.event")
VALIDATE_BINARIES_REF = _PROFILE.text("validate_binaries.ref")
VALIDATION_ISSUE_TITLES = _PROFILE.strings("titles.validation_issue")
DOCS_REPOSITORY = _PROFILE.text("docs.repository")
DOCS_REF = _PROFILE.text("docs.ref")
DOCS_PATH = _PROFILE.text("docs.path")
RELEASE_MATRIX_PR = (_PROFILE.text("titles.release_matrix_pr_repository"), _PROFILE.text("titles.release_matrix_pr"))
PUBLISHED_VERSIONS_PR = (
    _PROFILE.text("titles.published_versions_pr_repository"),
    _PROFILE.text("titles.published_versions_pr"),
)
RELEASE_WORKFLOWS_REPOSITORY = _PROFILE.text("release_workflows.repository")
RELEASE_WORKFLOWS_REF = _PROFILE.text("release_workflows.ref")
RELEASE_WORKFLOWS_PACKAGES = _PROFILE.strings("release_workflows.packages")
RELEASE_WORKFLOWS_CORE = _PROFILE.text("release_workflows.core_repository")
TRITON_PIN_PATH = _PROFILE.text("triton.pin_file")
TRITON_VERSION_PATH = _PROFILE.text("triton.version_file")
TRITON_PACKAGE = _PROFILE.text("triton.pypi_package")
COLAB_REPOSITORY = _PROFILE.text("titles.colab_repository")
COLAB_TITLE = _PROFILE.text("titles.colab_issue")

# [storage]: where the build matrix generator is read, whose "release" channel names the Python builds
# (cp310 ... cp314t) the wheels must cover; its ref is the repository's default branch.
BUILD_MATRIX_REPOSITORY = _PROFILE.text("python.matrix_repository")
BUILD_MATRIX_FILE = _PROFILE.text("python.matrix_file")
BUILD_MATRIX_REF = _PROFILE.text("python.matrix_ref")
# The profile's recorded copy of that channel, used when the file cannot be read, and the pre-release
# CPython builds that test-infra's staging script does not stage for PyPI.
RELEASE_BUILDS = _PROFILE.strings("python.release_builds")
NOT_STAGED_FOR_PYPI = _PROFILE.strings("python.not_staged_for_pypi")

# The profile's recorded copy of the build matrix's release channel (Python builds, CUDA, ROCm, the stable
# CUDA, the CUDA kept off Windows and built on aarch64: profile [python] and [variants], each sourced to
# test-infra's generate_binary_build_matrix.py), used when the file itself cannot be read.
PROFILE_MATRIX = matrix_from_profile(
    {
        key: _PROFILE.value(key)
        for key in (
            "python.release_builds",
            "variants.cuda",
            "variants.rocm",
            "variants.stable_cuda",
            "variants.cuda_not_on_windows",
            "variants.cuda_aarch64",
        )
    }
)
# The platform tags each OS's wheels carry (profile [platform_tags]: manylinux 2.28 for every Linux
# accelerator, ROCm and XPU included; macOS as test-infra's validate_pypi_staging.py lists it).
PLATFORM_TAGS = PlatformTags(
    linux_x86_64=_PROFILE.text("platform_tags.linux_x86_64"),
    linux_aarch64=_PROFILE.text("platform_tags.linux_aarch64"),
    windows=_PROFILE.text("platform_tags.windows"),
    macos_arm64=_PROFILE.text("platform_tags.macos_arm64_wheel"),
)
# The profile's pypi.bound_variants pairs (platform glob, stable_cuda / cpu / "" for no local version).
PYPI_BOUND_PAIRS = bound_pairs(_PROFILE.value("pypi.bound_variants"))
# [storage.pypi_bound]'s default: those pairs with the profile's stable CUDA (cu130 on both Linux platforms,
# cpu on Windows and macOS, whose cpu wheels carry no local version).
PYPI_BOUND = bound_table(PYPI_BOUND_PAIRS, PROFILE_MATRIX.stable_cuda)
# XPU builds exist on Linux and Windows (profile variants.xpu, from generate_wheels_matrix).
XPU = bool(_PROFILE.value("variants.xpu"))

# Examples 'cockpit init' shows for [storage] (commented out: each release names its own).
INDEX_URL = "https://download.pytorch.org"
PACKAGES = ("torch",)
PLATFORMS = (
    PLATFORM_TAGS.linux_x86_64,
    PLATFORM_TAGS.linux_aarch64,
    PLATFORM_TAGS.macos_arm64,
    PLATFORM_TAGS.windows,
)
# [storage.variants]: the variants of the profile's copy of the build matrix with the profile's platform
# tags (services.build_matrix.expected_variants); 'cockpit init' writes those of the file itself.
VARIANTS = expected_variants(PROFILE_MATRIX, PLATFORM_TAGS, xpu=XPU)
