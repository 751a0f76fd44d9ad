"""``Config``: one release as the rest of the cockpit sees it, made from ``cockpit.toml`` by ``loading``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from cockpit.config.evidence import EvidenceConfig
from cockpit.config.pytorch import SKIP_LABELS, TRACKER_TITLES
from cockpit.config.release import DEFAULT_RC_TAG_PATTERN, GitConfig, GitHubConfig
from cockpit.config.storage import StorageConfig
from cockpit.domain.merge_methods import DEFAULT_MERGE_METHOD
from cockpit.domain.release import CITarget, Release
from cockpit.domain.validation import VALIDATION_COMMENT, ValidationSettings

if TYPE_CHECKING:  # a patch release's schedule, and other repositories, are read only when the config has them
    from cockpit.config.repos import RepoConfig
    from cockpit.domain.schedule import PatchSchedule


@dataclass(frozen=True, slots=True)
class Config:
    """One release, as ``cockpit.toml`` describes it (validated: see ``load_config``).

    ``warnings``: what the file says that the cockpit ignores (unknown keys), for the command to show.
    """

    path: Path
    release: Release
    github: GitHubConfig
    git: GitConfig
    ci: tuple[CITarget, ...] = ()
    storage: StorageConfig = field(default_factory=StorageConfig)
    skip_labels: tuple[str, ...] = SKIP_LABELS
    validation_comment: str = VALIDATION_COMMENT
    stale_days: float = 7.0
    checklist_template: Path | None = None
    state_path: Path | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    theme: str = ""
    schedule: PatchSchedule | None = None  # [schedule]: a patch release's phases and deadline
    final_rc_date: date | None = None  # [release] final_rc_date: the target the burn-down marks
    phase_cutoff: date | None = None  # [release] phase_cutoff: the last day of phase 1; None: the tracker's
    validation: ValidationSettings = field(default_factory=ValidationSettings)  # [evidence] validation_*
    merge_method: str = DEFAULT_MERGE_METHOD  # [release] merge_method: how a release-branch PR is merged
    evidence: EvidenceConfig = field(default_factory=EvidenceConfig)  # [evidence]: steps that judge themselves
    core_name: str = ""  # [release] name: the core's short name in gates and filters; empty: its repository's
    rc_tag_pattern: str = DEFAULT_RC_TAG_PATTERN  # [release] rc_tag_pattern
    repos: tuple[RepoConfig, ...] = ()  # [[repo]]: the domain libraries released with the core
    tracker_titles: tuple[str, ...] = TRACKER_TITLES  # [release] tracker_titles: the forms a tracker is titled in
    warnings: tuple[str, ...] = ()

    @property
    def resolved_state_path(self) -> Path:
        return self.state_path or self.path.with_name("cockpit-state.toml")

    @property
    def core(self) -> RepoConfig:
        """The core repository, as ``[release]``, ``[git]`` and ``[storage]`` describe it."""
        from cockpit.config.repos import RepoConfig

        name = self.core_name or self.release.repository.split("/")[-1].lower()
        git = self.git
        return RepoConfig(
            name, self.release, git.clone, git.remote, git.cut, self.rc_tag_pattern, self.storage.packages, core=True
        )

    @property
    def repositories(self) -> tuple[RepoConfig, ...]:
        """Every repository of the release, the core first."""
        return (self.core, *self.repos)

    def repo_named(self, name: str) -> RepoConfig:
        """The repository called ``name``; a ConfigError listing the configured names otherwise."""
        from cockpit.config.repos import unknown_repo

        for repo in self.repositories:
            if repo.name == name:
                return repo
        raise unknown_repo([r.name for r in self.repositories], name)

    def for_repo(self, name: str) -> Config:
        """This config as a single-repository release of ``name`` (the core: this config itself), so
        every loader judges one domain library exactly as it judges the core."""
        repo = self.repo_named(name)
        if repo.core:
            return self
        return replace(
            self,
            release=repo.release,
            git=replace(self.git, clone=repo.clone, remote=repo.remote, cut=repo.cut),
            storage=replace(self.storage, packages=repo.packages),
            ci=tuple(t for t in self.ci if t.repository == repo.repository),
            schedule=None,
            final_rc_date=None,
            core_name=repo.name,
            rc_tag_pattern=repo.rc_tag_pattern,
            repos=(),
        )
