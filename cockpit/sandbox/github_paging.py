"""GitHub's page-number pagination: ``per_page`` (default 30, max 100), ``page``, and the Link header."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode

DEFAULT_PER_PAGE = 30
MAX_PER_PAGE = 100


def _positive_int(text: str | None, default: int) -> int:
    try:
        value = int(text) if text is not None else default
    except ValueError:
        return default
    return value if value > 0 else default


def page_of(items: Sequence[Any], query: dict[str, str]) -> tuple[list[Any], int, int]:
    """The slice of ``items`` the query asks for, with the page number and the last page number.

    Like GitHub, a bad or missing ``per_page``/``page`` falls back to the default instead of failing.
    """
    per_page = min(_positive_int(query.get("per_page"), DEFAULT_PER_PAGE), MAX_PER_PAGE)
    page = _positive_int(query.get("page"), 1)
    last = max(1, -(-len(items) // per_page))
    start = (page - 1) * per_page
    return list(items[start : start + per_page]), page, last


def link_header(base: str, route: str, raw_query: str, page: int, last: int) -> str | None:
    """GitHub's ``Link`` header (rel prev, next, last, first in GitHub's order); None for one page.

    The URLs repeat the request's own query with ``page`` replaced, as GitHub does.
    """
    if last <= 1:
        return None
    params = [(k, v) for k, v in parse_qsl(raw_query, keep_blank_values=True) if k != "page"]

    def url(n: int) -> str:
        return f"{base}{route}?{urlencode(params + [('page', str(n))], safe=',*/')}"

    links = []
    if page > 1:
        links.append(f'<{url(min(page - 1, last))}>; rel="prev"')
    if page < last:
        links.append(f'<{url(page + 1)}>; rel="next"')
        links.append(f'<{url(last)}>; rel="last"')
    if page > 1:
        links.append(f'<{url(1)}>; rel="first"')
    return ", ".join(links)
