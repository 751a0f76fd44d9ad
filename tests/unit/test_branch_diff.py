"""The branch diff on a small planted release: every verdict, every kind of evidence, the traps.

The repository is built once for the module (see ``build_release``) and read through the real git
adapter and loader, the way the cockpit reads a clone.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from types import SimpleNamespace

import pytest

from cockpit.adapters.git import GitRepo
from cockpit.domain.commits import (
    BranchDiffReport,
    CommitRecord,
    EvidenceKind,
    ItemDiff,
    RevertOwed,
    Verdict,
)
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.errors import ConfigError, GitError
from cockpit.services.branch_diff import analyze_branch, branch_gate
from cockpit.services.branch_loader import load_branch_diff
from gitrepo import REPO, RepoBuilder

RELEASE = "release/1.0"


def pull(number: int, state: ItemState = ItemState.MERGED, labels: tuple[str, ...] = ()) -> MilestoneItem:
    return MilestoneItem(
        number, ItemKind.PULL, f"PR {number}", state, f"https://github.com/{REPO}/pull/{number}", labels=labels
    )


def issue(number: int, state: ItemState = ItemState.CLOSED, state_reason: str = "") -> MilestoneItem:
    return MilestoneItem(
        number,
        ItemKind.ISSUE,
        f"Issue {number}",
        state,
        f"https://github.com/{REPO}/issues/{number}",
        state_reason=state_reason,
    )


def build_release(path) -> SimpleNamespace:
    """main with PRs before and after the cut, and a release branch holding picks of every shape."""
    r = RepoBuilder(path)
    s = SimpleNamespace(repo=r)
    r.commit("Initial commit", files={"README": "torchlet\n"})
    s.pre100 = r.pr("Add tensor core", 100, {"core.py": "core\n"})
    s.pre101 = r.pr("Add old feature", 101, {"old.py": "old\n"})
    s.pre102 = r.pr("Add other old thing", 102, {"other.py": "other\n"})
    s.pre103 = r.pr("Fix hang on spawn", 103, {"spawn.py": "spawn\n"}, body="Fixes #54")
    s.cut = r.head()
    r.branch(RELEASE)
    r.branch(f"orig/{RELEASE}")

    s.t12 = r.pr("Fix small thing", 12, {"small.py": "small\n"})
    s.t123 = r.pr("Fix bigger thing", 123, {"bigger.py": "bigger\n"})
    s.t1234 = r.pr("Improve docs", 1234, {"docs.md": "docs\n"})
    s.t12345 = r.pr("Speed up loader", 12345, {"loader.py": "fast\n"})
    s.t200 = r.pr("Sync vendored lib", 200, {"vendor.py": "v2\n"})
    s.t300 = r.pr("Fix crash", 300, {"crash.py": "fixed\n"})
    s.t401 = r.pr("Fix A", 401, {"a.py": "a\n"})
    s.t402 = r.pr("Fix B", 402, {"b.py": "b\n"})
    s.t500 = r.pr("Fix edge case", 500, {"edge.py": "edge\nline2\n"})
    s.t600 = r.pr("Fix memory leak", 600, {"leak.py": "leak\n"})
    s.t700 = r.pr("Add feature", 700, {"feature.py": "feature\n"})
    s.t800 = r.pr("Add gadget", 800, {"gadget.py": "gadget\n"})
    s.t77 = r.pr("Add experiment", 77, {"experiment.py": "x\n"})
    s.t510 = r.pr("Handle empty input", 510, {"empty.py": "empty\n"}, body="Fixes #51")
    s.t530 = r.pr("Handle nan", 530, {"nan.py": "nan\n"}, body=f"Fixes https://github.com/{REPO}/issues/53")
    bot = "Reverted https://github.com/acme/torchlet/pull/{} on behalf of https://github.com/maintainer"
    s.r700 = r.revert(s.t700, bot.format(700))
    s.r800 = r.revert(s.t800, bot.format(800))
    s.r77 = r.revert(s.t77, bot.format(77))
    s.r101 = r.revert(s.pre101, bot.format(101))
    s.r102 = r.revert(s.pre102, bot.format(102))
    s.main = r.head()

    r.checkout(RELEASE)
    s.bump = r.commit("Bump version to 1.0.1", files={"version.txt": "1.0.1\n"})
    s.p123 = r.pick(s.t123, subject="Cherry-pick #123 onto release/1.0", body="See abc#12 for context.", trailer=False)
    s.p12345 = r.pick(
        s.t12345,
        subject="[release/1.0] Speed up loader",
        body=f"Pull Request resolved: https://github.com/{REPO}/pull/12345",
        trailer=False,
    )
    r.tag("v1.0.0-rc1")
    s.p200 = r.pick(
        s.t200,
        subject="Sync vendored lib",
        body="Pull Request resolved: https://github.com/other/lib/pull/200",
        trailer=False,
        edit={"vendor.py": "v2 for 1.0\n"},
    )
    s.p300 = r.pick(s.t300, subject="Cherry-pick crash fix", body="")
    s.bulk = r.pick(
        s.t401,
        s.t402,
        subject="Cherry-pick changes for 1.0.1 (#950)",
        body="* Fix A (#401)\n* Fix B (#402)",
        trailer=False,
    )
    s.p500 = r.pick(
        s.t500,
        subject="Fix edge case (#500) (#951)",
        body="",
        trailer=False,
        edit={"edge.py": "edge\nline2 resolved by hand\n"},
    )
    s.p600 = r.pick(s.t600, subject="Backport leak fix", body="", trailer=False)
    s.p700 = r.pick(s.t700, subject="Add feature (#700) (#952)", body="", trailer=False)
    s.p800 = r.pick(s.t800)
    s.rb800 = r.revert(s.p800)
    s.p102 = r.pick(s.r102)
    s.p530 = r.pick(s.t530)
    s.pin = r.commit("[release/1.0] Pin triton", files={".ci/docker/ci_commit_pins/triton.txt": "abc\n"})
    s.fix960 = r.commit("Fix release packaging bug (#960)", files={"setup.py": "fixed\n"})
    r.tag("v1.0.0-rc2")
    r.checkout("main")
    return s


ITEMS = (
    pull(12),
    pull(123),
    pull(1234),
    pull(12345),
    pull(200),
    pull(300),
    pull(401),
    pull(402),
    pull(500),
    pull(600),
    pull(700),
    pull(77),
    pull(800),
    pull(100),
    pull(960),
    pull(901, ItemState.OPEN),
    pull(902, ItemState.CLOSED_UNMERGED),
    pull(60, labels=("release-feature-request",)),
    issue(50, ItemState.OPEN),
    issue(51),
    issue(52),
    issue(53),
    issue(54),
    issue(55, state_reason="not_planned"),
    issue(56, state_reason="duplicate"),
)


class CountingPort:
    """Wraps a git port and counts each method call: the loader's git calls must not grow with history."""

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, Counter()

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return method(*args, **kwargs)

        return counted


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    s = build_release(tmp_path_factory.mktemp("release") / "clone")
    s.port = CountingPort(GitRepo(s.repo.path, read_only=True))
    s.report = load_branch_diff(
        s.port, main="main", branch=RELEASE, items=ITEMS, repository=REPO, rc_base="v1.0.0-rc1", rc_head="v1.0.0-rc2"
    )
    s.by_number = {i.number: i for i in s.report.items}
    return s


def verdict(world, number: int) -> Verdict:
    return world.by_number[number].verdict


def kinds(item: ItemDiff) -> set[EvidenceKind]:
    return {e.kind for e in item.evidence}


def test_the_cut_is_orig_release_and_the_report_names_the_refs(world):
    assert (world.report.cut, world.report.branch, world.report.main) == (world.cut, RELEASE, "main")


def test_a_merged_pr_not_picked_is_missing_even_when_a_pick_names_a_longer_number(world):
    assert verdict(world, 12) is Verdict.MISSING
    assert world.by_number[12].commits == (world.t12,)
    assert verdict(world, 123) is Verdict.LANDED
    assert kinds(world.by_number[123]) == {EvidenceKind.PR_NUMBER}
    assert world.by_number[123].evidence[0].commit == world.p123


def test_a_pick_linking_pull_12345_does_not_land_pull_1234(world):
    assert verdict(world, 1234) is Verdict.MISSING
    assert verdict(world, 12345) is Verdict.LANDED
    assert kinds(world.by_number[12345]) == {EvidenceKind.PR_URL}


def test_another_repositorys_url_is_no_evidence_and_an_edited_copy_is_a_branch_only_change(world):
    assert verdict(world, 200) is Verdict.MISSING
    assert world.p200 in {c.sha for c in world.report.missing_in_main}


def test_a_pick_with_only_the_cherry_pick_trailer_lands(world):
    item = world.by_number[300]
    assert item.verdict is Verdict.LANDED
    assert kinds(item) == {EvidenceKind.CHERRY_PICK_TRAILER}


def test_a_bulk_pick_lands_each_pr_it_lists(world):
    for number in (401, 402):
        item = world.by_number[number]
        assert item.verdict is Verdict.LANDED
        assert [(e.kind, e.commit) for e in item.evidence] == [(EvidenceKind.BULK_PICK, world.bulk)]


def test_a_pick_edited_while_resolving_conflicts_landed_modified(world):
    item = world.by_number[500]
    assert item.verdict is Verdict.LANDED_MODIFIED
    assert kinds(item) == {EvidenceKind.PR_NUMBER}


def test_a_re_authored_pick_without_any_reference_is_found_by_patch_id(world):
    item = world.by_number[600]
    assert item.verdict is Verdict.LANDED
    assert [(e.kind, e.commit) for e in item.evidence] == [(EvidenceKind.PATCH_ID, world.p600)]


def test_a_pr_merged_before_the_cut_landed_before_cut(world):
    item = world.by_number[100]
    assert item.verdict is Verdict.LANDED_BEFORE_CUT
    assert item.commits == (world.pre100,)
    assert kinds(item) == {EvidenceKind.BEFORE_CUT}


def test_a_closed_issue_fixed_on_main_before_the_cut_landed_before_cut(world):
    item = world.by_number[54]
    assert item.verdict is Verdict.LANDED_BEFORE_CUT
    assert item.commits == (world.pre103,)
    assert kinds(item) == {EvidenceKind.BEFORE_CUT}


def test_a_pr_merged_then_reverted_on_main_needs_review_not_a_pick(world):
    assert verdict(world, 77) is Verdict.NEEDS_REVIEW
    assert "reverted on main" in world.by_number[77].note


def test_a_pick_the_branch_reverted_again_needs_review(world):
    item = world.by_number[800]
    assert item.verdict is Verdict.NEEDS_REVIEW
    assert "reverted on the release branch" in item.note


def test_a_release_branch_pr_in_the_milestone_landed_on_the_branch(world):
    item = world.by_number[960]
    assert item.verdict is Verdict.LANDED
    assert item.evidence[0].commit == world.fix960


def test_open_closed_unmerged_and_skipped_items(world):
    assert verdict(world, 901) is Verdict.NOT_MERGED
    assert verdict(world, 902) is Verdict.NOT_MERGED
    assert world.by_number[902].note == "closed without merge"
    assert verdict(world, 60) is Verdict.SKIPPED
    assert verdict(world, 50) is Verdict.OPEN_ISSUE


def test_closed_issues_are_judged_by_their_fix_commit(world):
    assert verdict(world, 51) is Verdict.MISSING
    assert world.by_number[51].commits == (world.t510,)
    assert verdict(world, 53) is Verdict.LANDED
    assert world.by_number[53].commits == (world.t530,)


def test_a_closed_issue_without_a_fix_commit_needs_review_instead_of_being_skipped(world):
    assert verdict(world, 52) is Verdict.NEEDS_REVIEW


def test_an_issue_closed_as_not_planned_or_duplicate_is_skipped_not_left_for_review(world):
    assert (verdict(world, 55), world.by_number[55].note) == (Verdict.SKIPPED, "closed as not planned")
    assert (verdict(world, 56), world.by_number[56].note) == (Verdict.SKIPPED, "closed as a duplicate")


def test_reverts_owed_are_a_reverted_pick_and_a_reverted_pre_cut_commit(world):
    owed = {r.revert_sha: r for r in world.report.reverts_to_propagate}
    assert set(owed) == {world.r700, world.r101}
    assert owed[world.r700].reverted_sha == world.t700
    assert owed[world.r700].reverted_pr == 700
    assert [(e.kind, e.commit) for e in owed[world.r700].how] == [(EvidenceKind.PR_NUMBER, world.p700)]
    assert owed[world.r101].reverted_pr == 101
    assert [(e.kind, e.commit) for e in owed[world.r101].how] == [(EvidenceKind.BEFORE_CUT, world.pre101)]


def test_reverts_the_branch_already_took_are_not_owed(world):
    owed = {r.revert_sha for r in world.report.reverts_to_propagate}
    assert world.r800 not in owed  # the branch reverted its pick
    assert world.r102 not in owed  # the branch picked the revert itself
    assert world.r77 not in owed  # its target never reached the branch


def test_only_real_branch_only_fixes_are_missing_in_main(world):
    assert {c.sha for c in world.report.missing_in_main} == {world.p200, world.fix960}
    assert world.report.release_only_patterns  # the rule applied is shown


def test_rc_delta_lists_commits_and_prs_between_two_tags(world):
    delta = world.report.rc_delta
    assert (delta.base, delta.head) == ("v1.0.0-rc1", "v1.0.0-rc2")
    shas = {c.sha for c in delta.commits}
    assert {world.p300, world.bulk, world.fix960} <= shas
    assert world.p123 not in shas and world.p12345 not in shas
    assert {401, 402, 950, 500, 951, 960} <= set(delta.prs)
    assert 12345 not in delta.prs


def test_the_loader_calls_git_a_fixed_number_of_times(world):
    calls = world.port.calls
    assert calls["log"] == 5  # trunk, branch, before-cut grep, RC delta, one walk for the reverted pre-cut commits
    assert calls["patch_ids"] == 1
    assert calls.get("is_ancestor", 0) == 0  # that walk answered whether the cut holds each of them


def test_the_gate_is_red_and_says_why_in_words(world):
    gate = branch_gate(world.report)
    assert gate.name == "branch_diff_clean"
    assert gate.status is GateStatus.RED
    assert gate.summary == "4 missing, 2 reverts owed, 1 landed modified, 3 need review, 2 fixes only on the branch"
    assert any("#12 " in d and "missing" in d for d in gate.details)


def test_a_missing_branch_is_one_clear_line(world):
    with pytest.raises(GitError) as err:
        load_branch_diff(world.port.inner, main="main", branch="release/9.9", items=(), repository=REPO)
    assert "release/9.9" in str(err.value) and "git fetch" in str(err.value)


def test_a_fresh_clone_with_only_remote_branches_gives_the_same_diff(world, tmp_path):
    subprocess.run(["git", "clone", "-q", str(world.repo.path), str(tmp_path / "fresh")], check=True)
    report = load_branch_diff(
        GitRepo(tmp_path / "fresh", read_only=True), main="main", branch=RELEASE, items=ITEMS, repository=REPO
    )
    assert report.cut == world.cut
    assert [i.verdict for i in report.items] == [i.verdict for i in world.report.items]


def test_a_shallow_clone_that_lacks_the_cut_is_refused_with_the_fix(world, tmp_path):
    source = f"file://{world.repo.path}"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", "--no-single-branch", source, str(tmp_path / "shallow")], check=True
    )
    with pytest.raises(GitError, match="fetch --unshallow"):
        load_branch_diff(GitRepo(tmp_path / "shallow"), main="main", branch=RELEASE, items=ITEMS, repository=REPO)


def test_a_cut_override_that_names_nothing_is_one_clear_line(world):
    with pytest.raises(GitError, match=r"git\.cut"):
        load_branch_diff(world.port.inner, main="main", branch=RELEASE, items=(), repository=REPO, cut_override="nope")


def c(sha: str, subject: str, body: str = "", parents: tuple[str, ...] = ("p",)) -> CommitRecord:
    return CommitRecord(sha=sha.ljust(40, "0"), subject=subject, body=body, parents=parents)


def no_patch_ids(shas):
    return {}


def no_history(numbers):
    return {}


def test_a_clean_branch_is_green():
    trunk = [c("a1", "Fix thing (#5)")]
    branch = [c("b1", "Fix thing (#5) (#6)")]
    report = analyze_branch(
        trunk=trunk, branch=branch, items=[pull(5)], repository=REPO, patch_ids=no_patch_ids, before_cut=no_history
    )
    gate = branch_gate(report)
    assert (gate.status, gate.summary) == (GateStatus.GREEN, "clean: 1 landed")


def test_amber_for_things_to_look_at_only():
    report = BranchDiffReport(items=(ItemDiff(1, "t", Verdict.NEEDS_REVIEW),))
    assert branch_gate(report).status is GateStatus.AMBER
    owed = BranchDiffReport(reverts_to_propagate=(RevertOwed("r", "Revert", "t", None),))
    assert branch_gate(owed).summary == "1 revert owed"


def test_a_bad_release_only_pattern_is_a_config_error_naming_it():
    with pytest.raises(ConfigError, match=r"\(unclosed"):
        analyze_branch(
            trunk=[],
            branch=[],
            items=[],
            repository=REPO,
            patch_ids=no_patch_ids,
            before_cut=no_history,
            release_only_patterns=["(unclosed"],
        )


def test_patch_ids_are_asked_once_and_before_cut_once_whatever_the_item_count():
    asked = Counter()

    def pids(shas):
        asked["patch_ids"] += 1
        return {}

    def earlier(numbers):
        asked["before_cut"] += 1
        return {}

    trunk = [c(f"a{n}", f"Fix {n} (#{n})") for n in range(1, 300)]
    branch = [c(f"b{n}", f"Backport {n}") for n in range(1, 50)]
    items = [pull(n) for n in range(1, 300)] + [pull(n) for n in range(1000, 1100)]
    analyze_branch(trunk=trunk, branch=branch, items=items, repository=REPO, patch_ids=pids, before_cut=earlier)
    assert asked == {"patch_ids": 1, "before_cut": 1}


def test_a_merge_commit_on_the_branch_is_not_a_fix_missing_in_main():
    branch = [c("m1", "Merge branch 'x' into release/1.0", parents=("p1", "p2"))]
    report = analyze_branch(
        trunk=[], branch=branch, items=[], repository=REPO, patch_ids=no_patch_ids, before_cut=no_history
    )
    assert report.missing_in_main == ()


class FakePort:
    """An in-memory clone: trunk of any size, a few picks, PRs merged before the cut."""

    def __init__(self, trunk_size: int) -> None:
        self.trunk = [c(f"a{n}", f"Change {n} (#{n})") for n in range(1, trunk_size + 1)]
        self.trunk.append(c("r1", 'Revert "Old thing (#5000000)"', "This reverts commit " + "e" * 40 + "."))
        self.branch = [
            c("b1", "Change 1 (#1) (#9000001)"),
            c("b2", "Backport change 2"),
            c("b3", "Bump version to 1.0.1"),
        ]
        self.before = [
            c("o1", "Old thing (#5000000)", f"Pull Request resolved: https://github.com/{REPO}/pull/5000000")
        ]
        self.refs = {"main": "m" * 40, RELEASE: "r" * 40, f"orig/{RELEASE}": "0" * 40}

    def rev_parse(self, ref):
        return self.refs.get(ref)

    def log(self, rev_range, *, grep=None, fixed_strings=False, extended=False):
        if grep:
            return [x for x in self.before if any(re.search(g, x.message, re.M) for g in grep)]
        return self.trunk if rev_range.endswith("m" * 40) else self.branch

    def patch_ids(self, shas):
        return {sha: "same" for sha in shas if sha.startswith(("a2", "b2"))}

    def merge_base(self, a, b):
        return "0" * 40

    def is_ancestor(self, a, b):
        return True

    def is_shallow(self):
        return False


@pytest.mark.parametrize("size", [10, 3000])
def test_the_loader_asks_git_the_same_few_questions_whatever_the_history_size(size):
    port = CountingPort(FakePort(size))
    items = [pull(1), pull(2), pull(3), pull(5000000), pull(7000000)]
    report = load_branch_diff(port, main="main", branch=RELEASE, items=items, repository=REPO)
    assert port.calls == Counter(rev_parse=3, log=3, patch_ids=1, is_ancestor=1, is_shallow=1)
    verdicts = [i.verdict for i in report.items]
    assert verdicts == [
        Verdict.LANDED,
        Verdict.LANDED,
        Verdict.MISSING,
        Verdict.LANDED_BEFORE_CUT,
        Verdict.NEEDS_REVIEW,
    ]
    assert [r.reverted_pr for r in report.reverts_to_propagate] == [5000000]


@pytest.mark.parametrize(
    "report, red_for",
    [
        (BranchDiffReport(items=(ItemDiff(7, "Fix", Verdict.MISSING, commits=("a" * 40,)),)), "1 missing"),
        (
            BranchDiffReport(reverts_to_propagate=(RevertOwed("r" * 40, 'Revert "x (#5)"', "t" * 40, 5),)),
            "1 revert owed",
        ),
    ],
)
def test_the_overview_holds_no_go_while_a_pr_is_missing_or_a_revert_is_owed(report, red_for):
    from cockpit.domain.reports import ChecklistReport
    from cockpit.services.overview import go_no_go

    gate = branch_gate(report)
    assert gate.status is GateStatus.RED and gate.summary == red_for
    others = {
        name: Gate(name, name, GateStatus.GREEN, "ok")
        for name in ("milestone_empty", "picks_clear", "ci_green", "rc_artifacts")
    }
    verdict = go_no_go({**others, "branch_diff_clean": gate}, ChecklistReport((), gate))
    assert not verdict.go and any(red_for in reason for reason in verdict.reasons)
    assert go_no_go({**others, "branch_diff_clean": branch_gate(BranchDiffReport())}, ChecklistReport((), gate)).go
