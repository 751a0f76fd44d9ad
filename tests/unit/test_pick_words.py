"""A pick prediction reads the same in the panes and the script: applies, conflicts, after another."""

from __future__ import annotations

from cockpit.domain.commits import PickPrediction
from cockpit.services.pick_predict import suggested_order
from cockpit.services.pick_words import pick_json, pick_lines, pick_summary, pick_word, posting_advice

APPLIES = PickPrediction("#101", True)
AFTER = PickPrediction("#104", False, ("g.py",), after=("#103",), group=("#103",))
CONFLICT = PickPrediction("#102", False, ("f.py", "docs/f.md"))
EMPTY = PickPrediction("#107", False, empty=True)
REVERT = PickPrediction("a" * 40, False, ("x.py",), after=("#101",))


def test_each_prediction_has_its_word_in_the_column():
    assert [pick_word(p) for p in (APPLIES, AFTER, CONFLICT, EMPTY, None)] == [
        "applies",
        "after #103",
        "conflicts in 2 files",
        "already in",
        "",
    ]
    assert pick_word(CONFLICT, compact=True) == "2 conflicts"
    assert pick_summary([APPLIES, AFTER, CONFLICT, EMPTY]) == "1 apply, 1 after another, 1 conflict, 1 already in"


def test_the_detail_lists_the_conflicting_paths_and_what_to_do():
    lines = pick_lines(CONFLICT, "release/2.5")
    assert "    f.py" in lines and "    docs/f.md" in lines and any("needs a manual pick" in line for line in lines)
    assert any("applies after #103" in line for line in pick_lines(AFTER, "release/2.5"))
    assert pick_lines(AFTER, "release/2.5")[-1] == "Touches the same paths as: #103"


def test_json_names_prs_by_number_and_reverts_by_sha():
    assert pick_json(AFTER) == {"applies": False, "conflicts": ["g.py"], "after": [103], "empty": False, "group": [103]}
    assert pick_json(PickPrediction("#9", True, after=("b" * 40,)))["after"] == ["b" * 40]


def test_posting_advice_gives_the_order_or_why_the_bot_would_fail():
    assert posting_advice(APPLIES) is None
    assert (
        posting_advice(AFTER)
        == "#104 applies only after #103: post the cherry-pick commands in this order: #103, then #104."
    )
    assert "needs a manual pick" in (posting_advice(CONFLICT) or "")
    assert "already on the branch" in (posting_advice(EMPTY) or "")
    assert (posting_advice(REVERT) or "").startswith("aaaaaaaa applies only after #101")


def test_several_picks_are_posted_oldest_on_main_first_and_a_needed_pick_left_out_is_named():
    oldest_first = [APPLIES, CONFLICT, PickPrediction("#103", True), AFTER]
    assert suggested_order(["#104", "#101", "#103"], oldest_first) == (["#101", "#103", "#104"], [])
    assert suggested_order(["#104"], oldest_first) == (["#104"], ["#103"])


def test_markdown_has_a_pick_column_only_where_picks_were_predicted():
    from cockpit.domain.commits import BranchDiffReport, ItemDiff, Verdict
    from cockpit.services.branch_render import to_markdown

    report = BranchDiffReport(
        items=(
            ItemDiff(104, "Second g change", Verdict.MISSING, commits=("c" * 40,)),
            ItemDiff(105, "Landed", Verdict.LANDED),
        ),
        predictions=(AFTER,),
    )
    text = to_markdown(report, "1 missing")
    missing, landed = text.split("### Landed")
    assert "| Ref | Title | Evidence | Pick |" in missing and "| after #103 |" in missing
    assert "| Ref | Title | Evidence |\n" in landed and "Pick" not in landed
