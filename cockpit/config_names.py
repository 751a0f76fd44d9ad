"""The short names and RC tag patterns of the release's repositories, as ``cockpit.toml`` gives them.

``[release] name`` and ``rc_tag_pattern`` are read for every release; ``[[repo]]`` entries
(``cockpit.config_repos``) use the same rules, and that module is imported only when a config has them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cockpit.config import _Table

DEFAULT_RC_TAG_PATTERN = "v{version}-rc{n}"
REPO_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
"""A repository's short name in gates and filters: ``pytorch``, ``vision``."""


def rc_tag_pattern(t: _Table, key: str = "rc_tag_pattern") -> str:
    """An RC tag pattern: literal text around ``{version}`` (optional) and ``{n}`` (the RC number)."""
    pattern = t.str(key, DEFAULT_RC_TAG_PATTERN)
    rest = pattern.replace("{version}", "", 1)
    if rest.count("{n}") != 1 or "{" in rest.replace("{n}", "") or "}" in rest.replace("{n}", ""):
        raise t.fail(
            key, "a tag pattern with one '{n}' and at most one '{version}', such as 'v{version}-rc{n}'", pattern
        )
    return pattern


def core_name(t: _Table, repository: str) -> str:
    """``[release] name``: the short name the core goes by in gates and filters (default: its repository's)."""
    default = repository.split("/")[1].lower()
    name = t.str("name", default)
    if not REPO_NAME.match(name):
        raise t.fail("name", "a short name of lower-case letters, digits, '-' or '_' such as 'pytorch'", name)
    return name
