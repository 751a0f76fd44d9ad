"""The field grammar of cherry-pick requests: every label of every field, wherever its value is,
read the way a release manager reads it; prose requests read but marked as such.

The corpus fixtures 80-101 (``pick_comments/``) stand for the shapes real trackers showed that the
template reading missed: other labels for the three fields, labels without colons, a category with
no label, checkbox lists, prose requests, quotes and the release team's replies, and links that are
neither the trunk nor the release PR. Their ``prose`` key lists the sentences a prose request was
read from.
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockpit.domain.github import IssueComment
from cockpit.services.pick_labels import CATEGORY, GRAMMAR, REASON, RELEASE, TRUNK, label_at
from cockpit.services.pick_parser import parse_request

REPO = "acme/torchlet"
CORPUS = sorted((Path(__file__).parent / "pick_comments").glob("*.md"))
GRAMMAR_SHAPES = {
    "labels: original PR / reason to backport / <X.Y> backport PR link",
    "labels: master PR / backport PR / reason, with status lines between",
    "labels: PR / reason / cherrypick without a PR",
    "labels: bulleted original PRs / backport link",
    "labels without colons, values on the lines below",
    "labels: link to merged main PR, fields in any order",
    "labels: original PR as a Markdown link / cherry-pick (PR)",
    "category with no label",
    "checkbox task list",
    "prose: make sure #N gets into X.Y",
    "prose: #N could also be included in X.Y",
    "prose: could #N be accepted in vX.Y?",
    "prose: <url> needs to be in X.Y",
    "prose: if <url> is accepted I would love to see it in X.Y",
    "not a request: question naming no PR",
    "not a request: a PR named without the release",
    "not a request: release team approval",
    "not a request: release team decline",
    "not a request: a quote with a reply under it",
    "a quote with nothing added is read",
    "a link that is neither: the release PR's title suffix",
    "a link that is neither: an issue link and another repository's PR",
}


def comment(body: str) -> IssueComment:
    return IssueComment(id=1, author="contributor", body=body, created_at=datetime(2026, 10, 1, tzinfo=UTC))


def case(path: Path) -> tuple[str, dict]:
    body, expect = path.read_text(encoding="utf-8").split("<!-- expect -->\n", 1)
    return body, tomllib.loads(expect)


def test_the_corpus_has_a_comment_for_every_shape_of_the_grammar():
    shapes = {case(path)[1].get("shape") for path in CORPUS}
    assert shapes >= GRAMMAR_SHAPES, f"no fixture for {sorted(GRAMMAR_SHAPES - shapes)}"


@pytest.mark.parametrize("path", [p for p in CORPUS if int(p.stem.split("_")[0]) >= 80], ids=lambda p: p.stem)
def test_a_prose_request_keeps_the_sentences_it_was_read_from_and_a_labelled_one_none(path: Path):
    body, expect = case(path)
    assert list(parse_request(comment(body), repository=REPO).prose) == expect.get("prose", [])


@pytest.mark.parametrize(
    ("stem", "sentence"),
    [
        ("56_free_prose_we_want_to_cherrypick", "We want to cherrypick https://github.com/acme/torchlet/pull/7990"),
        ("58_free_prose_release_and_trunk", "The cherry-pick PR is at https://github.com/acme/vision/pull/8830"),
        ("59_free_please_include_mentions_only", "Could we please also include acme/vision#8840"),
    ],
)
def test_the_older_prose_fixtures_are_marked_as_read_from_prose_too(stem: str, sentence: str):
    body, _ = case(next(p for p in CORPUS if p.stem == stem))
    (read,) = parse_request(comment(body), repository=REPO).prose
    assert read.startswith(sentence)


@pytest.mark.parametrize(
    "stem", ["50_free_main_pr_cherry_pick_cat", "54_free_task_list", "57_free_weekly_list_of_main_prs"]
)
def test_labelled_requests_and_task_lists_are_not_prose(stem: str):
    body, _ = case(next(p for p in CORPUS if p.stem == stem))
    assert parse_request(comment(body), repository=REPO).prose == ()


@pytest.mark.parametrize(
    ("grammar_field", "label"), [(g.field, label) for g in GRAMMAR for label in g.labels], ids=lambda x: str(x)
)
def test_every_label_of_the_grammar_names_its_field_with_or_without_its_colon(grammar_field: str, label: str):
    for line in (f"{label}:", f"**{label}:** x", f"- {label.upper()}: x", f"### {label.lower()}:", label):
        found = label_at(line)
        assert found is not None and found.field == grammar_field, line


def test_a_prose_sentence_with_hostile_characters_is_kept_inert():
    request = parse_request(comment("#23591 could also be included in 1.2 \x1b[2J\u202e please."), repository=REPO)
    (sentence,) = request.prose
    assert "\x1b" not in sentence and "\u202e" not in sentence


def test_a_question_put_to_someone_that_names_a_pr_and_the_release_is_a_prose_request():
    request = parse_request(comment("@lena could #22909 be accepted in v1.2.0 as well?"), repository=REPO)
    assert request.parsed and [r.number for r in request.mentioned_prs] == [22909] and request.prose


# What the property tests build requests from: the grammar's own labels, any case, bulleted or
# bold, with or without the colon, values inline, on bullets or on the lines below, fields in any
# order, the category also under a reason label or on a line of its own, with extra fields and
# noise lines between them.
CATEGORY_TEXTS = ("Regression", "Critical fix for the fused optimizer on bf16", "Docs", "Test/CI fixes", "Release only")
EXTRA_FIELDS = (
    "Status: merged on main",
    "Status: in review",
    "Issue fixed: https://github.com/acme/torchlet/issues/77",
    "cc: @mira",
)
NOISE = (
    "Thanks for looking at this one.",
    "CI on the release branch was green this morning.",
    "Happy to answer questions about it.",
    "The fix is small and covered by a new test.",
)
CASES = (str, str.lower, str.upper, str.title)


def _labels(name: str) -> tuple[str, ...]:
    return next(g.labels for g in GRAMMAR if g.field == name)


@st.composite
def labelled_field(draw, name: str, values: list[str]) -> list[str]:
    """One field written with a label of the grammar and its values where people put them."""
    label = draw(st.sampled_from(CASES))(draw(st.sampled_from(_labels(name))))
    bullet = draw(st.sampled_from(("", "- ", "* ", "+ ")))
    bold = draw(st.booleans())
    colon = draw(st.booleans())
    head = f"{bullet}**{label}:**" if bold and colon else f"{bullet}**{label}**" if bold else f"{bullet}{label}"
    if colon and not bold:
        head += ":"
    place = draw(st.sampled_from(("inline", "bullets", "lines") if colon else ("bullets", "lines")))
    if place == "inline" and (name != CATEGORY or len(values) == 1):
        return [f"{head} {' '.join(values)}"]
    if place == "bullets":
        item = draw(st.sampled_from(("* ", "- ")))
        return [head, *(f"{item}{v}" for v in values)]
    return [head, *values]


def _ref(number: int, url: bool) -> str:
    return f"https://github.com/{REPO}/pull/{number}" if url else f"#{number}"


@st.composite
def generated_request(draw):
    numbers = draw(st.lists(st.integers(100, 999_999), min_size=2, max_size=5, unique=True))
    cut = draw(st.integers(1, len(numbers) - 1))
    trunk, release = numbers[:cut], numbers[cut:]
    urls = draw(st.booleans())
    category = draw(st.sampled_from(CATEGORY_TEXTS))
    category_field = draw(st.sampled_from((CATEGORY, REASON, None)))
    blocks = [
        draw(labelled_field(TRUNK, [_ref(n, urls) for n in trunk])),
        draw(labelled_field(RELEASE, [_ref(n, urls) for n in release])),
        # no label: a bare criteria line, after a blank line like every block here
        draw(labelled_field(category_field, [category])) if category_field else [category],
    ]
    blocks = draw(st.permutations(blocks))
    lines: list[str] = []
    if draw(st.booleans()):
        lines += [draw(st.sampled_from(NOISE)), ""]
    for block in blocks:
        lines += block
        between = draw(st.sampled_from(("blank", "extra", "noise")))
        if between == "extra":
            lines.append(draw(st.sampled_from(EXTRA_FIELDS)))
        lines.append("")
        if between == "noise":
            lines += [draw(st.sampled_from(NOISE)), ""]
    return "\n".join(lines), trunk, release, category


@settings(max_examples=400, deadline=None)
@given(generated_request())
def test_every_field_of_a_request_generated_from_the_grammar_comes_back(generated):
    body, trunk, release, category = generated
    request = parse_request(comment(body), repository=REPO)
    assert request.parsed, body
    assert [r.number for r in request.trunk_prs] == trunk, body
    assert [r.number for r in request.release_prs] == release, body
    assert request.category == category, body
    assert request.mentioned_prs == () and request.prose == (), body


@settings(max_examples=200, deadline=None)
@given(
    st.integers(100, 999_999),
    st.sampled_from(
        (
            "Could {pr} be accepted in v{v} as well?",
            "{pr} could also be included in {v}.",
            "Please make sure {pr} gets into {v}.",
            "{pr} needs to be in {v} as well.",
            "If {pr} is accepted, I would love to see it in {v} too.",
        )
    ),
    st.sampled_from(("1.2", "2.5.0", "2.12")),
    st.booleans(),
)
def test_a_prose_request_names_its_pr_and_keeps_its_sentence(number, sentence, version, url):
    text = sentence.format(pr=_ref(number, url), v=version)
    request = parse_request(comment(text), repository=REPO)
    assert [r.number for r in request.mentioned_prs + request.trunk_prs] == [number]
    assert request.prose == (text,)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(100, 999_999),
    st.sampled_from(
        (
            "{pr} is not going into {v}: it has to bake in the nightlies first.",
            "Sorry, {pr} won't make it into {v}.",
            "Is the new pickler API going to make it into {v}?",
            "{pr} changes how the docs are pushed.",
        )
    ),
    st.sampled_from(("1.2", "2.5.0")),
)
def test_a_decline_a_question_without_a_pr_or_a_pr_without_the_release_is_no_request(number, sentence, version):
    request = parse_request(comment(sentence.format(pr=f"#{number}", v=version)), repository=REPO)
    assert not request.parsed


def test_with_the_tracker_s_version_a_prose_ask_must_name_this_release():
    ask = "Could #22909 be accepted in v1.2.0 as well?"
    assert parse_request(comment(ask), repository=REPO, release="1.2.0").prose == (ask,)
    assert parse_request(comment(ask.replace("1.2.0", "1.2")), repository=REPO, release="1.2.0").parsed
    assert not parse_request(comment(ask.replace("1.2.0", "1.3.0")), repository=REPO, release="1.2.0").parsed
    other = "#22909 could also be included in the next RC."
    assert parse_request(comment(other), repository=REPO, release="1.2.0").prose == (other,)
