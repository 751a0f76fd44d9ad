"""The validation issue in the release team's shape (cockpit.services.validation_sections), on items written
here in the shapes of a real release's milestone and cherry-picks: the sections and their order, what is left
out and why, an issue and the PR that fixes it on one line, and a person, never a bot, as each item's author."""

from __future__ import annotations

from cockpit.services.validation_sections import (
    Item,
    fixed_issues,
    left_out,
    line,
    person,
    render,
    section_of,
    sections,
)

URL = "https://github.com/acme/torchlet"


def item(number: int, title: str, **kw) -> Item:
    kind = "pull" if kw.get("cherry_pick") else "issues"
    return Item(number, title, f"{URL}/{kind}/{number}", **kw)


def test_each_item_lands_in_the_first_section_that_fits():
    assert section_of(item(1, "[hi-pri] Segfault in the CUDA caching allocator")) == "High Priority"
    assert section_of(item(2, "Regression in the serving engine", labels=("high priority",))) == "High Priority"
    assert section_of(item(3, "[MPS] vLLM sampler produces NaNs")) == "High Priority", "vLLM is high priority"
    assert section_of(item(4, "Export of complex initializers", labels=("module: onnx",))) == "ONNX"
    assert section_of(item(5, "[MPS] Fix 2-pass attention accumulators", cherry_pick=True)) == "MPS"
    assert section_of(item(6, "Flaky kernel", labels=("module: rocm",))) == "ROCm"
    assert section_of(item(7, "[xpu] Enable the new allocator")) == "XPU"
    assert section_of(item(8, "DataLoader hangs with persistent workers")) == "Milestone Issues"
    assert section_of(item(9, "[cherry-pick] Fix the docs build", cherry_pick=True)) == "Cherry-picks"


def test_what_is_left_out_says_why():
    assert left_out(item(10, "[RFC] A new scheduler"), tracker=None) == "an RFC"
    assert left_out(item(11, "[release-only] Bump the version to 2.5.0", cherry_pick=True), tracker=None)
    assert left_out(item(12, "[RELEASE 2.5] Pin the docker images", cherry_pick=True), tracker=None)
    assert left_out(item(13, "Update vLLM pinned commit"), tracker=None) == "a routine pin update"
    revert = item(14, '[cherry-pick] Revert "[CI] Cache the pretrained models"', cherry_pick=True)
    assert left_out(revert, tracker=None) == "a revert of a cherry-pick"
    unmerged = item(15, "[cherry-pick] Reland the collective library bump", cherry_pick=True, merged=False)
    assert left_out(unmerged, tracker=None) == "a cherry-pick closed without merging"
    assert left_out(item(16, "[v.2.5.0] Release Tracker"), tracker=16) == "the release tracker itself"
    assert left_out(item(17, "Crash in the sparse matmul"), tracker=16) == ""


def test_a_fixing_pr_shares_its_issues_line_and_authors_are_people():
    assert fixed_issues("Fixes #120\n\nAlso closes #121; resolved: not a number; Fixed: #122") == {120, 121, 122}
    assert fixed_issues("") == set()
    trunk = {170231: "justin"}
    assert person("pytorchbot", "cherry-pick-170231-by-pytorch_bot_bot_", trunk) == "justin"
    assert person("pytorchbot", "some-branch", trunk) == "", "never the bot"
    assert person("Copilot", "", {}) == ""
    assert person("hvaara", "cherry-pick-1-by-hvaara", {}) == "hvaara"
    fixed = item(
        120, "Support complex initializers", labels=("module: onnx",), author="justin", fix_url=f"{URL}/pull/170231"
    )
    assert line(fixed) == f"- [ ] Support complex initializers {URL}/issues/120 | {URL}/pull/170231 - @justin"
    pick = item(175580, "[cherry-pick] [hi-pri] Fix memory corruption", cherry_pick=True, author="hvaara")
    assert line(pick) == f"- [ ] [cherry-pick] [hi-pri] Fix memory corruption {URL}/pull/175580 - @hvaara"


def test_the_body_has_the_sections_in_order_and_only_kept_items():
    items = [
        item(9, "[cherry-pick] Fix the docs build", cherry_pick=True, author="ana"),
        item(1, "[hi-pri] Segfault in the allocator", author="bo"),
        item(10, "[RFC] A new scheduler"),
        item(7, "[XPU] Enable the new allocator"),
        item(8, "DataLoader hangs"),
    ]
    body = render(
        version="2.5.0",
        branch="release/2.5",
        milestone=("2.5.0", f"{URL}/milestone/7"),
        tracker=(16, f"{URL}/issues/16"),
        branch_url=f"{URL}/tree/release/2.5",
        items=items,
    )
    heads = [h for h in body.splitlines() if h.startswith("## ")]
    assert heads == ["## High Priority", "## XPU", "## Milestone Issues", "## Cherry-picks"]
    assert "A new scheduler" not in body
    assert f"[release tracker #16]({URL}/issues/16)" in body
    assert list(sections(items, tracker=16)["Milestone Issues"]) == [items[4]]


def test_hostile_titles_stay_one_inert_line_each():
    nasty = item(3, "two lines\n# a heading\n- [x] #1 fake <img src=x onerror=alert(1)> @everyone")
    text = line(nasty)
    assert "\n" not in text and "<img" not in text and "`@everyone`" in text
    not_a_login = item(4, "x", author="evil\x1b[2J<b>")
    assert line(not_a_login) == f"- [ ] x {URL}/issues/4", "a login that is not one is left out"
