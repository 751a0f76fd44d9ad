"""The validation issue in the release team's shape: what to validate, sorted into the sections they use,
with what leaves it out. Pure.

Facts from pytorch/test-infra ``.claude/skills/release-create-validation-issue/SKILL.md`` (4dd9d5cdc):

- sections, an item in the first that fits: High Priority (``[hi-pri]`` in the title or the ``high
  priority`` label, and anything about vLLM), ONNX, MPS, ROCm, XPU (by title tag or label), then the
  milestone's other issues, then the other cherry-picks;
- left out: ``[RFC]``/``[RFD]`` items, release-only housekeeping (``[release-only]``, ``[RELEASE X.Y]``
  in the title), routine pin updates ("Update ... pinned commit"), cherry-picked reverts
  (``[cherry-pick] Revert "..."``), cherry-pick PRs closed without merging, and the release tracker
  itself;
- one line per item: ``- [ ] [cherry-pick] [hi-pri] title url`` with `` | <PR url>`` when a PR fixes the
  issue (its body says "Fixes #N"), then `` - @author``: the person, never a bot; a bot-made cherry-pick's
  author is the author of the trunk PR its branch names (``cherry-pick-<PR>-by-...``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from cockpit.domain.github import ItemKind, ItemState, MilestoneItem, PullState
from cockpit.domain.picks import PickRow
from cockpit.services.markdown import md_text

SECTIONS = ("High Priority", "ONNX", "MPS", "ROCm", "XPU", "Milestone Issues", "Cherry-picks")
BOTS = frozenset({"pytorchbot", "pytorchmergebot", "facebook-github-bot", "copilot", "github-actions[bot]"})
"""Accounts that never count as an item's author (the runbook names pytorchbot, Copilot, facebook-github-bot)."""

_LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")  # GitHub's login alphabet: nothing else is mentioned
_CHERRY_BRANCH = re.compile(r"^cherry-pick-(\d+)-by-")
_FIXES = re.compile(r"(?i)\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+#(\d+)\b")
_PIN_UPDATE = re.compile(r"(?i)\bupdate\b.*\bpinned commit\b")
_RELEASE_ONLY = re.compile(r"(?i)\[release-only\]|\[release \d+\.\d+\]")
_AREAS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    ("ONNX", re.compile(r"(?i)\[onnx\]|\bonnx(script)?\b"), ("module: onnx",)),
    ("MPS", re.compile(r"\[MPS\]"), ("module: mps", "release notes: mps")),
    ("ROCm", re.compile(r"(?i)\[rocm\]"), ("rocm",)),
    ("XPU", re.compile(r"(?i)\[xpu\]"), ("module: xpu",)),
)


@dataclass(frozen=True)
class Item:
    """One thing to validate: a milestone issue or PR, or a cherry-pick PR of the release branch."""

    number: int
    title: str
    url: str
    labels: tuple[str, ...] = ()
    author: str = ""
    cherry_pick: bool = False
    merged: bool = True  # a PR closed without merging is not validated
    fix_url: str = ""  # the PR that fixes this issue


def left_out(item: Item, *, tracker: int | None) -> str:
    """Why ``item`` is not validated ("" when it is)."""
    title = item.title.strip()
    if tracker is not None and item.number == tracker:
        return "the release tracker itself"
    if title.upper().startswith(("[RFC]", "[RFD]")):
        return "an RFC"
    if _RELEASE_ONLY.search(title):
        return "release-only housekeeping"
    if _PIN_UPDATE.search(title):
        return "a routine pin update"
    if item.cherry_pick and re.match(r"(?i)^\[cherry-pick\]\s*revert\b", title):
        return "a revert of a cherry-pick"
    if item.cherry_pick and not item.merged:
        return "a cherry-pick closed without merging"
    return ""


def high_priority(item: Item) -> bool:
    text = item.title.lower()
    return (
        "[hi-pri]" in text
        or "high priority" in item.labels
        or "vllm" in text
        or any("vllm" in label.lower() for label in item.labels)
    )


def section_of(item: Item) -> str:
    if high_priority(item):
        return "High Priority"
    for name, title_tag, labels in _AREAS:
        if title_tag.search(item.title) or any(any(want in label.lower() for want in labels) for label in item.labels):
            return name
    return "Cherry-picks" if item.cherry_pick else "Milestone Issues"


def fixed_issues(body: str) -> set[int]:
    """The issue numbers a PR's body says it fixes or closes."""
    return {int(n) for n in _FIXES.findall(body or "")}


def person(author: str, head_ref: str, trunk_authors: Mapping[int, str]) -> str:
    """An item's author as a person: the trunk PR's author for a bot-made cherry-pick (its branch
    ``cherry-pick-<PR>-by-...``), "" when only a bot is known."""
    found = _CHERRY_BRANCH.match(head_ref or "")
    if found and trunk_authors.get(int(found.group(1))):
        author = trunk_authors[int(found.group(1))]
    return "" if author.lower() in BOTS else author


def line(item: Item) -> str:
    tags = ("[cherry-pick] " if item.cherry_pick else "") + ("[hi-pri] " if high_priority(item) else "")
    title = md_text(item.title)
    if item.cherry_pick:
        title = re.sub(r"(?i)^\\?\[cherry-pick\\?\]\s*", "", title)
    if "[hi-pri]" in item.title.lower():
        title = re.sub(r"(?i)\\?\[hi-pri\\?\]\s*", "", title)
    fix = f" | {item.fix_url}" if item.fix_url else ""
    who = f" - @{item.author}" if _LOGIN.match(item.author) else ""
    return f"- [ ] {tags}{title} {item.url}{fix}{who}"


def sections(items: Iterable[Item], *, tracker: int | None) -> dict[str, list[Item]]:
    """The items kept, by section (every section present, in order; items by number in each)."""
    out: dict[str, list[Item]] = {name: [] for name in SECTIONS}
    for item in sorted(items, key=lambda i: i.number):
        if not left_out(item, tracker=tracker):
            out[section_of(item)].append(item)
    return out


def render(
    *,
    version: str,
    branch: str,
    milestone: tuple[str, str],
    tracker: tuple[int, str] | None,
    branch_url: str,
    items: Sequence[Item],
) -> str:
    """The issue's Markdown: a short header of where the items come from, then the sections."""
    title, milestone_url = milestone
    lines = [
        f"# Release {md_text(version)}: validation and cherry-picks",
        "",
        f"Everything to validate on the final release candidate of {md_text(version)}, one box each.",
        "",
        "Gathered from:",
        f"- the open and closed items of milestone [{md_text(title)}]({milestone_url}), RFCs left out",
    ]
    if tracker is not None:
        lines.append(
            f"- the cherry-picks of [release tracker #{tracker[0]}]({tracker[1]}) into [{branch}]({branch_url})"
        )
    for name, kept in sections(items, tracker=tracker[0] if tracker else None).items():
        if kept:
            lines += ["", f"## {name}", "", *(line(item) for item in kept)]
    return "\n".join(lines) + "\n"


def items_from(
    milestone: Sequence[MilestoneItem], picks: Sequence[PickRow], *, repository: str, branch: str
) -> list[Item]:
    """The validation items of a release: the milestone's issues (a PR of the milestone whose body fixes one
    of them shares its line; closed as not planned or duplicate: nothing to validate) and its PRs, and the
    cherry-picks of the tracker (each release-branch PR of the repository, merged or not, once)."""
    trunk_authors: dict[int, str] = {}
    for row in picks:
        for pr in row.pulls:
            if pr.base_ref != branch and pr.author:
                trunk_authors.setdefault(pr.number, pr.author)
    issues = {i.number: i for i in milestone if i.kind is ItemKind.ISSUE}
    fixes: dict[int, str] = {}
    out: dict[int, Item] = {}
    for m in milestone:
        if m.kind is ItemKind.PULL:
            fixed = [n for n in sorted(fixed_issues(m.body)) if n in issues]
            for n in fixed:
                fixes.setdefault(n, m.html_url)
            if fixed:
                continue  # on its issue's line
        elif m.state is ItemState.CLOSED and m.state_reason in ("not_planned", "duplicate"):
            continue
        cherry = m.kind is ItemKind.PULL and "[cherry-pick]" in m.title.lower()
        out[m.number] = Item(
            m.number, m.title, m.html_url, m.labels, person(m.author, "", trunk_authors), cherry_pick=cherry,
            merged=m.state is not ItemState.CLOSED_UNMERGED,
        )  # fmt: skip
    for number, url in fixes.items():
        if number in out:
            out[number] = replace(out[number], fix_url=url)
    for row in picks:
        for pr in row.pulls:
            home = not pr.repository or pr.repository.casefold() == repository.casefold()
            if home and pr.base_ref == branch and pr.number not in out:
                out[pr.number] = Item(
                    pr.number, pr.title, pr.html_url, (), person(pr.author, pr.head_ref, trunk_authors),
                    cherry_pick=True, merged=pr.state is PullState.MERGED,
                )  # fmt: skip
            elif home and pr.base_ref == branch:
                out[pr.number] = replace(out[pr.number], cherry_pick=True)
    return list(out.values())
