"""Cherry-pick predictions are git's own answer: each one is replayed with ``git cherry-pick -x``.

A crafted release tells the story (a pick that applies, one that conflicts on an adjacent line,
one that applies only after another, a rename, a deletion, a pick already applied by hand), and
seeded random histories of the same ingredients check that nothing else disagrees. The clone a
prediction reads is byte-for-byte the same afterwards.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from cockpit.adapters.git import GitRepo
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.errors import GitError
from cockpit.services.branch_loader import load_branch_diff
from cockpit.services.pick_predict import PickPlan, predict_picks, suggested_order
from tests.adapters.pick_replay import ScratchClone, check_against_git, snapshot
from tests.gitrepo import REPO, RepoBuilder


def _lines(name: str, n: int = 8) -> str:
    return "".join(f"{name} line {j}\n" for j in range(n))


def _edit(text: str, line: int, new: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[line] = new + "\n"
    return "".join(lines)


def _plans(repo: GitRepo, cut: str, groups: dict[str, list[str]]) -> dict[str, PickPlan]:
    """Plans for ``key -> trunk commits``; ages from the order of main after ``cut``."""
    trunk = repo.log(f"{cut}..main")
    age = {c.sha: len(trunk) - n for n, c in enumerate(trunk)}
    parent = {c.sha: c.parents[0] for c in trunk}
    return {
        key: PickPlan(key, tuple(shas), tuple(parent[s] for s in shas), age[shas[0]]) for key, shas in groups.items()
    }


def _predict(path: Path, head: str, plans: dict[str, PickPlan]):
    repo = GitRepo(path, read_only=True)
    with repo.scratch_merges() as lab:
        return predict_picks(list(plans.values()), head, lab)


@pytest.fixture
def release(tmp_path: Path):
    """main and release/2.5 cut from it, with every shape of pick after the cut."""
    b = RepoBuilder(tmp_path / "clone")
    files = {"f.py": _lines("f", 10), "g.py": _lines("g", 5), "h.py": _lines("h", 6), "d.py": _lines("d", 3)}
    cut = b.commit("base", files={**files, "README": "readme\n"})
    b.branch("release/2.5")
    shas = {}
    shas["A"] = b.pr("Add a new op", 101, {"new.py": "def op():\n    return 1\n"})
    shas["B"] = b.pr("Tweak f line 4", 102, {"f.py": _edit(files["f.py"], 4, "f line 4 on main")})
    g1 = _edit(files["g.py"], 2, "g line 2 first")
    shas["C1"] = b.pr("First g change", 103, {"g.py": g1})
    shas["C2"] = b.pr("Second g change", 104, {"g.py": _edit(g1, 2, "g line 2 second")})
    b.git("mv", "h.py", "h_renamed.py")
    shas["R"] = b.pr("Rename h", 105, {"h_renamed.py": _edit(files["h.py"], 0, "h line 0 renamed")})
    b.git("rm", "-q", "d.py")
    shas["D"] = b.pr("Delete d", 106, {})
    shas["E"] = b.pr("Readme fix", 107, {"README": "readme, fixed\n"})
    shas["M1"] = b.pr("Stacked one", 108, {"m.py": "one\n"})
    shas["M2"] = b.commit("Stacked two", files={"m.py": "one\ntwo\n"})
    picked = b.pr("A fix the branch took", 109, {"p.py": "fixed\n"})
    shas["V"] = b.revert(picked)  # a revert the branch owes
    b.checkout("release/2.5")
    b.git("cherry-pick", "-x", picked)
    b.commit("[RELEASE ONLY] f line 5", files={"f.py": _edit(files["f.py"], 5, "f line 5 on release")})
    b.commit("[RELEASE ONLY] d", files={"d.py": _edit(files["d.py"], 1, "d line 1 on release")})
    b.commit("Readme fix, by hand", files={"README": "readme, fixed\n"})
    head = b.head()
    b.checkout("main")
    groups = {k: [v] for k, v in shas.items() if k not in ("M1", "M2")} | {"M": [shas["M1"], shas["M2"]]}
    return b.path, cut, head, _plans(GitRepo(b.path), cut, groups)


def test_each_kind_of_pick_is_predicted_as_git_does_it(release, tmp_path: Path) -> None:
    path, _, head, plans = release
    got = _predict(path, head, plans)
    assert got["A"].applies and not got["A"].conflicts
    assert not got["B"].applies and got["B"].conflicts == ("f.py",) and got["B"].after == ()
    assert not got["C2"].applies and got["C2"].after == ("C1",)
    assert got["C1"].group == ("C2",) and got["C2"].group == ("C1",)
    assert got["R"].applies
    assert got["D"].conflicts == ("d.py",)
    assert got["E"].empty and not got["E"].applies
    assert got["M"].applies  # two commits of one PR, picked in order
    assert got["V"].applies  # the revert the branch owes
    assert check_against_git(ScratchClone(path, tmp_path / "scratch"), head, plans, got) == []


def test_the_clone_is_byte_for_byte_unchanged(release) -> None:
    path, _, head, plans = release
    before = snapshot(path)
    refs = subprocess.run(["git", "for-each-ref"], cwd=path, capture_output=True, text=True).stdout
    _predict(path, head, plans)
    assert snapshot(path) == before
    assert subprocess.run(["git", "for-each-ref"], cwd=path, capture_output=True, text=True).stdout == refs


def test_posting_several_picks_suggests_the_order_they_need(release) -> None:
    path, _, head, plans = release
    got = _predict(path, head, plans)
    oldest_first = [got[k] for k in sorted(plans, key=lambda k: plans[k].age)]
    assert suggested_order(["C2", "A", "C1"], oldest_first) == (["A", "C1", "C2"], [])
    assert suggested_order(["C2"], oldest_first) == (["C2"], ["C1"])


def _random_history(path: Path, seed: int) -> tuple[str, str, dict[str, list[str]]]:
    """A release whose main edits, adds, renames and deletes files, and whose branch picks some of
    main's commits, edits lines of its own, and applies one of main's changes by hand."""
    rng = random.Random(seed)
    b = RepoBuilder(path)
    files = {f"f{i}.py": _lines(f"f{i}") for i in range(5)}
    cut = b.commit("base", files=dict(files))
    b.branch("release/2.5")
    missing: dict[str, list[str]] = {}
    for n in range(24):
        name = rng.choice(sorted(files))
        kind = rng.choices(["edit", "edit2", "add", "rename", "delete"], [6, 2, 1, 1, 1])[0]
        if kind == "add" or len(files) < 3:
            name = f"new{n}.py"
            files[name] = _lines(name)
        elif kind == "rename":
            b.git("mv", name, f"moved{n}.py")
            files[f"moved{n}.py"] = _edit(files.pop(name), 0, f"moved at {n}")
            name = f"moved{n}.py"
        elif kind == "delete":
            b.git("rm", "-q", name)
            del files[name]
        else:
            line = rng.randrange(7)
            files[name] = _edit(files[name], line, f"main {n}")
            if kind == "edit2":
                files[name] = _edit(files[name], line + 1, f"main {n} too")
        sha = b.pr(f"Change {n}", 200 + n, {name: files[name]} if name in files else {})
        b.checkout("release/2.5")
        roll, before = rng.random(), b.head()
        if roll < 0.3:
            b.git("cherry-pick", "-x", sha, check=False)
            b.git("cherry-pick", "--abort", check=False)
        if b.head() == before:  # not picked (or the pick conflicted): missing
            missing[f"#{200 + n}"] = [sha]
            if roll > 0.85:
                own = rng.choice(sorted(p for p in (b.path).glob("*.py")))
                text = own.read_text().splitlines(keepends=True)
                text[rng.randrange(len(text))] = f"release {n}\n"
                b.commit(f"[RELEASE ONLY] {n}", files={own.name: "".join(text)})
            elif roll > 0.78:
                b.git("cherry-pick", "-n", sha, check=False)
                if not b.git("diff", "--name-only", "--diff-filter=U"):
                    b.commit(f"Change {n}, by hand")
                b.git("reset", "-q", "--hard")
        b.checkout("main")
    return cut, b.head("release/2.5"), missing


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_random_histories_agree_with_git_cherry_pick(tmp_path: Path, seed: int) -> None:
    cut, head, missing = _random_history(tmp_path / "clone", seed)
    plans = _plans(GitRepo(tmp_path / "clone"), cut, missing)
    got = _predict(tmp_path / "clone", head, plans)
    assert check_against_git(ScratchClone(tmp_path / "clone", tmp_path / "scratch"), head, plans, got) == []
    assert any(not p.applies for p in got.values()) and any(p.applies for p in got.values())


def _milestone(numbers) -> list[MilestoneItem]:
    return [
        MilestoneItem(n, ItemKind.PULL, f"PR {n}", ItemState.MERGED, f"https://github.com/{REPO}/pull/{n}")
        for n in numbers
    ]


def test_the_branch_diff_carries_a_prediction_for_each_missing_pr_oldest_first(release) -> None:
    path, _, _, _ = release
    report = load_branch_diff(
        GitRepo(path, read_only=True),
        main="main",
        branch="release/2.5",
        items=_milestone(range(101, 109)),
        repository=REPO,
        predict=True,
    )
    got = {p.key: p for p in report.predictions}
    # #107 was applied by hand with the same patch: the branch diff finds it landed, nothing to pick
    revert = report.reverts_to_propagate[0].revert_sha
    assert [p.key for p in report.predictions] == ["#101", "#102", "#103", "#104", "#105", "#106", "#108", revert]
    assert got[revert].applies
    assert got["#102"].conflicts == ("f.py",) and got["#104"].after == ("#103",) and got["#108"].applies


class _NoScratch(GitRepo):
    def scratch_merges(self):
        raise GitError("predicting picks failed: no space left on device")


def test_a_prediction_git_cannot_make_leaves_the_branch_diff_standing_with_the_reason(release) -> None:
    path, _, _, _ = release
    ask = {"main": "main", "branch": "release/2.5", "items": _milestone([101, 102]), "repository": REPO}
    report = load_branch_diff(_NoScratch(path, read_only=True), **ask, predict="if_possible")
    assert [i.verdict.value for i in report.items] == ["missing", "missing"] and not report.predictions
    assert report.prediction_trouble == "predicting picks failed: no space left on device"
    with pytest.raises(GitError, match="no space left"):
        load_branch_diff(_NoScratch(path, read_only=True), **ask, predict=True)


def test_a_clone_whose_path_holds_a_colon_is_predicted_too(tmp_path: Path) -> None:
    b = RepoBuilder(tmp_path / "release:2.5")  # ':' separates the entries of git's alternates list
    cut = b.commit("base", files={"f.py": _lines("f")})
    b.branch("release/2.5")
    sha = b.pr("Edit f", 301, {"f.py": _edit(_lines("f"), 1, "main")})
    plans = _plans(GitRepo(b.path), cut, {"#301": [sha]})
    assert _predict(b.path, b.head("release/2.5"), plans)["#301"].applies
