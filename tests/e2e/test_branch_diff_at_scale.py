"""The branch diff on a small PyTorch-shaped history (the benchmark's generator) tells the planted truth.

The history has every shape the benchmark's 100k-commit one has: ``-x`` picks, ``(#N) (#M)``
picks, bulk picks, re-titled picks only a patch id finds, modified picks, picks reverted on the
branch, PRs reverted on main (picked or not, the revert taken or not), reverts of commits from
before the cut, PRs that landed before the cut, numbers that prefix picked ones, fixes made only on
the branch, open and unmerged items, all under merge-bot messages with ghstack lists and mentions.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cockpit.adapters.git import GitRepo
from cockpit.sandbox.scale_history import build_scale_history
from cockpit.services.branch_loader import load_branch_diff


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return build_scale_history(tmp_path_factory.mktemp("scale"), trunk_commits=3000, after_cut=600, milestone_prs=200)


@pytest.fixture(scope="module")
def report(history):
    repo = GitRepo(Path(history.clone), read_only=True)
    return load_branch_diff(
        repo, main="main", branch=history.branch, items=history.milestone_items(), repository=history.repository
    )


def test_the_small_history_plants_every_verdict_and_the_prefix_traps(history):
    planted = Counter(history.verdicts.values())
    assert set(planted) == {
        "landed",
        "landed_modified",
        "landed_before_cut",
        "missing",
        "not_merged",
        "open_issue",
        "needs_review",
        "skipped",
    }
    picked = {int(n) for n, v in history.verdicts.items() if v == "landed"}
    prefixes = [n for n in map(int, history.verdicts) if any(p // 10 == n for p in picked)]
    assert len(prefixes) >= 4, "milestone numbers that prefix picked PRs (#1234 vs #12345)"
    assert history.reverts_owed and history.missing_in_main


def test_every_item_gets_the_planted_verdict(history, report):
    got = {str(i.number): i.verdict.value for i in report.items}
    wrong = {n: (got.get(n), want) for n, want in history.verdicts.items() if got.get(n) != want}
    assert not wrong, f"(got, planted) per item: {wrong}"
    assert len(report.items) == len(history.items)


def test_reverts_owed_are_exactly_the_planted_ones(history, report):
    assert {r.revert_sha for r in report.reverts_to_propagate} == set(history.reverts_owed)


def test_fixes_made_only_on_the_branch_are_found_and_nothing_else(history, report):
    assert {c.sha for c in report.missing_in_main} == set(history.missing_in_main)
