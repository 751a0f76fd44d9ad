"""How the branch diff reads a big history fast without changing a single answer.

The search of main before the cut runs beside the reading of the ranges after the cut; one pass
finds the issues every commit fixes; the cycle collector pauses during the load and always resumes.
"""

from __future__ import annotations

import gc
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockpit.domain.commits import CommitRecord, Verdict
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.errors import GitError
from cockpit.services import refs
from cockpit.services.branch_loader import load_branch_diff

REPO = "acme/torchlet"
MAIN, BRANCH, CUT = "m" * 40, "r" * 40, "0" * 40


def pull(number: int) -> MilestoneItem:
    url = f"https://github.com/{REPO}/pull/{number}"
    return MilestoneItem(number, ItemKind.PULL, f"PR {number}", ItemState.MERGED, url)


class SlowClone:
    """A clone where reading main after the cut and searching before the cut each take a while:
    each waits (up to a few seconds) to see the other one started, as two git processes would overlap."""

    def __init__(self) -> None:
        self.trunk_started, self.search_started = threading.Event(), threading.Event()
        self.overlapped: list[str] = []

    def rev_parse(self, ref):
        return {"main": MAIN, "release/1.0": BRANCH, "orig/release/1.0": CUT}.get(ref)

    def log(self, rev_range, *, grep=None, fixed_strings=False, extended=False):
        if grep:
            self.search_started.set()
            if self.trunk_started.wait(3):
                self.overlapped.append("search")
            return [CommitRecord("o" * 40, "Old fix (#7)")]
        if rev_range.endswith(MAIN):
            self.trunk_started.set()
            if self.search_started.wait(3):
                self.overlapped.append("trunk")
            return [CommitRecord("a" * 40, "New fix (#8)")]
        return [CommitRecord("b" * 40, "New fix (#8) (#90)")]

    def patch_ids(self, shas):
        return {}

    def merge_base(self, a, b):
        return CUT

    def is_ancestor(self, a, b):
        return True

    def is_shallow(self):
        return False


def test_the_search_before_the_cut_runs_while_main_after_the_cut_is_read():
    clone = SlowClone()
    report = load_branch_diff(clone, main="main", branch="release/1.0", items=[pull(7), pull(8)], repository=REPO)
    assert sorted(clone.overlapped) == ["search", "trunk"]
    assert [i.verdict for i in report.items] == [Verdict.LANDED_BEFORE_CUT, Verdict.LANDED]


def test_no_search_before_the_cut_when_no_item_could_need_one():
    clone = SlowClone()
    report = load_branch_diff(clone, main="main", branch="release/1.0", items=[], repository=REPO)
    assert not clone.search_started.is_set() and report.items == ()


@pytest.mark.parametrize("fails", ["trunk", "search"])
def test_the_collector_runs_again_after_a_load_even_a_failed_one(fails):
    class Failing(SlowClone):
        def log(self, rev_range, *, grep=None, **kw):
            if (grep and fails == "search") or (not grep and rev_range.endswith(MAIN) and fails == "trunk"):
                raise GitError("reading history failed: fatal: bad object")
            return []

    assert gc.isenabled()
    with pytest.raises(GitError):
        load_branch_diff(Failing(), main="main", branch="release/1.0", items=[pull(7)], repository=REPO)
    assert gc.isenabled()


def test_a_collector_paused_by_someone_else_stays_paused():
    gc.disable()
    try:
        load_branch_diff(SlowClone(), main="main", branch="release/1.0", items=[], repository=REPO)
        assert not gc.isenabled()
    finally:
        gc.enable()


pieces = st.sampled_from(
    [
        "Fixes",
        "fix",
        "Closes:",
        "resolved",
        "#12",
        "#123",
        " ",
        "\n",
        "\n\n",
        "\t",
        "İ",
        "ß",
        "_",
        "x",
        "https://github.com/acme/torchlet/issues/45",
        "https://github.com",
        "/acme/torchlet/issues/",
        "45",
        "(#9)",
        "https://h/acme/torchlet/issues/7.",
        "prefix",
        "close",
        "\x0b",
        "\u2028",
    ]
)
messages = st.lists(st.lists(pieces, max_size=8).map("".join), max_size=6)


@given(texts=messages)
def test_finding_fixes_in_many_messages_at_once_answers_as_one_by_one(texts):
    one_by_one = {i: refs.fixed_issues(t, REPO) for i, t in enumerate(texts)}
    assert refs.fixed_issues_each(texts, REPO) == {i: found for i, found in one_by_one.items() if found}


@pytest.mark.parametrize(
    "url, number",
    [
        ("https://github.com/acme/torchlet/pull/123", 123),
        ("https://github.com/acme/torchlet/pull/123.", 123),
        ("https://github.com/acme/torchlet/pull/", None),
        ("https://github.com/acme/torchlet/pull/12x", None),
        ("https://github.com/acme/torchlet/pull/\u0661\u0662", None),  # Arabic-Indic digits are no PR number
        ("https://github.com/acme/torchlet/pull/12/files", None),
        ("HTTPS://GitHub.com/ACME/torchlet/pull/7", 7),
        ("https://github.com/acme/torchlet-extra/pull/7", None),
    ],
)
def test_the_merge_bots_resolved_line_names_only_an_exact_pull_url(url, number):
    assert refs.resolved_pr(f"Summary\n\nPull Request resolved: {url}\nApproved by: x", REPO) == number
