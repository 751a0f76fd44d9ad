"""The emulator's issue search, ``GET /search/issues?q=...``: the qualifiers a release manager's tools use.

Understood: ``repo:OWNER/NAME`` (required here), ``is:issue``/``is:pr``/``type:``, ``is:open``/
``is:closed``/``state:``, ``label:NAME`` (quoted when it has spaces), ``in:title``/``in:body``, and
free words or ``"quoted phrases"``, each matched case-insensitively (GitHub matches whole words; a
substring is close enough for titles). Other qualifiers answer 422 as an unknown field would, so the
cockpit never comes to rely on a qualifier the sandbox only pretends to know. The answer is
GitHub's ``{"total_count", "incomplete_results", "items", "search_type"}`` with a ``score`` on each item.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, Any

from cockpit.sandbox.github_paging import link_header, page_of
from cockpit.sandbox.http_base import Request, Response
from cockpit.sandbox.model import SbPull

if TYPE_CHECKING:
    from cockpit.sandbox.github_host import EmulatorHost

_QUALIFIER = re.compile(r"^([a-z]+):(.+)$", re.IGNORECASE)


def _terms(q: str) -> list[str] | None:
    try:
        return shlex.split(q)
    except ValueError:  # an unbalanced quote
        return None


class SearchHandlers:
    """``search_issues``; mixed into ``GitHubEmulator``."""

    def search_issues(self: EmulatorHost, request: Request) -> Response:
        terms = _terms(request.query.get("q", ""))
        if not terms:
            return self.validation_failed("Search", "q", code="missing")
        want: dict[str, set[str]] = {}
        words: list[str] = []
        for term in terms:
            m = _QUALIFIER.match(term)
            if not m:
                words.append(term.lower())
                continue
            key, value = m.group(1).lower(), m.group(2).strip('"').lower()
            if key == "type":
                key, value = "is", {"pr": "pr", "issue": "issue"}.get(value, value)
            elif key == "state":
                key = "is"
            allowed = {"is": ("issue", "pr", "open", "closed"), "in": ("title", "body")}
            if key not in ("repo", "is", "label", "in") or (key in allowed and value not in allowed[key]):
                return self.validation_failed("Search", "q", code="invalid", value=term)
            want.setdefault(key, set()).add(value)
        named = [self.repos.get(name) for name in want.get("repo", ())]
        repos = [state for state in named if state is not None]
        if not named or len(repos) < len(named):
            return self.validation_failed("Search", "q", code="invalid", value=request.query.get("q"))
        found = [(state, item) for state in repos for item in state.items.values() if _matches(item, want, words)]
        found.sort(key=lambda pair: pair[1].number, reverse=True)
        page, number, last = page_of(found, request.query)
        counts = {id(s): (s.milestone_counts(), s.comment_counts()) for s in repos}
        items = [{**self._issue(state, item, *counts[id(state)]), "score": 1.0} for state, item in page]
        body: dict[str, Any] = {
            "total_count": len(found),
            "incomplete_results": False,
            "items": items,
            "search_type": "lexical",
        }
        link = link_header(self.base_url, request.route, request.path.partition("?")[2], number, last)
        return Response.json(body, headers={"Link": link} if link else None)


def _matches(item: Any, want: dict[str, set[str]], words: list[str]) -> bool:
    kinds = want.get("is", set())
    is_pull = isinstance(item, SbPull)
    if ("issue" in kinds and is_pull) or ("pr" in kinds and not is_pull):
        return False
    if kinds & {"open", "closed"} and item.state not in kinds:
        return False
    labels = {label.lower() for label in item.labels}
    if not want.get("label", set()) <= labels:
        return False
    where = want.get("in") or {"title", "body"}
    text = " ".join(getattr(item, field) or "" for field in ("title", "body") if field in where).lower()
    return all(word in text for word in words)
