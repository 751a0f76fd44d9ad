"""The release's validation issue and validation comments: their defaults, in one place.

The actions that write them (``cockpit.actions.validation``) and the gates that read them back
must agree on what they look like, so both take these defaults (overridable in ``cockpit.toml``
``[evidence.validation_issue]`` ``new_title`` and ``repository``, ``[evidence.validation_comments]`` ``phrase``).

- The validation issue is found by its exact title: ``VALIDATION_ISSUE_TITLE`` with ``{version}``.
- A validation comment on a closed milestone issue is recognised, whoever wrote it, by containing
  ``VALIDATION_PHRASE`` with ``{version}`` (case and runs of spaces do not matter). The comment the
  cockpit posts (``[release] validation_comment``) must contain the phrase, or it would not
  recognise its own comment and could post it twice; the config refuses such a pair.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VALIDATION_ISSUE_TITLE = "[v{version}] Release validation"
VALIDATION_PHRASE = "Validated for {version}"
VALIDATION_COMMENT = "Validated for {version}: this fix is in the release branch."


@dataclass(frozen=True, slots=True)
class ValidationSettings:
    """Where the validation issue lives and how validation comments are recognised.

    ``repository`` "" means the release's own repository.
    """

    issue_title: str = VALIDATION_ISSUE_TITLE
    phrase: str = VALIDATION_PHRASE
    repository: str = ""

    def title_for(self, version: str) -> str:
        """The validation issue's exact title for ``version``."""
        return self.issue_title.replace("{version}", version)

    def phrase_for(self, version: str) -> str:
        """The phrase a validation comment for ``version`` contains."""
        return self.phrase.replace("{version}", version)


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def is_validation_comment(body: str, phrase: str) -> bool:
    """Whether a comment's ``body`` contains ``phrase`` (already filled in), ignoring case and spacing."""
    wanted = _folded(phrase)
    return bool(wanted) and wanted in _folded(body)


_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def unknown_placeholders(pattern: str, known: tuple[str, ...] = ("version",)) -> list[str]:
    """The ``{name}`` placeholders of ``pattern`` other than ``known`` (a config check)."""
    return [name for name in _PLACEHOLDER.findall(pattern) if name not in known]
