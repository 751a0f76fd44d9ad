"""The validation keys of ``cockpit.toml``, shared by the validation actions and the evidence gates so that
what the cockpit writes is what it recognises: ``[evidence.validation_issue]`` ``repository`` and
``new_title`` (the title the cockpit opens the issue with), and ``[evidence.validation_comments]`` ``phrase``
(what recognises a validation comment). Defaults in ``cockpit.domain.validation``.

The other keys of those tables (the gate's title pattern, ``max_issues``) are read by ``config_evidence``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cockpit.domain.validation import (
    VALIDATION_COMMENT,
    VALIDATION_ISSUE_TITLE,
    VALIDATION_PHRASE,
    ValidationSettings,
    is_validation_comment,
    unknown_placeholders,
)

if TYPE_CHECKING:
    from cockpit.config import _Table


def validation_settings(ev: _Table, rel: _Table, version: str, *, repository: Callable[..., str]) -> ValidationSettings:
    """The settings of ``ev`` (``[evidence]``); a ConfigError names the key and what was expected."""
    issue, comments = ev.table("validation_issue"), ev.table("validation_comments")
    title = issue.str("new_title", VALIDATION_ISSUE_TITLE)
    phrase = comments.str("phrase", VALIDATION_PHRASE)
    for table, key, value in ((issue, "new_title", title), (comments, "phrase", phrase)):
        if not value.strip():
            raise table.fail(key, "a non-empty text (placeholder: {version})", value)
        if unknown := unknown_placeholders(value):
            raise table.fail(key, "text whose only placeholder is {version}", f"{value} (unknown: {unknown[0]})")
    where: Any = repository(issue, "repository", "") if "repository" in issue.data else ""
    comment = rel.str("validation_comment", VALIDATION_COMMENT, multiline=True)
    if "phrase" not in comments.data and not _contains(comment, phrase, version):
        # a comment written before the phrase existed: it is recognised by its own words
        phrase = _own_words(comment) or phrase
    settings = ValidationSettings(issue_title=title, phrase=phrase, repository=where)
    if not _contains(comment, phrase, version):
        raise rel.fail(
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
