"""The bot's cherry-pick command, and which of its classes a request's free-text category means."""

from __future__ import annotations

from cockpit.errors import CockpitError

BOT_CLASSES = ("regression", "critical", "fixnewfeature", "docs", "release")
CLASSES_NEEDING_FIXES = frozenset({"regression", "critical", "fixnewfeature"})
"""Classes whose picks should name the issue they fix. Advice only: the bot takes them without
``--fixes`` (RELEASE.md's usage line has it in brackets), so the cockpit refuses nothing the bot accepts."""


class PickCommandError(CockpitError, ValueError):
    """The cherry-pick bot command cannot be composed from what was given."""

    title = "Cherry-pick"


def suggest_class(category: str) -> str | None:
    """The bot's ``-c`` class a free-text category most likely means, or None when unclear."""
    text = " ".join(category.casefold().replace("-", " ").replace("_", " ").split())
    if "regression" in text:
        return "regression"
    if "critical" in text:
        return "critical"
    if "fixnewfeature" in text or "new feature" in text:
        return "fixnewfeature"
    if text.startswith("doc") or " doc" in text:
        return "docs"
    if "release" in text:
        return "release"
    return None


def bot_command(*, branch: str, category: str, fixes: str | None) -> str:
    """The comment that asks the bot to pick a merged trunk PR onto ``branch``.

    ``@pytorchbot cherry-pick --onto release/X.Y -c CLASS [--fixes URL]``: ``--onto`` and ``-c`` are
    required, ``--fixes`` is optional for every class (``fixes_advice`` says when one is wanted).
    Raises ``PickCommandError`` (a ``ValueError``) for an unknown class, a malformed branch, or a
    ``--fixes`` value with spaces in it: what the bot itself would not read.
    """
    cls = "".join(category.casefold().split()).replace("-", "").replace("_", "")
    if cls not in BOT_CLASSES:
        raise PickCommandError(f"unknown cherry-pick class {category!r}: expected one of {', '.join(BOT_CLASSES)}")
    branch = branch.strip()
    if not branch or any(ch.isspace() for ch in branch):
        raise PickCommandError(f"release branch {branch!r} is not a branch name: expected e.g. 'release/2.5'")
    fixes = (fixes or "").strip()
    if fixes and any(ch.isspace() for ch in fixes):
        raise PickCommandError(f"--fixes {fixes!r} must be one issue link without spaces")
    command = f"@pytorchbot cherry-pick --onto {branch} -c {cls}"
    return f"{command} --fixes {fixes}" if fixes else command


def fixes_advice(category: str, fixes: str | None) -> str | None:
    """A hint when a regression/critical/fixnewfeature pick names no issue, or None. Never a refusal."""
    cls = "".join(category.casefold().split()).replace("-", "").replace("_", "")
    if cls in CLASSES_NEEDING_FIXES and not (fixes or "").strip():
        return f"the bot accepts it; a '{cls}' pick usually names the issue it fixes (--fixes URL)"
    return None
