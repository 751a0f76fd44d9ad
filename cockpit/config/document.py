"""``cockpit.toml`` as a whole: its tables, in the order the reference and ``cockpit init`` show them.

This is the one declaration of the file: ``loading`` reads it, ``reference`` documents it, and
``cockpit init`` writes its comments and defaults from it. ``[schedule]`` and ``[[repo]]`` are declared
by module name so that their modules load only when a config has them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cockpit.config.evidence import EvidenceConfig
from cockpit.config.kinds import KeyStrings, key
from cockpit.config.release import (
    ChecklistTable,
    CITable,
    GitConfig,
    GitHubConfig,
    ReleaseTable,
    StateTable,
    UITable,
)
from cockpit.config.storage import StorageConfig
from cockpit.config.tables import Lazy, Strict, Table, Tables


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)  # read, never compared
class Document:
    """Every table of ``cockpit.toml``; only ``[release]`` and ``[git]`` are required."""

    release: ReleaseTable = key(Table(ReleaseTable), ReleaseTable.__doc__ or "")
    github: GitHubConfig = key(Table(GitHubConfig), GitHubConfig.__doc__ or "", factory=GitHubConfig)
    git: GitConfig = key(Table(GitConfig), GitConfig.__doc__ or "")
    ci: tuple[CITable, ...] = key(Tables(CITable), CITable.__doc__ or "", default=())
    storage: StorageConfig = key(Table(StorageConfig), StorageConfig.__doc__ or "", factory=StorageConfig)
    ui: UITable = key(Table(UITable), UITable.__doc__ or "", factory=UITable)
    keymap: dict[str, str] = key(
        KeyStrings(),
        '``[keymap]``: keys moved or unbound by binding id (shown in ?), e.g. "app.refresh" = "ctrl+r" ("" unbinds).',
        factory=dict,
    )
    checklist: ChecklistTable = key(Table(ChecklistTable), ChecklistTable.__doc__ or "", factory=ChecklistTable)
    state: StateTable = key(Table(StateTable), StateTable.__doc__ or "", factory=StateTable)
    schedule: Any = key(
        Table("cockpit.config.schedule:ScheduleTable", strict=Strict(sort=True), build="schedule"),
        "``[schedule]``: a patch release's phases, deadline and labels.",
        default=None,
    )
    evidence: EvidenceConfig = key(
        Table(EvidenceConfig, strict=Strict(sort=True, suffix=" (a table each)")),
        "``[evidence]``: checklist steps whose evidence lives in other repositories turn automatic with their "
        "table; each key has PyTorch's value, so the table alone is often enough.",
        factory=EvidenceConfig,
    )
    repo: tuple[Any, ...] = key(
        Lazy("cockpit.config.repos:RepoEntries", expected="an array of tables ([[...]])"),
        "``[[repo]]``: each domain library released with the core; without it the release is one repository.",
        default=(),
    )
