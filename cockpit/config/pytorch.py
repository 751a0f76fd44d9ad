"""PyTorch's values: every default of ``cockpit.toml`` that is specific to PyTorch, in this one place.

The schema (``release``, ``storage``, ``evidence``) reads these names and nothing else PyTorch-specific;
they are meant to come from the PyTorch profile (``cockpit/profiles/``, each value with its source) and
keep their values until then. Three more live in the domain, because the domain uses them too:
``domain.validation`` (the validation comment, phrase and issue title), ``domain.schedule`` (a patch
release's qualifying and triage labels) and ``domain.merge_methods`` (how a release PR is merged).
"""

from __future__ import annotations

# [git]: subjects of commits made only on the release branch (version bumps, pins), never picked from main.
RELEASE_ONLY_PATTERNS = (r"^(Bump|Update) version", r"^\[release[^\]]*\] ", r"ci_commit_pins", r"^Pin ")
# [[ci]]: the workflows that must pass on the release branch.
REQUIRED_WORKFLOWS = ("pull", "trunk", "lint")
# [release]: milestone items with this label are feature requests, not fixes to pick.
SKIP_LABELS = ("release-feature-request",)

# [evidence.*]: where each release-day step's evidence lives.
VALIDATE_BINARIES_REPOSITORY = "pytorch/test-infra"
VALIDATE_BINARIES_WORKFLOW = "validate-binaries.yml"
VALIDATE_BINARIES_CHANNEL = "test"
VALIDATE_BINARIES_TITLE = "*{version}*"
VALIDATION_ISSUE_TITLE_PATTERN = "*{version}*validation*"
DOCS_REPOSITORY = "pytorch/docs"
DOCS_REF = "site"
DOCS_PATH = "{version_short}/index.html"
RELEASE_MATRIX_PR = ("pytorch/pytorch.github.io", "*{version}*release matrix*")
PUBLISHED_VERSIONS_PR = ("pytorch/pytorch.github.io", "*published versions*{version}*")
TRITON_PIN_PATH = ".ci/docker/ci_commit_pins/triton.txt"
TRITON_PACKAGE = "triton"
COLAB_REPOSITORY = "googlecolab/colabtools"
COLAB_TITLE = "*{version}*"

# Examples 'cockpit init' shows for [storage] (commented out: each release names its own).
INDEX_URL = "https://download.pytorch.org"
PACKAGES = ("torch",)
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "macosx_11_0_arm64", "win_amd64")
VARIANTS = (
    ("cpu", ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64")),
    ("cu126", ("manylinux_2_28_x86_64", "win_amd64")),
    ("cu128", ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64")),
    ("rocm6.3", ("linux_x86_64",)),
    ("xpu", ("linux_x86_64", "win_amd64")),
)
