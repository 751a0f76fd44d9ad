"""Reading ``cockpit.toml``: the file, its TOML, the schema walk, and the few checks across tables.

Every error names the file, the key and what was expected, in one line; every text value is made inert
as it is read (``cockpit.domain.text``): a config is outside text like any other.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from cockpit.config.document import Document
from cockpit.config.model import Config
from cockpit.config.release import ReleaseTable, RepoName
from cockpit.config.tables import read_table
from cockpit.config.where import Where
from cockpit.domain.release import Release
from cockpit.domain.validation import VALIDATION_PHRASE, ValidationSettings, is_validation_comment
from cockpit.errors import ConfigError

CONFIG_NAME = "cockpit.toml"


def load_config(path: Path) -> Config:
    """Read and validate ``path``; raise ConfigError naming the file and key on any problem."""
    path = Path(path).expanduser()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: no such file. Write one with 'cockpit init', or try 'cockpit demo' for a sandbox release"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_config(path, data)


def parse_config(path: Path, data: dict[str, Any]) -> Config:
    """Validate an already-parsed TOML document."""
    top = Where(path)
    doc: Document = read_table(Document, top, data)
    rel = doc.release
    branch = rel.branch_or_default()
    name = rel.name if rel.name is not None else _derived_name(top.child("release"), rel.repository)
    release = _release(rel, branch)
    config = Config(
        path=path,
        release=release,
        github=doc.github,
        git=doc.git,
        ci=tuple(ci.target(branch, rel.repository) for ci in doc.ci),
        storage=doc.storage,
        skip_labels=rel.skip_labels,
        validation_comment=rel.validation_comment,
        stale_days=doc.ui.stale_days,
        checklist_template=doc.checklist.template,
        state_path=doc.state.path,
        keymap=doc.keymap,
        theme=doc.ui.theme,
        schedule=doc.schedule,
        final_rc_date=rel.final_rc_date,
        phase_cutoff=rel.phase_cutoff,
        validation=_validation(top, doc, _given(data, "evidence", "validation_comments", "phrase")),
        merge_method=rel.merge_method,
        evidence=doc.evidence,
        core_name=name,
        rc_tag_pattern=rel.rc_tag_pattern,
        tracker_titles=rel.tracker_titles,
        warnings=tuple(top.warnings),
    )
    if not doc.repo:
        return config
    from cockpit.config.repos import libraries

    return replace(config, repos=libraries(top, doc.repo, config.core))


def _release(rel: ReleaseTable, branch: str) -> Release:
    return Release(rel.version, rel.repository, branch, rel.main, rel.milestone, rel.tracker_issue)


def _derived_name(where: Where, repository: str) -> str:
    """The core's short name when ``[release] name`` is absent: its repository's, which must fit too."""
    name: str = RepoName().read(where, "name", repository.split("/")[1].lower())
    return name


def _given(data: dict[str, Any], *keys: str) -> bool:
    node: Any = data
    for name in keys:
        if not isinstance(node, dict) or name not in node:
            return False
        node = node[name]
    return True


def _validation(top: Where, doc: Document, phrase_given: bool) -> ValidationSettings:
    """``[evidence.validation_issue]`` ``new_title`` and ``repository``, ``[evidence.validation_comments]``
    ``phrase``; the posted ``[release] validation_comment`` must contain the phrase (else it would be posted
    twice). A comment written before the phrase existed is recognised by its own words."""
    issue, comments = doc.evidence.validation_issue, doc.evidence.validation_comments
    phrase = comments.phrase if comments is not None else VALIDATION_PHRASE
    comment, version = doc.release.validation_comment, doc.release.version
    if not phrase_given and not _contains(comment, phrase, version):
        phrase = _own_words(comment) or phrase
    settings = ValidationSettings(phrase=phrase)
    if issue is not None:
        settings = ValidationSettings(issue.new_title, phrase, issue.repository)
    if not _contains(comment, phrase, version):
        raise top.child("release").fail(
            "validation_comment",
            f"a comment containing [evidence.validation_comments] phrase {settings.phrase_for(version)!r} "
            "(the cockpit recognises its own validation comments by it)",
            comment,
        )
    return settings


def _contains(comment: str, phrase: str, version: str) -> bool:
    return is_validation_comment(comment.replace("{version}", version), phrase.replace("{version}", version))


def _own_words(comment: str) -> str:
    """The comment's first line up to its first placeholder other than ``{version}``."""
    first = comment.strip().splitlines()[0] if comment.strip() else ""
    cut = min((i for i in (first.find("{number}"), first.find("{branch}")) if i >= 0), default=len(first))
    return first[:cut].strip(" :;,.-")
