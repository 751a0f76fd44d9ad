"""``[evidence]`` of ``cockpit.toml``: where the checklist's evidence lives in other repositories.

Each sub-table turns one checklist step automatic; a step whose sub-table is absent stays a signature.
Every key has a default that matches PyTorch, so ``[evidence.docs_build_entry]`` alone is enough
there. Text keys may use ``{version}`` (2.5.0), ``{version_short}`` (2.5) and ``{channel}``; titles
are case-insensitive glob patterns (``*`` any text).
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import TYPE_CHECKING, Any

from cockpit.domain.record import record

if TYPE_CHECKING:
    from cockpit.config import _Table

PLACEHOLDERS = ("version", "version_short", "channel")
_PLACEHOLDER = re.compile(r"\{(\w*)\}")
_SHA = re.compile(r"^[0-9a-f]{7,40}$")
_PULL_URL = re.compile(r"^https://[^/]+/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/pull/(\d+)/?$")


@record
class ValidateBinariesEvidence:
    """``[evidence.validate_binaries]``: the workflow whose run validates the staged wheels of a channel."""

    repository: str = "pytorch/test-infra"
    workflow: str = "validate-binaries.yml"
    channel: str = "test"
    title: str = "*{version}*"  # the run's display title (a dispatch's run-name names version and channel)
    branch: str = ""  # the branch the workflow runs on; "" for any


@record
class ValidationCommentsEvidence:
    """The phrase that recognises a validation comment is ``config.validation`` (config_validation reads the
    ``phrase`` key of this table), shared with the actions that write the comment."""

    max_issues: int = 100  # closed issues whose comments are read, at most (one request each, 304s after)


@record
class ValidationIssueEvidence:
    """``[evidence.validation_issue]``: the issue where the release's validation is tracked, found by title."""

    repository: str = ""  # "" for the release's repository
    title: str = "*{version}*validation*"


@record
class DocsEvidence:
    """``[evidence.docs_build_entry]``: the file the docs build publishes for this version."""

    repository: str = "pytorch/docs"
    ref: str = "site"
    path: str = "{version_short}/index.html"


@record
class PullEvidence:
    """A release-day PR: by ``url``, or the newest PR of ``repository`` whose title matches ``title``."""

    repository: str
    title: str
    number: int | None = None


@record
class TritonEvidence:
    """``[evidence.triton_pin_release]``: the pinned triton commit and the version released for it on PyPI."""

    pin_path: str = ".ci/docker/ci_commit_pins/triton.txt"
    package: str = "triton"
    versions: tuple[tuple[str, str], ...] = ()  # pinned commit (or a prefix of 7+) -> triton version on PyPI


@record
class ColabEvidence:
    """``[evidence.colab_issue]``: the issue asking Colab to take the new version, found by title."""

    repository: str = "googlecolab/colabtools"
    title: str = "*{version}*"


@record
class EvidenceConfig:
    """Each step's evidence; None leaves that step to a signature."""

    validate_binaries: ValidateBinariesEvidence | None = None
    validation_comments: ValidationCommentsEvidence | None = None
    validation_issue: ValidationIssueEvidence | None = None
    docs_build_entry: DocsEvidence | None = None
    release_matrix_pr: PullEvidence | None = None
    published_versions_pr: PullEvidence | None = None
    triton_pin_release: TritonEvidence | None = None
    colab_issue: ColabEvidence | None = None
    configured: tuple[str, ...] = field(default=())

    def enabled(self, gate: str) -> bool:
        return getattr(self, gate, None) is not None


PULL_DEFAULTS = {
    "release_matrix_pr": ("pytorch/pytorch.github.io", "*{version}*release matrix*"),
    "published_versions_pr": ("pytorch/pytorch.github.io", "*published versions*{version}*"),
}

_KEYS: dict[str, set[str]] = {
    "validate_binaries": {"repository", "workflow", "channel", "title", "branch"},
    "validation_comments": {"phrase", "max_issues"},
    "validation_issue": {"repository", "title", "new_title"},  # new_title: the validation action's (config_validation)
    "docs_build_entry": {"repository", "ref", "path"},
    "release_matrix_pr": {"repository", "title", "url"},
    "published_versions_pr": {"repository", "title", "url"},
    "triton_pin_release": {"pin_path", "package", "versions"},
    "colab_issue": {"repository", "title"},
}


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{placeholder}`` replaced (the names were checked when the config was read)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def evidence_from(t: _Table) -> EvidenceConfig:
    """``[evidence]``: every sub-table checked (keys, types, placeholders); ConfigError names file and key."""
    from cockpit.config import _repository

    for name in t.data:
        if name not in _KEYS:
            raise t.fail(name, f"one of {', '.join(sorted(_KEYS))} (a table each)")
    steps: dict[str, Any] = {}
    for name, keys in _KEYS.items():
        if name not in t.data:
            continue
        sub = t.table(name)
        for key in sub.data:
            if key not in keys:
                raise sub.fail(key, f"one of {', '.join(sorted(keys))}")

        def text(key: str, default: str, sub: _Table = sub) -> str:
            value = sub.str(key, default, nonempty=False).strip()
            if not value and default:
                raise sub.fail(key, "a non-empty string", value)
            unknown = [p for p in _PLACEHOLDER.findall(value) if p not in PLACEHOLDERS]
            if unknown:
                allowed = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                raise sub.fail(key, f"text using only {allowed}", value)
            return value

        def repo(key: str, default: str, sub: _Table = sub) -> str:
            return _repository(sub, key, default) if key in sub.data or default else ""

        if name == "validate_binaries":
            d = ValidateBinariesEvidence()
            steps[name] = ValidateBinariesEvidence(
                repo("repository", d.repository),
                text("workflow", d.workflow),
                text("channel", d.channel),
                text("title", d.title),
                text("branch", ""),
            )
        elif name == "validation_comments":
            d2 = ValidationCommentsEvidence()
            maximum = int(sub.num("max_issues", d2.max_issues, minimum=1))
            steps[name] = ValidationCommentsEvidence(maximum)
        elif name == "validation_issue":
            steps[name] = ValidationIssueEvidence(repo("repository", ""), text("title", ValidationIssueEvidence.title))
        elif name == "docs_build_entry":
            d3 = DocsEvidence()
            steps[name] = DocsEvidence(repo("repository", d3.repository), text("ref", d3.ref), text("path", d3.path))
        elif name in PULL_DEFAULTS:
            steps[name] = _pull(sub, PULL_DEFAULTS[name], repo, text)
        elif name == "triton_pin_release":
            d4 = TritonEvidence()
            steps[name] = TritonEvidence(text("pin_path", d4.pin_path), text("package", d4.package), _pins(sub))
        elif name == "colab_issue":
            d5 = ColabEvidence()
            steps[name] = ColabEvidence(repo("repository", d5.repository), text("title", d5.title))
    return EvidenceConfig(**steps, configured=tuple(steps))


def _pull(sub: _Table, defaults: tuple[str, str], repo: Any, text: Any) -> PullEvidence:
    url = sub.str("url", "", nonempty=False).strip()
    if url:
        m = _PULL_URL.match(url)
        if not m:
            raise sub.fail("url", "a pull request URL such as https://github.com/OWNER/NAME/pull/123", url)
        return PullEvidence(m.group(1), "", int(m.group(2)))
    return PullEvidence(repo("repository", defaults[0]), text("title", defaults[1]))


def _pins(sub: _Table) -> tuple[tuple[str, str], ...]:
    table = sub.table("versions")
    pins = []
    for commit, version in table.data.items():
        if not _SHA.match(commit):
            raise table.fail(commit, "a pinned commit (7 to 40 lowercase hex digits) as the key", commit)
        if not isinstance(version, str) or not version.strip():
            raise table.fail(commit, 'a triton version such as "3.1.0"', version)
        pins.append((commit, version.strip()))
    return tuple(pins)
