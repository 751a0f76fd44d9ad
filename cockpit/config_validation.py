"""``[evidence]`` validation keys of ``cockpit.toml``: the validation issue's title and repository, and
the phrase that recognises a validation comment (defaults in ``cockpit.domain.validation``).

Other ``[evidence]`` keys belong to the evidence gates and are not read here.
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
    title = ev.str("validation_issue_title", VALIDATION_ISSUE_TITLE)
    phrase = ev.str("validation_phrase", VALIDATION_PHRASE)
    for key, value in (("validation_issue_title", title), ("validation_phrase", phrase)):
        if not value.strip():
            raise ev.fail(key, "a non-empty text (placeholder: {version})", value)
        if unknown := unknown_placeholders(value):
            raise ev.fail(key, "text whose only placeholder is {version}", f"{value} (unknown: {unknown[0]})")
    where: Any = repository(ev, "validation_repository", "") if "validation_repository" in ev.data else ""
    comment = rel.str("validation_comment", VALIDATION_COMMENT, multiline=True)
    if "validation_phrase" not in ev.data and not _contains(comment, phrase, version):
        # a comment written before the phrase existed: it is recognised by its own words
        phrase = _own_words(comment) or phrase
    settings = ValidationSettings(issue_title=title, phrase=phrase, repository=where)
    if not _contains(comment, phrase, version):
        raise rel.fail(
            "validation_comment",
            f"a comment containing [evidence] validation_phrase {settings.phrase_for(version)!r} "
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
