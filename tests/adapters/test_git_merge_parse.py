"""git's merge-tree and diff-tree answers, read as untrusted text: paths inert, odd answers refused."""

from __future__ import annotations

import pytest

from cockpit.adapters.git_merge_parse import MergeOutcome, parse_changed_paths, parse_merges
from cockpit.errors import GitError

TREE, BLOB, SHA = "1" * 40, "2" * 40, "3" * 40


def test_clean_and_conflicted_merges_are_read_in_order_with_each_path_once():
    raw = (
        f"1\x00{TREE}\x00\x00\x00"
        f"0\x00{TREE}\x00100644 {BLOB} 1\tf.py\x00100644 {BLOB} 2\tf.py\x00100644 {BLOB} 3\tf.py\x00\x00"
        "1\x00f.py\x00Auto-merging\x00Auto-merging f.py\n\x00"
        "1\x00f.py\x00CONFLICT (contents)\x00CONFLICT (content): Merge conflict in f.py\n\x00\x00"
    ).encode()
    assert parse_merges(raw, 2) == [MergeOutcome(True, TREE), MergeOutcome(False, TREE, ("f.py",))]


def test_a_conflict_git_names_only_in_a_message_is_named_by_its_paths():
    raw = f"0\x00{TREE}\x00\x002\x00a.py\x00b/a.py\x00CONFLICT (file location)\x00moved\n\x00\x00".encode()
    assert parse_merges(raw, 1) == [MergeOutcome(False, TREE, ("a.py", "b/a.py"))]


def test_a_path_with_escape_codes_is_shown_not_obeyed():
    raw = f"0\x00{TREE}\x00100644 {BLOB} 2\tevil\x1b[2J.py\x00\x00\x00".encode()
    (outcome,) = parse_merges(raw, 1)
    assert "\x1b" not in outcome.conflicts[0] and outcome.conflicts[0].startswith("evil")


@pytest.mark.parametrize("raw", [b"", b"2\x00" + TREE.encode() + b"\x00\x00\x00", b"1\x00not-a-tree\x00\x00\x00"])
def test_an_answer_that_is_not_merge_tree_s_is_a_git_error(raw):
    with pytest.raises(GitError, match="merge-tree"):
        parse_merges(raw, 1)


def test_changed_paths_keep_both_names_of_a_rename_and_a_path_that_looks_like_a_sha():
    raw = f"{SHA}\x00R100\x00old.py\x00new.py\x00M\x00{TREE}\x00".encode()
    assert parse_changed_paths(raw) == {SHA: frozenset({"old.py", "new.py", TREE})}
