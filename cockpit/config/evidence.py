"""The schema of ``[evidence]``: where the checklist's evidence lives in other repositories.

Each sub-table turns one checklist step automatic; a step whose sub-table is absent stays a signature.
Every key has a default that matches PyTorch (``cockpit.config.pytorch``), so ``[evidence.docs_build_entry]``
alone is enough there. Text keys may use ``{version}`` (2.5.0), ``{version_short}`` (2.5) and ``{channel}``;
titles are title forms (``services.title_forms``): one or a list, matched ignoring case, ``*`` any text. Unknown
keys here are errors, as they always were; a key that is no longer used is a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any

from cockpit.config import pytorch
from cockpit.config.kinds import Kind, Number, Repository, Retired, Text, Texts, TitleForms, key, typed
from cockpit.config.tables import Strict, Table
from cockpit.config.where import Where
from cockpit.domain.validation import VALIDATION_ISSUE_TITLE, VALIDATION_PHRASE, unknown_placeholders

PLACEHOLDERS = ("version", "version_short", "channel")
_PLACEHOLDER = re.compile(r"\{(\w*)\}")
_SHA = re.compile(r"^[0-9a-f]{7,40}$")
_PULL_URL = re.compile(r"^https://[^/]+/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/pull/(\d+)/?$")


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{placeholder}`` replaced (the names were checked when the config was read)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


class Pattern(Kind):
    """Text that may use ``{version}``, ``{version_short}`` and ``{channel}``, stripped."""

    __slots__ = ("nonempty",)
    expected = "a string"
    described = "a string; it may use {version}, {version_short}, {channel}"

    def __init__(self, nonempty: bool = True) -> None:
        self.nonempty = nonempty

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = Text().read(where, key, value).strip()
        if self.nonempty and not text:
            raise where.fail(key, "a non-empty string", text)
        if any(p not in PLACEHOLDERS for p in _PLACEHOLDER.findall(text)):
            raise where.fail(key, f"text using only {', '.join('{' + p + '}' for p in PLACEHOLDERS)}", text)
        return text


class VersionText(Kind):
    """What the cockpit writes and recognises (a title, a phrase): non-empty, ``{version}`` its only placeholder."""

    expected = "a non-empty text (placeholder: {version})"

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = Text().read(where, key, value)
        if not text.strip():
            raise where.fail(key, self.expected, text)
        if unknown := unknown_placeholders(text):
            raise where.fail(key, "text whose only placeholder is {version}", f"{text} (unknown: {unknown[0]})")
        return text


class PullURL(Kind):
    """A pull request's address; empty for none."""

    expected = "a pull request URL such as https://github.com/OWNER/NAME/pull/123"

    def read(self, where: Where, key: str, value: Any) -> Any:
        url = Text().read(where, key, value).strip()
        if url and not _PULL_URL.match(url):
            raise where.fail(key, self.expected, url)
        return url


class Pins(Kind):
    """``[evidence.triton_pin_release.versions]``: pinned commit (7+ hex digits) = triton version on PyPI."""

    expected = "a table"
    described = "a table: pinned commit = triton version"

    def read(self, where: Where, key: str, value: Any) -> Any:
        table, inner = typed(where, key, value, dict, "a table"), where.child(key)
        pins = []
        for commit, version in table.items():
            if not _SHA.match(commit):
                raise inner.fail(commit, "a pinned commit (7 to 40 lowercase hex digits) as the key", commit)
            if not isinstance(version, str) or not version.strip():
                raise inner.fail(commit, 'a triton version such as "3.1.0"', version)
            pins.append((commit, version.strip()))
        return tuple(pins)


@dataclass(frozen=True, slots=True)
class ValidateBinariesEvidence:
    """``[evidence.validate_binaries]``: the workflow whose run validates the staged wheels of a channel."""

    repository: str = key(
        Repository(), "The validation workflow's repository.", default=pytorch.VALIDATE_BINARIES_REPOSITORY
    )
    workflow: str = key(Pattern(), "The workflow file.", default=pytorch.VALIDATE_BINARIES_WORKFLOW)
    channel: str = key(Pattern(), "The channel validated.", default=pytorch.VALIDATE_BINARIES_CHANNEL)
    branch: str = key(
        Pattern(nonempty=False),
        "The ref the workflow is dispatched from; its runs are found by it and by event (workflow_dispatch).",
        default="",
        default_text=f"{pytorch.VALIDATE_BINARIES_REF!r} (the workflow repository's default branch)",
    )
    title: str = key(
        Retired("the workflow sets no run-name, so its runs are found by file, event, ref and inputs"),
        "No longer used: the runs carry no title naming the version.",
        default="",
    )


@dataclass(frozen=True, slots=True)
class ValidationCommentsEvidence:
    """``[evidence.validation_comments]``: the validation comments on the closed milestone issues."""

    phrase: str = key(
        VersionText(), "What recognises a validation comment, whoever wrote it.", default=VALIDATION_PHRASE
    )
    max_issues: int = key(
        Number(minimum=1, integer=True),
        "Closed issues whose comments are read, at most (one request each).",
        default=100,
    )


@dataclass(frozen=True, slots=True)
class ValidationIssueEvidence:
    """``[evidence.validation_issue]``: the issue where the release's validation is tracked, found by title."""

    repository: str = key(Repository(), "Its repository; empty: the release's.", default="")
    title: tuple[str, ...] = key(
        TitleForms(), "The title forms it is found by (any one).", default=pytorch.VALIDATION_ISSUE_TITLES
    )
    new_title: str = key(VersionText(), "The title the cockpit opens it with.", default=VALIDATION_ISSUE_TITLE)


@dataclass(frozen=True, slots=True)
class DocsEvidence:
    """``[evidence.docs_build_entry]``: the file the docs build publishes for this version."""

    repository: str = key(Repository(), "The docs repository.", default=pytorch.DOCS_REPOSITORY)
    ref: str = key(Pattern(), "The ref it is read at.", default=pytorch.DOCS_REF)
    path: str = key(Pattern(), "The release's entry.", default=pytorch.DOCS_PATH)


@dataclass(frozen=True, slots=True)
class PullEvidence:
    """A release-day PR: by number, or the newest PR of ``repository`` whose title matches ``title``."""

    repository: str
    title: tuple[str, ...]
    number: int | None = None


def _pull(repository: str, title: tuple[str, ...], url: str) -> PullEvidence:
    m = _PULL_URL.match(url)
    return PullEvidence(m.group(1), (), int(m.group(2))) if m else PullEvidence(repository, title)


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class ReleaseMatrixPR:
    """``[evidence.release_matrix_pr]``: the PR adding the release to the install matrix."""

    repository: str = key(Repository(), "Its repository.", default=pytorch.RELEASE_MATRIX_PR[0])
    title: tuple[str, ...] = key(TitleForms(), "Its title forms (any one).", default=(pytorch.RELEASE_MATRIX_PR[1],))
    url: str = key(PullURL(), "Or the PR itself, https://github.com/OWNER/NAME/pull/N.", default="")

    def evidence(self) -> PullEvidence:
        return _pull(self.repository, self.title, self.url)


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class PublishedVersionsPR:
    """``[evidence.published_versions_pr]``: the PR adding the release to the published versions."""

    repository: str = key(Repository(), "Its repository.", default=pytorch.PUBLISHED_VERSIONS_PR[0])
    title: tuple[str, ...] = key(
        TitleForms(), "Its title forms (any one).", default=(pytorch.PUBLISHED_VERSIONS_PR[1],)
    )
    url: str = key(PullURL(), "Or the PR itself, https://github.com/OWNER/NAME/pull/N.", default="")

    def evidence(self) -> PullEvidence:
        return _pull(self.repository, self.title, self.url)


PULL_DEFAULTS = {
    "release_matrix_pr": (pytorch.RELEASE_MATRIX_PR[0], (pytorch.RELEASE_MATRIX_PR[1],)),
    "published_versions_pr": (pytorch.PUBLISHED_VERSIONS_PR[0], (pytorch.PUBLISHED_VERSIONS_PR[1],)),
}


@dataclass(frozen=True, slots=True)
class TritonEvidence:
    """``[evidence.triton_pin_release]``: the pinned triton commit and the version released for it on PyPI."""

    pin_path: str = key(Pattern(), "The pin file on the release branch.", default=pytorch.TRITON_PIN_PATH)
    version_path: str = key(
        Pattern(), "The file naming the triton version on the release branch.", default=pytorch.TRITON_VERSION_PATH
    )
    package: str = key(Pattern(), "The package on PyPI.", default=pytorch.TRITON_PACKAGE)
    versions: tuple[tuple[str, str], ...] = key(
        Pins(), "Each pinned commit (or a prefix of 7+) = the triton version it is published as.", default=()
    )


@dataclass(frozen=True, slots=True)
class ColabEvidence:
    """``[evidence.colab_issue]``: the issue asking Colab to take the new version, found by title."""

    repository: str = key(Repository(), "Colab's repository.", default=pytorch.COLAB_REPOSITORY)
    title: str = key(Pattern(), "The issue's title, a pattern.", default=pytorch.COLAB_TITLE)


@dataclass(frozen=True, slots=True)
class ReleaseWorkflowsEvidence:
    """``[evidence.release_workflows]``: where the go-live workflows run, for the checklist steps they perform."""

    repository: str = key(
        Repository(),
        "The repository of the release workflows (the template names pytorch/test-infra; a fork or mirror here).",
        default=pytorch.RELEASE_WORKFLOWS_REPOSITORY,
    )
    ref: str = key(Pattern(), "The ref they are dispatched from.", default=pytorch.RELEASE_WORKFLOWS_REF)
    packages: tuple[str, ...] = key(
        Texts(),
        "The packages the staging and PyPI workflows are run for, one real run each ({packages} in the template).",
        default=pytorch.RELEASE_WORKFLOWS_PACKAGES,
    )


_STEP = Strict(sort=True)  # a step's table lists its keys when one is unknown, as it always did


@dataclass(frozen=True, slots=True)
class EvidenceConfig:
    """Each step's evidence; None leaves that step to a signature."""

    validate_binaries: ValidateBinariesEvidence | None = key(
        Table(ValidateBinariesEvidence, strict=_STEP),
        "The validation workflow: its latest run for this version and channel, and which jobs failed.",
        default=None,
    )
    validation_comments: ValidationCommentsEvidence | None = key(
        Table(ValidationCommentsEvidence, strict=_STEP),
        "Each closed milestone issue has a validation comment, whoever wrote it.",
        default=None,
    )
    validation_issue: ValidationIssueEvidence | None = key(
        Table(ValidationIssueEvidence, strict=_STEP),
        "The release's validation issue: the title it is found by, and the one it is opened with.",
        default=None,
    )
    docs_build_entry: DocsEvidence | None = key(
        Table(DocsEvidence, strict=_STEP),
        "The docs repository's entry for the release, read at that ref.",
        default=None,
    )
    release_matrix_pr: PullEvidence | None = key(
        Table(ReleaseMatrixPR, strict=_STEP, build="evidence"),
        'The PR adding the release to the install matrix: found by title, or named by url = "https://github.com/OWNER/NAME/pull/123".',
        default=None,
    )
    published_versions_pr: PullEvidence | None = key(
        Table(PublishedVersionsPR, strict=_STEP, build="evidence"),
        "The PR adding the release to the published versions: found by title, or named by url.",
        default=None,
    )
    triton_pin_release: TritonEvidence | None = key(
        Table(TritonEvidence, strict=_STEP),
        "The triton commit pinned on the release branch is released on PyPI; a [evidence.triton_pin_release.versions] "
        "table maps each pinned commit to the triton version it is published as.",
        default=None,
    )
    colab_issue: ColabEvidence | None = key(
        Table(ColabEvidence, strict=_STEP),
        "The issue in Colab's repository naming the version (after the release).",
        default=None,
    )
    release_workflows: ReleaseWorkflowsEvidence | None = key(
        Table(ReleaseWorkflowsEvidence, strict=_STEP),
        "The go-live workflows' runs judge the checklist steps they perform (with the cockpit's dispatch journal).",
        default=None,
    )

    @property
    def configured(self) -> tuple[str, ...]:
        """The steps whose table the config has, in order."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) is not None)

    def enabled(self, gate: str) -> bool:
        return getattr(self, gate, None) is not None
