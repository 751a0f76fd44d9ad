"""A repository's RC tags by its configured pattern (``v{version}-rc{n}``, ``{version}-RC{n}`` ...)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from cockpit.domain.release import RC_NUMBER


def rc_tags_matching(tags: Mapping[str, str] | list[str], version: str, pattern: str) -> list[str]:
    """The tags of ``version`` that ``pattern`` describes, oldest RC first (rc2 before rc10)."""
    regex = re.compile(
        "^"
        + re.escape(pattern).replace(re.escape("{version}"), re.escape(version)).replace(re.escape("{n}"), RC_NUMBER)
        + "$"
    )
    found = [(int(m.group(1)), t) for t in tags if (m := regex.match(t))]
    return [t for _, t in sorted(found)]
