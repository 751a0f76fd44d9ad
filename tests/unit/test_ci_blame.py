"""Which commit turned it red, which commit grew the wheel (#29 section 3), on hand-made commits: one commit
between green and red is named plainly with the pick it came from; paths named like a failing job are
pointed at; a revert and the commit it reverts, both between two builds, cancel out; a wheel that grew
beyond the threshold between two RCs is found, one that grew a little is not."""

from __future__ import annotations

from cockpit.domain.commits import CommitRecord
from cockpit.services.blame_words import blame_lines, jump_lines
from cockpit.services.ci_blame import ci_blame, jumps_between_builds, netted, size_jump

REPO = "acme/torchlet"


def commit(n: int, subject: str, body: str = "") -> CommitRecord:
    return CommitRecord((f"{n}c" * 40)[:40], subject, body)


def test_one_commit_between_green_and_red_is_said_plainly_with_the_pick_it_came_from():
    pick = commit(1, "Fix c10d timeout (#91208)", f"(cherry picked from commit {'ab' * 20})")
    blame = ci_blame(
        REPO,
        "release/2.5",
        "9" * 40,
        pick.sha,
        ["linux-jammy-py3.10-gcc11 / test (distributed, 1, 2)"],
        [pick],
        {pick.sha: {"torchlet/distributed/c10d.py", "docs/notes.md"}},
    )
    assert blame.summary.startswith("one commit lies between the last green commit (999999999999) and the red one")
    assert "#91208" in blame.summary and "abababababab" in blame.summary
    (c,) = blame.commits
    assert c.hits == (
        "torchlet/distributed/c10d.py ~ linux-jammy-py3.10-gcc11 / test (distributed, 1, 2) (distributed)",
    )
    assert blame_lines(blame)[0].startswith("Blame: one commit lies between")


def test_several_commits_are_counted_and_those_touching_a_failing_jobs_paths_are_pointed_at():
    a, b = commit(1, "Speed up inductor (#1)"), commit(2, "Docs (#2)")
    paths = {a.sha: {"torchlet/_inductor/lowering.py"}, b.sha: {"docs/index.md"}}
    jobs = ["inductor / test (inductor)"]
    blame = ci_blame(REPO, "v2.5.0-rc2", "v2.5.0-rc1", "v2.5.0-rc2", jobs, [a, b], paths, good_is="the previous RC")
    assert (
        blame.summary
        == "2 commits lie between the previous RC (v2.5.0-rc1) and the red one; 1 touch paths named like a failing job"
    )


def test_a_revert_and_its_reverted_commit_in_the_range_cancel_out():
    grew = commit(1, "Bundle the CUDA kernels (#5)")
    undone = commit(2, 'Revert "Bundle the CUDA kernels (#5)"', f"This reverts commit {grew.sha[:12]}.")
    stays = commit(3, "Add the cuDNN frontend (#7)")
    kept, gone = netted([stays, undone, grew])
    assert kept == [stays] and gone == 2
    sizes = ("v2.5.0-rc1", 930_000_000), ("v2.5.0-rc2", 1_061_000_000)
    jump = size_jump("torchlet cu126", "w.whl", *sizes, [stays, undone, grew], {}, REPO)
    assert [c.sha for c in jump.commits] == [stays.sha] and jump.netted == 2
    assert (
        "930.0 -> 1061.0 MB from rc1 to rc2; one commit between (2 reverts and reverted commits netted out)"
        in (jump_lines(jump)[0])
    )


def test_only_a_wheel_that_grew_beyond_the_threshold_between_two_builds_is_a_jump():
    big = "torchlet-2.5.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"
    small = "torchlet-2.5.0+cpu-cp312-cp312-manylinux_2_28_x86_64.whl"
    history = [
        ("v2.5.0-rc1", {big: 900_000_000, small: 200_000_000}),
        ("v2.5.0-rc2", {big: 1_000_000_000, small: 201_000_000}),
    ]
    found = jumps_between_builds(history, jump_ratio=1.05, jump_mb=50)
    assert found == [("torchlet cu126", big, ("v2.5.0-rc1", 900_000_000), ("v2.5.0-rc2", 1_000_000_000))]
