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

# Examples 'cockpit init' shows for [storage] (commented out: each release names its own).
INDEX_URL = "https://download.pytorch.org"
PACKAGES = ("torch",)
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "macosx_11_0_arm64", "win_amd64")
# Linux wheels of every accelerator carry the manylinux 2.28 tag (the profile's platform_tags.linux_x86_64).
_LINUX = _PROFILE.text("platform_tags.linux_x86_64")
VARIANTS = (
    ("cpu", (_LINUX, "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64")),
    ("cu126", (_LINUX, "win_amd64")),
    ("cu128", (_LINUX, "manylinux_2_28_aarch64", "win_amd64")),
    ("rocm6.3", (_LINUX,)),
    ("xpu", (_LINUX, "win_amd64")),
)
