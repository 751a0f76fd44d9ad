"""The schema of the core's tables: ``[release]``, ``[github]``, ``[git]``, ``[[ci]]``, ``[ui]``,
``[checklist]`` and ``[state]``; with the short names and RC tag patterns ``[[repo]]`` shares."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from cockpit.config import pytorch
from cockpit.config.kinds import (
    Choice,
    Day,
    FilePath,
    IssueNumber,
    Kind,
    Milestone,
    Number,
    Repository,
    Text,
    Texts,
    TitleForms,
    Version,
    key,
)
from cockpit.config.where import Where
from cockpit.domain.merge_methods import DEFAULT_MERGE_METHOD, MERGE_METHODS
from cockpit.domain.release import CITarget
from cockpit.domain.validation import VALIDATION_COMMENT

DEFAULT_RC_TAG_PATTERN = "v{version}-rc{n}"
REPO_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
"""A repository's short name in gates and filters: ``pytorch``, ``vision``."""


def release_branch(version: str) -> str:
    """``release/X.Y`` for version ``X.Y.Z``: PyTorch cuts one branch per minor release."""
    return "release/" + version.rsplit(".", 1)[0]


class RepoName(Kind):
    """A repository's short name: lower-case letters, digits, '-' or '_'."""

    __slots__ = ("example",)

    def __init__(self, example: str = "pytorch") -> None:
        self.example = example

    @property
    def expected(self) -> str:  # type: ignore[override]
        return f"a short name of lower-case letters, digits, '-' or '_' such as '{self.example}'"

    def read(self, where: Where, key: str, value: Any) -> Any:
        name = Text().read(where, key, value)
        if not REPO_NAME.match(name):
            raise where.fail(key, self.expected, name)
        return name


class RcTagPattern(Kind):
    """An RC tag pattern: literal text around ``{version}`` (optional) and ``{n}`` (the RC number)."""

    expected = "a tag pattern with one '{n}' and at most one '{version}', such as 'v{version}-rc{n}'"

    def read(self, where: Where, key: str, value: Any) -> Any:
        pattern = Text().read(where, key, value)
        rest = pattern.replace("{version}", "", 1)
        if rest.count("{n}") != 1 or "{" in rest.replace("{n}", "") or "}" in rest.replace("{n}", ""):
            raise where.fail(key, self.expected, pattern)
        return pattern


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class ReleaseTable:
    """``[release]``: the release being made (the core repository's, when ``[[repo]]`` adds libraries)."""

    version: str = key(Version(), "The version being released, X.Y.Z.", example="2.5.0")
    repository: str = key(
        Repository(nonempty=True),
        "The GitHub repository the release is made from, OWNER/NAME.",
        example="acme/torchlet",
    )
    branch: str | None = key(
        Text(), "The release branch, cut from main for this minor release.", default=None, default_text="release/X.Y"
    )
    main: str = key(Text(), "The trunk: fixes land here first and are cherry-picked.", default="main")
    milestone: int | str | None = key(
        Milestone(), "The milestone gathering the release's fixes: its number, or its title.", default=None
    )
    tracker_issue: int | None = key(
        IssueNumber(), "The issue whose comments are the cherry-pick requests.", default=None
    )
    tracker_titles: tuple[str, ...] = key(
        TitleForms(),
        "The forms of the tracker issue's title ({version}, {version_short}; any one, ignoring case), "
        "by which 'cockpit init' finds it; the cherry-pick pane notes a tracker titled otherwise.",
        default=pytorch.TRACKER_TITLES,
    )
    name: str | None = key(
        RepoName(),
        "The core's short name in gates and filters.",
        default=None,
        default_text="the repository's name, lower-cased",
    )
    rc_tag_pattern: str = key(
        RcTagPattern(), "How RC tags are named: {version} and {n}, the RC number.", default=DEFAULT_RC_TAG_PATTERN
    )
    skip_labels: tuple[str, ...] = key(
        Texts(), "Milestone items with these labels are not fixes to pick.", default=pytorch.SKIP_LABELS
    )
    validation_comment: str = key(
        Text(multiline=True),
        "The comment posted on a closed milestone item whose fix is in the branch ({version}, {number}, {branch}).",
        default=VALIDATION_COMMENT,
    )
    final_rc_date: date | None = key(Day(), "The final RC's target day, marked on the burn-down.", default=None)
    phase_cutoff: date | None = key(
        Day(),
        "The last day of phase 1 (M4): a request posted later takes only release-blocking critical fixes.",
        default=None,
        default_text="read from the tracker issue's 'Phase 1 (until D/M/YY)'",
    )
    merge_method: str = key(
        Choice(MERGE_METHODS), "How a release-branch PR is merged from the cockpit.", default=DEFAULT_MERGE_METHOD
    )

    def branch_or_default(self) -> str:
        """``branch``, else ``release/X.Y`` from the version."""
        return self.branch if self.branch is not None else release_branch(self.version)


@dataclass(frozen=True, slots=True)
class GitHubConfig:
    """``[github]``: where the GitHub API is, how long to wait for it and how to sign in."""

    api_url: str = key(
        Text(trim=lambda url: url.rstrip("/")),
        "The REST API: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise.",
        default="https://api.github.com",
    )
    timeout_s: float = key(
        Number(minimum=0.1), "Seconds one request may take before it counts as failed.", default=15.0, toml="timeout"
    )
    max_rate_limit_wait_s: float = key(
        Number(),
        "The longest wait, in seconds, for a rate limit to reset before the cockpit says so instead.",
        default=30.0,
        toml="max_rate_limit_wait",
    )
    retries: int = key(Number(integer=True), "How often a failed request is tried again.", default=3)
    refresh_s: float = key(
        Number(minimum=5), "Seconds between refreshes of the panes' data.", default=120.0, toml="refresh_interval"
    )
    auth: str = key(
        Choice(("auto", "none")),
        'Where the token comes from: "auto" tries GH_TOKEN, GITHUB_TOKEN, the keyring and gh\'s login; '
        '"none" sends no token (public data only, 60 requests an hour).',
        default="auto",
    )


@dataclass(frozen=True, slots=True)
class GitConfig:
    """``[git]``: the local clone and how the release branch's own commits are told apart."""

    clone: Path = key(
        FilePath(nonempty=True, expand_user=True),
        "Your local clone, with the release branches. The cockpit writes to it only when you act.",
        example="~/src/torchlet",
    )
    remote: str = key(Text(), "The remote holding the release branch and the RC tags.", default="origin")
    cut: str = key(Text(), "Where the release branch was cut; empty: orig/<branch>, else the merge-base.", default="")
    fork_remote: str = key(
        Text(),
        "The remote of your fork: the pick branches of the reverts owed are pushed there, never to the release branch.",
        default="fork",
    )
    release_only_patterns: tuple[str, ...] = key(
        Texts(),
        "Regular expressions for the subjects of commits made only on the release branch (not picks).",
        default=pytorch.RELEASE_ONLY_PATTERNS,
    )


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class CITable:
    """``[[ci]]``: one repository whose release branch must be green."""

    repository: str = key(
        Repository(nonempty=True), "The repository whose check runs are read.", example="acme/torchlet"
    )
    branch: str | None = key(
        Text(), "Its release branch (the RC tags are checked too).", default=None, default_text="[release] branch"
    )
    required: tuple[str, ...] = key(
        Texts(),
        "Workflows that must pass on the branch head, matched by name as GitHub reports it (case-sensitive).",
        default=pytorch.REQUIRED_WORKFLOWS,
    )
    binary_workflows: tuple[str, ...] | None = key(
        Texts(),
        "The workflows building the wheels; judged on the newest RC tag, not the branch head. [] for none.",
        default=None,
        default_text="for the release's own repository PyTorch's binary builds ("
        + ", ".join(pytorch.BINARY_BUILD_WORKFLOWS)
        + "), else none",
    )
    binary_workflow: str = key(
        Text(), "One workflow building the wheels (older configs): added to binary_workflows.", default=""
    )
    unstable_jobs: tuple[str, ...] = key(
        Texts(), "Jobs known to be flaky, set aside from the verdict (still shown).", default=()
    )

    def target(self, release_branch: str, core_repository: str = "") -> CITarget:
        """What the CI pane judges; the branch defaults to the release's, the binary builds to PyTorch's
        for the release's own repository (``core_repository``), when neither binary key is given."""
        branch = self.branch if self.branch is not None else release_branch
        binaries = self.binary_workflows
        if binaries is None:
            usual = pytorch.BINARY_BUILD_WORKFLOWS if self.repository == core_repository else ()
            binaries = () if self.binary_workflow else usual
        if self.binary_workflow and self.binary_workflow not in binaries:
            binaries = (*binaries, self.binary_workflow)
        return CITarget(self.repository, branch, self.required, binaries, self.unstable_jobs)


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class UITable:
    """``[ui]``: how the cockpit looks."""

    stale_days: float = key(Number(), "Days after which a pane's data is shown as stale.", default=7.0)
    theme: str = key(
        Text(),
        "The colour theme: cockpit-dark, cockpit-light, cockpit-high-contrast, or one of your own "
        "(see 'cockpit locate'). Empty: the last one chosen, else cockpit-dark.",
        default="",
    )


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class ChecklistTable:
    """``[checklist]``: the release-day runbook."""

    template: Path | None = key(
        FilePath(), "Your own checklist template; empty: the one shipped with the cockpit.", default=None
    )


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class StateTable:
    """``[state]``: where the session's state (checklist progress, sign-offs, notes, audit log) is kept."""

    path: Path | None = key(
        FilePath(),
        "The state file; default: cockpit-state.toml beside this file.",
        default=None,
        default_text="cockpit-state.toml beside this file",
        example="cockpit-state.toml",
    )
