"""The release tracker's cherry-pick request template, and the planted requests as data.

``fields`` writes a request the way people fill the tracker's template (bullet lines, inline
values, the old "master" label); ``PlantedRequests`` collects each planted comment with what a
correct pick tracker must read from it, the entry of ``truth["picks"]`` (see ``world.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from cockpit.domain.picks import PickStatus
from cockpit.sandbox.world_names import CORE, GITHUB

TRUNK_LABEL = "Link to landed trunk PR (if applicable):"
MASTER_LABEL = "Link to landed master PR (if applicable):"
RELEASE_LABEL = "Link to release branch PR:"
CATEGORY_LABEL = "Criteria Category:"
COMMENT_ID_BASE = 2_350_000_000


def url(number: int, kind: str = "pull", repository: str = CORE) -> str:
    """The web address of a PR (or, with ``kind="issues"``, an issue) of ``repository``."""
    return f"{GITHUB}/{repository}/{kind}/{number}"


def fields(
    trunk: list[str],
    release: list[str],
    category: list[str],
    *,
    bullet: str = "* ",
    trunk_label: str = TRUNK_LABEL,
    inline: bool = False,
    extra: tuple[str, ...] = (),
) -> str:
    """The request template: each label, then its values as bullet lines (or inline)."""
    blocks = []
    for label, values in ((trunk_label, trunk), (RELEASE_LABEL, release), (CATEGORY_LABEL, category)):
        if inline:
            blocks.append(f"{label} {' '.join(values)}".rstrip())
        else:
            blocks.append("\n".join([label, *(f"{bullet}{v}" for v in values)]))
    text = ("\n" if inline else "\n\n").join(blocks)
    return text + "".join(f"\n\n{line}" for line in extra) + "\n"


@dataclass
class Request:
    """One planted comment and what a parser must read from it."""

    author: str
    body: str
    when: int
    truth: dict = field(default_factory=dict)
    edited_after: int = 0


@dataclass
class PlantedRequests:
    """The tracker's comments in the order they are planted (they are posted in time order)."""

    requests: list[Request] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.requests)

    def add(
        self,
        author: str,
        body: str,
        at: int,
        trunk: list,
        release: list,
        *,
        status: PickStatus,
        flags: Iterable[object] = (),
        category: str = "",
        hints: Iterable[str] = (),
        trunk_na: bool = False,
        parsed: bool = True,
        edited_after: int = 0,
    ) -> None:
        """Plant a comment by ``author`` at ``at`` and what a parser must read from it: its trunk and
        release PRs, category, hints, the issues it says it fixes, and the status and flags it earns."""
        fixes = re.findall(r"(?:^Issue fixed: | - )(https://\S+/issues/\d+|#\d+)$", body, re.M) if parsed else []
        truth = {
            "parsed": parsed,
            "trunk_prs": trunk,
            "release_prs": release,
            "category": category.split(" - http")[0],
            "trunk_na": trunk_na,
            "fixes": fixes,
            "hints": list(hints),
            "status": str(status),
            "flags": [str(f) for f in flags],
        }
        self.requests.append(Request(author, body, at, truth, edited_after))
