"""Reading the tracker's cherry-pick requests the way people really write them.

The corpus in ``pick_comments/`` holds one comment per file: the body, a line ``<!-- expect -->``,
then TOML saying what a release manager would read from it. PRs are written as ``PRRef.label``
relative to ``acme/torchlet``. ``shape`` names the real-world shape a file stands for; files
01-30 are the template variants, 31-40 the other template headings and category links of real
trackers, 50-61 free-form requests of the domain libraries, 70-76 comments that are no request.
"""

from __future__ import annotations

import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockpit.domain.github import IssueComment
from cockpit.domain.picks import PRRef
from cockpit.errors import CockpitError
from cockpit.services.pick_command import fixes_advice
from cockpit.services.pick_parser import (
    bot_command,
    parse_request,
    parse_requests,
    read_request,
    suggest_class,
)

REPO = "acme/torchlet"
HANG_S = 30.0  # what 'never hangs' means in these tests; speed itself is a benchmark's business
CORPUS = sorted((Path(__file__).parent / "pick_comments").glob("*.md"))
SEPARATOR = "<!-- expect -->\n"
# Every shape the issue "Meet the real world" found in real trackers, and the ones domain-facts.md names.
REAL_WORLD_SHAPES = {
    "heading: landed main PR",
    "heading: cherry-pick PR",
    "heading: a cherry-pick PR",
    "quoted link under a heading",
    "heading: criteria category and reasons",
    "category: see <issue URL>",
    "category: Markdown link",
    "category: per <URL>",
    "NA with several release PRs in one field",
    "manager appended words",
    "free-form: main PR / cherry-pick / Cat",
    "free-form: main PRs and release PR",
    "free-form: cherry pick PR then a reason line",
    "free-form: task list",
    "free-form: prose cherrypick",
    "free-form: weekly list of main PRs",
    "free-form: no role told",
    "not a request: quoted template",
    "not a request: empty template",
    "not a request: bot reply",
    "not a request: question",
    "not a request: bot command",
    "not a request: reply",
}


def corpus_case(path: Path) -> tuple[str, dict]:
    body, expect_text = path.read_text(encoding="utf-8").split(SEPARATOR, 1)
    return body, tomllib.loads(expect_text)


def comment(body: str, id: int = 1) -> IssueComment:
    return IssueComment(
        id=id,
        author="contributor",
        body=body,
        html_url=f"https://github.com/{REPO}/issues/9000#issuecomment-{id}",
        created_at=datetime(2026, 10, 1, tzinfo=UTC),
    )


def test_the_corpus_covers_every_template_variant():
    assert len(CORPUS) >= 20


def test_the_corpus_has_a_comment_for_every_real_world_shape():
    shapes = {corpus_case(path)[1].get("shape") for path in CORPUS}
    assert shapes >= REAL_WORLD_SHAPES, f"no fixture for {sorted(REAL_WORLD_SHAPES - shapes)}"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_comment_reads_as_the_release_manager_would(path: Path):
    body, expect = corpus_case(path)
    request = parse_request(comment(body), repository=REPO)

    assert request.body == body
    assert request.parsed is expect.get("parsed", True)
    assert [r.label(REPO) for r in request.trunk_prs] == expect.get("trunk", [])
    assert [r.label(REPO) for r in request.release_prs] == expect.get("release", [])
    assert request.category == expect.get("category", "")
    assert request.trunk_na is expect.get("trunk_na", False)
    assert sorted(request.hints) == sorted(expect.get("hints", []))
    assert sorted(request.fixes) == sorted(expect.get("fixes", []))
    assert request.free_form is expect.get("free_form", False)
    assert [r.label(REPO) for r in request.mentioned_prs] == expect.get("mentioned", [])
    assert request.not_a_request is expect.get("not_a_request", False)


def test_every_template_request_of_the_corpus_is_read_fully_and_every_free_form_one_finds_its_prs():
    """The issue's measure over the whole corpus: all fields right on template requests, every PR
    (with its role where words tell it) on free-form ones, and no non-request read as a request."""
    wrong = {"template": [], "free-form": [], "not a request": []}
    for path in CORPUS:
        body, expect = corpus_case(path)
        r = parse_request(comment(body), repository=REPO)
        got = {
            "trunk": [p.label(REPO) for p in r.trunk_prs],
            "release": [p.label(REPO) for p in r.release_prs],
            "mentioned": [p.label(REPO) for p in r.mentioned_prs],
            "category": r.category,
            "parsed": r.parsed,
        }
        want = {
            "trunk": expect.get("trunk", []),
            "release": expect.get("release", []),
            "mentioned": expect.get("mentioned", []),
            "category": expect.get("category", ""),
            "parsed": expect.get("parsed", True),
        }
        kind = "not a request" if not want["parsed"] else "free-form" if expect.get("free_form") else "template"
        if got != want:
            wrong[kind].append(path.stem)
    assert wrong == {"template": [], "free-form": [], "not a request": []}


def test_a_template_with_words_but_no_pr_in_its_fields_is_left_for_a_person_to_read():
    body = "Link to landed trunk PR (if applicable):\n* still in review\n\nLink to release branch PR:\n* soon\n"
    request = parse_request(comment(body), repository=REPO)
    assert request.parsed is False and request.not_a_request is False


def test_a_category_line_starting_with_release_is_category_text_not_a_release_label():
    body = (
        "Link to landed trunk PR (if applicable):\n* NA\n\nLink to release branch PR:\n* #150001\n\n"
        "Criteria Category:\n* Release: bump the version to 2.5.1\n"
    )
    request = parse_request(comment(body), repository=REPO)
    assert request.release_prs == (PRRef(150001),) and request.category == "Release: bump the version to 2.5.1"


def test_a_quoted_sentence_under_a_label_is_someone_else_s_text_not_a_value():
    body = (
        "Link to landed trunk PR (if applicable):\n> the fix in https://github.com/acme/torchlet/pull/77 broke us\n"
        "* #78\n\nLink to release branch PR:\n* #79\n"
    )
    request = parse_request(comment(body), repository=REPO)
    assert PRRef(77) not in request.trunk_prs and request.release_prs == (PRRef(79),)


def test_a_free_form_comment_that_names_no_pr_is_no_request():
    request = parse_request(comment("main PR: will follow\nCat: bug fix"), repository=REPO)
    assert request.parsed is False and request.free_form is False


def test_a_quoted_template_above_a_free_form_ask_reads_only_the_ask():
    body = (
        "> Link to landed trunk PR (if applicable):\n> * https://github.com/acme/torchlet/pull/1\n\n"
        "Please cherry-pick https://github.com/acme/torchlet/pull/2 too"
    )
    request = parse_request(comment(body), repository=REPO)
    assert request.free_form and request.trunk_prs == (PRRef(2),) and request.mentioned_prs == ()


def test_an_issue_named_by_fixes_is_not_taken_for_a_pr():
    request = parse_request(comment("Please pick #8801 from main, it fixes #8790"), repository=REPO)
    assert request.trunk_prs == (PRRef(8801),) and request.mentioned_prs == () and request.fixes == ("#8790",)


def test_the_bot_category_keeps_the_class_and_moves_its_issue_to_the_fixes():
    body = (
        "Link to landed trunk PR (if applicable):\n* #1\n\nLink to release branch PR:\n* #2\n\n"
        "Criteria Category:\nCritical - https://github.com/acme/torchlet/issues/3\n"
    )
    request = parse_request(comment(body), repository=REPO)
    assert request.category == "Critical" and request.fixes == ("https://github.com/acme/torchlet/issues/3",)


def test_comment_metadata_is_carried_over():
    c = comment("Link to release branch PR: #5", id=77)
    request = parse_request(c, repository=REPO)
    assert (request.comment_id, request.author, request.html_url) == (77, "contributor", c.html_url)
    assert request.created_at == c.created_at


def test_windows_line_endings_parse_like_unix_ones():
    body = (
        "Link to landed trunk PR (if applicable):\r\n* #101\r\n\r\n"
        "Link to release branch PR:\r\n* #201\r\n\r\n"
        "Criteria Category:\r\n* Regression\r\n"
    )
    request = parse_request(comment(body), repository=REPO)
    assert request.trunk_prs == (PRRef(101),) and request.release_prs == (PRRef(201),)
    assert request.category == "Regression"
    assert request.body == body


def test_pull_links_of_this_repository_are_matched_case_insensitively():
    body = "Link to landed trunk PR: https://github.com/Acme/Torchlet/pull/12\nLink to release branch PR: #13"
    request = parse_request(comment(body), repository=REPO)
    assert request.trunk_prs == (PRRef(12, ""),)


def test_duplicate_references_in_one_field_are_kept_once():
    body = "Link to landed trunk PR: #12 https://github.com/acme/torchlet/pull/12 #12\nLink to release branch PR: #13"
    assert parse_request(comment(body), repository=REPO).trunk_prs == (PRRef(12),)


def test_hints_are_lowercase_and_unique():
    body = "Link to landed trunk PR: #1\nLink to release branch PR: #2\n\nMERGED\nmerged\nDon't merge"
    request = parse_request(comment(body), repository=REPO)
    assert sorted(request.hints) == ["do not merge", "merged"]


def test_an_unparsed_comment_keeps_its_body_and_has_nothing_else():
    request = parse_request(comment("LGTM, merged"), repository=REPO)
    assert request.parsed is False
    assert request.body == "LGTM, merged"
    assert request.trunk_prs == request.release_prs == ()


def test_parse_requests_keeps_every_comment_in_order():
    comments = [comment("Link to release branch PR: #2", id=1), comment("thanks!", id=2)]
    requests = parse_requests(comments, repository=REPO)
    assert [r.comment_id for r in requests] == [1, 2]
    assert [r.parsed for r in requests] == [True, False]


def test_a_missing_body_is_an_unparsed_request_not_a_crash():
    broken = IssueComment(id=3, author="ghost", body=None)  # type: ignore[arg-type]
    request = parse_request(broken, repository=REPO)
    assert request.parsed is False and request.body == ""


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_any_text_parses_without_raising_and_keeps_the_body(body):
    request = parse_request(comment(body), repository=REPO)
    assert request.body == body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_reading_any_text_raises_no_exception_even_without_the_safety_net(body):
    """``parse_request`` hides a reader's exception as "unparsed"; the reader itself must not need that."""
    fields = read_request(body, REPO)
    assert isinstance(fields["parsed"], bool)


FIELD_LINES = st.sampled_from(
    [
        "Link to landed trunk PR (if applicable):",
        "**Link to landed master PR:**",
        "Link to release branch PR:",
        "Criteria Category:",
        "* #12",
        "- https://github.com/acme/torchlet/pull/99999999999999999999",
        "#" * 40,
        "> quoted",
        "NA",
        "MERGED",
        "Issue fixed: https://github.com/acme/torchlet/issues/1",
        "\x00\x1b[31m\u202e",
        "",
        "Link to landed main PR:",
        "Link to a cherry-pick PR:",
        "Criteria category and reasons: Regression (see https://github.com/acme/torchlet/issues/4)",
        "> https://github.com/acme/torchlet/pull/5",
        "main PRs: #7928 and #7950 / release PR: #7951",
        "cherry-pick: https://github.com/acme/vision/pull/8812",
        "Cat: bug fix",
        "- [ ] #442 - [x] #464",
        "We want to cherrypick https://github.com/acme/torchlet/pull/6",
        "Main PRs to pick this week:",
        "@dev can you pick #7?",
        "### Merge started",
        "@pytorchbot cherry-pick --onto release/2.5 -c docs",
        "[see](https://github.com/acme/torchlet/issues/8)",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(FIELD_LINES, st.text(max_size=40)), max_size=30))
def test_template_fragments_mixed_with_noise_never_raise(lines):
    body = "\n".join(lines)
    request = parse_request(comment(body), repository=REPO)
    assert request.body == body
    assert all(isinstance(r, PRRef) and r.number >= 0 for r in request.trunk_prs + request.release_prs)
    read_request(body, REPO)  # and the reader itself raises nothing


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(FIELD_LINES, st.text(max_size=40)), max_size=30))
def test_a_request_is_one_of_template_free_form_or_none_and_roles_never_overlap_the_mentions(lines):
    request = parse_request(comment("\n".join(lines)), repository=REPO)
    if not request.parsed:
        assert request.trunk_prs == request.release_prs == request.mentioned_prs == () and not request.free_form
    else:
        assert not request.not_a_request
        assert request.trunk_prs or request.release_prs or request.mentioned_prs or request.trunk_na or request.category
    assert not set(request.mentioned_prs) & set(request.trunk_prs + request.release_prs)
    assert request.free_form or not request.mentioned_prs


@given(
    st.lists(st.integers(min_value=1, max_value=999_999_999), min_size=1, max_size=5, unique=True),
    st.integers(min_value=1, max_value=999_999_999),
)
def test_generated_requests_round_trip_their_numbers(trunk, release):
    body = (
        "Link to landed trunk PR (if applicable):\n"
        + "".join(f"* https://github.com/{REPO}/pull/{n}\n" for n in trunk)
        + f"\nLink to release branch PR:\n* #{release}\n\nCriteria Category:\n* Regression\n"
    )
    request = parse_request(comment(body), repository=REPO)
    assert [r.number for r in request.trunk_prs] == trunk
    assert request.release_prs == (PRRef(release),)


@pytest.mark.parametrize(
    "body",
    [
        "Link to landed trunk PR: * " + " " * 90_000 + "x",
        "Link to release branch PR: " + "a." * 45_000,
        "Link to release branch PR: " + "a/" * 45_000 + "#",
        "Criteria Category: " + "!" * 90_000 + "x",
        "Criteria Category:\n" + "*" * 90_000,
        "Link to release branch PR: " + "#1 " * 30_000,
        "Fixes " + "do " * 30_000,
        "Link to landed trunk PR:\n* #1\n" * 3_000,
        "x" * 1_000_000,
        "main PR: #1" + " / release PR: #2" * 6_000,
        "a" + ", a" * 45_000,
        "> " * 45_000 + "https://github.com/acme/torchlet/pull/1",
        "please pick " + "#12 and " * 12_000,
        "We want to cherrypick " + "cherry pick " * 8_000 + "#12",
        "- [ ] #442\n" * 10_000,
        "see #12 " * 12_000,
        "Link to landed main PR:\n> " + "a" * 90_000,
        "Link to landed main PR:\n> " + "#1 " * 30_000 + "x",
        "Main PRs to pick this week" + " main" * 30_000 + ":",
        "Criteria Category: Regression " + "(see https://github.com/acme/torchlet/issues/1) " * 2_000,
    ],
    ids=[
        "spaces",
        "dots",
        "slashes",
        "punctuation",
        "stars",
        "many-refs",
        "do-do",
        "repeated-fields",
        "megabyte",
        "many-labels-one-line",
        "many-separators",
        "deep-quote",
        "many-joined-refs",
        "many-role-words",
        "long-task-list",
        "refs-without-asking",
        "quoted-word-under-label",
        "quoted-refs-under-label",
        "long-heading",
        "many-category-links",
    ],
)
def test_hostile_huge_comments_parse_quickly(body):
    # A hang guard, not a speed target: catastrophic backtracking on these inputs takes minutes or
    # hours, a linear reader well under a second. The bound leaves room for a machine under load.
    started = time.perf_counter()
    request = parse_request(comment(body), repository=REPO)
    assert time.perf_counter() - started < HANG_S
    assert request.body == body


def test_the_bot_command_names_branch_class_and_issue():
    assert (
        bot_command(branch="release/2.5", category="regression", fixes="https://github.com/acme/torchlet/issues/7")
        == "@pytorchbot cherry-pick --onto release/2.5 -c regression --fixes https://github.com/acme/torchlet/issues/7"
    )
    assert bot_command(branch="release/2.5", category="docs", fixes=None) == (
        "@pytorchbot cherry-pick --onto release/2.5 -c docs"
    )
    assert bot_command(branch="release/2.5", category="Fix New Feature", fixes="https://x/o/r/issues/1").endswith(
        "-c fixnewfeature --fixes https://x/o/r/issues/1"
    )


@pytest.mark.parametrize("cls", ["regression", "critical", "fixnewfeature"])
def test_a_pick_without_fixes_is_composed_as_the_bot_accepts_it_with_advice(cls):
    # The bot's usage has --fixes in brackets: --onto and -c are all it requires.
    assert (
        bot_command(branch="release/2.5", category=cls, fixes="")
        == f"@pytorchbot cherry-pick --onto release/2.5 -c {cls}"
    )
    assert "--fixes" in (fixes_advice(cls, "") or "")
    assert fixes_advice(cls, "https://x/o/r/issues/1") is None
    assert fixes_advice("docs", None) is None


def test_an_unknown_bot_class_is_refused_with_the_valid_ones_listed():
    with pytest.raises(CockpitError) as err:
        bot_command(branch="release/2.5", category="important", fixes=None)
    assert isinstance(err.value, ValueError)
    assert "important" in str(err.value) and "regression" in str(err.value)


def test_a_branch_with_spaces_is_refused():
    with pytest.raises(ValueError, match=r"release/2\.5"):
        bot_command(branch="release 2.5", category="docs", fixes=None)


@pytest.mark.parametrize(
    ("category", "cls"),
    [
        ("Regression", "regression"),
        ("Critical fix", "critical"),
        ("Fixnewfeature", "fixnewfeature"),
        ("Fix new feature", "fixnewfeature"),
        ("Docs", "docs"),
        ("Release only", "release"),
        ("Test/CI fixes", None),
    ],
)
def test_free_text_categories_suggest_a_bot_class(category, cls):
    assert suggest_class(category) == cls
