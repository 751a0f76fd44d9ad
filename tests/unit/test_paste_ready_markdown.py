"""A release manager pastes ``cockpit report`` and ``missing-in-branch --format markdown`` into the
tracker. Whatever the titles say, the paste makes no link, image, emphasis or HTML, pings nobody,
and fits in one GitHub comment."""

from __future__ import annotations

import dataclasses
import re

import pytest

from cockpit.domain.commits import BranchDiffReport, CommitRecord, ItemDiff, Verdict
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.services.branch_render import to_markdown
from cockpit.services.markdown import CUT, GITHUB_COMMENT_LIMIT, cap_comment, md_code, md_link, md_text
from cockpit.services.report_render import render_markdown
from tests.hostile_text import MARKDOWN_ATTACKS
from tests.unit.test_report_render import picture

# What GitHub would make of each shape if it came through, as a pattern over the Markdown.
MADE = {
    "link": r"(?<!\\)\[release notes(?<!\\)\]\(",
    "image": r"(?<!\\)!\[",
    "mention": r"(?<![`\w])@alice\b",
    "team mention": r"(?<![`\w])@acme/release-team",
    "escaped mention": r"(?<![`\w])@bob\b",
    "emphasis": r"(?<!\\)\*\*urgent|(?<!\\)_now|(?<!\\)~~never",
    "img onerror": r"<img",
    "script": r"<script",
    "entity mention": r"(?<!&amp;)&#64;",
    "backticks": r"(?<!\\)`unbalanced",
    "math": r"(?<!\\)\$\\color",
}


def report_with_title(title: str) -> str:
    base = picture()
    item = dataclasses.replace(base.milestone.items[0], title=title)
    return render_markdown(dataclasses.replace(base, milestone=dataclasses.replace(base.milestone, items=(item,))))


def branch_markdown_with_title(title: str, *, count: int = 1) -> str:
    url = "https://github.com/acme/torchlet/pull/{}"
    items = tuple(ItemDiff(90000 + n, title, Verdict.MISSING, html_url=url.format(90000 + n)) for n in range(count))
    report = BranchDiffReport(
        items=items,
        missing_in_main=(CommitRecord("b" * 40, title, author="x"),),
        cut="c" * 40,
        branch="release/2.5",
        main="main",
    )
    return to_markdown(report, "1 missing")


@pytest.mark.parametrize("shape", MARKDOWN_ATTACKS, ids=list(MARKDOWN_ATTACKS))
@pytest.mark.parametrize("render", [report_with_title, branch_markdown_with_title], ids=["report", "missing-in-branch"])
def test_a_title_that_tries_markdown_or_html_is_shown_as_text(render, shape):
    markdown = render(f"Fix loader {MARKDOWN_ATTACKS[shape]} for good")
    assert not re.search(MADE[shape], markdown), f"{shape} came through: {markdown}"
    assert "Fix loader" in markdown and "for good" in markdown


def test_a_mention_reads_as_the_name_in_a_code_span():
    assert md_text("thanks @alice and @acme/release-team") == "thanks `@alice` and `@acme/release-team`"
    assert md_text("mail a@b.example") == "mail a@b.example"  # an address pings nobody


def test_html_from_a_title_is_shown_not_run():
    shown = md_text("<img src=x onerror=alert(1)> & <script>")
    assert shown == "&lt;img src=x onerror=alert\\(1\\)&gt; &amp; &lt;script&gt;"


def test_a_title_that_starts_like_a_heading_or_a_list_stays_text():
    assert md_text("# Title") == "\\# Title" and md_text("1. first") == "1\\. first" and md_text("- item") == "\\- item"
    assert md_text("2.5.0 is out") == "2.5.0 is out" and md_text("#123 fixed") == "#123 fixed"


def test_links_go_only_to_web_addresses_and_cannot_be_ended_early():
    assert md_link("#1", "javascript:alert(1)") == "#1"
    ended_early = md_link("#1", "https://github.com/a/b/pull/1) ![x](y")
    assert ended_early == "[#1](https://github.com/a/b/pull/1%29%20!%5Bx%5D%28y)"
    assert md_code("torchlet`@x`|y.whl") == "`torchlet@xy.whl`"


def test_a_100_kb_title_is_cut_to_300_characters_with_a_visible_mark():
    title = "A" * 100_000
    for markdown in (report_with_title(title), branch_markdown_with_title(title)):
        assert len(markdown) < 10_000
        assert f"{'A' * 300} {CUT}" in markdown and "A" * 301 not in markdown


def test_the_whole_missing_in_branch_table_fits_in_one_github_comment():
    markdown = branch_markdown_with_title("B" * 290, count=400)  # about 120,000 characters uncut
    assert len(markdown) < GITHUB_COMMENT_LIMIT
    assert markdown.rstrip().splitlines()[-1].startswith(CUT)
    assert markdown.count("| #9") > 100  # cut at a row, as many rows as fit


def test_the_whole_report_fits_in_one_github_comment():
    base = picture()
    items = tuple(
        MilestoneItem(
            10_000 + n, ItemKind.PULL, "C" * 290, ItemState.OPEN, f"https://github.com/acme/torchlet/pull/{10_000 + n}"
        )
        for n in range(400)
    )
    markdown = render_markdown(dataclasses.replace(base, milestone=dataclasses.replace(base.milestone, items=items)))
    assert len(markdown) < GITHUB_COMMENT_LIMIT
    last = markdown.rstrip().splitlines()[-1]
    assert last.startswith(CUT) and "cockpit report --format json" in last


def test_the_cap_counts_what_github_counts_even_for_emoji():
    cut = cap_comment("😀" * 40_000 + "\n" + "ok\n" * 10)  # 80,000 UTF-16 units on the first line
    assert len(cut.encode("utf-16-le")) // 2 < GITHUB_COMMENT_LIMIT and CUT in cut
    assert cap_comment("short\n") == "short\n"


def test_the_pick_detail_view_shows_a_pr_title_that_tries_markdown_as_text():
    from cockpit.domain.github import PullRequest, PullState
    from cockpit.domain.picks import PickRequest, PickRow, PickStatus, PRRef
    from cockpit.ui.panes.picks import detail_markdown

    pull = PullRequest(
        91300,
        "Fix [docs](https://evil.example) ![x](https://evil.example/p.png) @alice",
        PullState.MERGED,
        "main",
        "fix",
        "https://github.com/acme/torchlet/pull/91300",
    )
    request = PickRequest(1, "bob", "request body", trunk_prs=(PRRef(91300),))
    row = PickRow(request, PickStatus.UNDER_REVIEW, pulls=(pull,))
    heading = next(line for line in detail_markdown(row, "acme/torchlet").splitlines() if line.startswith("### "))
    assert heading == (
        "### Trunk PR #91300: Fix \\[docs\\]\\(https://evil.example\\) "
        "\\!\\[x\\]\\(https://evil.example/p.png\\) `@alice`"
    )
