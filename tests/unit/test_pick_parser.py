"""Reading the tracker's cherry-pick requests the way people really write them.

The corpus in ``pick_comments/`` holds one comment per file: the body, a line ``<!-- expect -->``,
then TOML saying what a release manager would read from it. PRs are written as ``PRRef.label``
relative to ``acme/torchlet``.
"""

from __future__ import annotations

import time
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockpit.domain.github import IssueComment
from cockpit.domain.picks import PRRef
from cockpit.errors import CockpitError
from cockpit.services.pick_parser import (
    bot_command,
    parse_request,
    parse_requests,
    suggest_class,
)

REPO = "acme/torchlet"
CORPUS = sorted((Path(__file__).parent / "pick_comments").glob("*.md"))
SEPARATOR = "<!-- expect -->\n"


def comment(body: str, id: int = 1) -> IssueComment:
    return IssueComment(
        id=id,
        author="contributor",
        body=body,
        html_url=f"https://github.com/{REPO}/issues/9000#issuecomment-{id}",
        created_at=datetime(2026, 10, 1, tzinfo=timezone.utc),
    )


def test_the_corpus_covers_every_template_variant():
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_comment_reads_as_the_release_manager_would(path: Path):
    text = path.read_text(encoding="utf-8")
    body, expect_text = text.split(SEPARATOR, 1)
    expect = tomllib.loads(expect_text)
    request = parse_request(comment(body), repository=REPO)

    assert request.body == body
    assert request.parsed is expect.get("parsed", True)
    assert [r.label(REPO) for r in request.trunk_prs] == expect.get("trunk", [])
    assert [r.label(REPO) for r in request.release_prs] == expect.get("release", [])
    assert request.category == expect.get("category", "")
    assert request.trunk_na is expect.get("trunk_na", False)
    assert sorted(request.hints) == sorted(expect.get("hints", []))
    assert sorted(request.fixes) == sorted(expect.get("fixes", []))


def test_comment_metadata_is_carried_over():
    c = comment("Link to release branch PR: #5", id=77)
    request = parse_request(c, repository=REPO)
    assert (request.comment_id, request.author, request.html_url) == (77, "contributor", c.html_url)
    assert request.created_at == c.created_at


def test_windows_line_endings_parse_like_unix_ones():
    body = "Link to landed trunk PR (if applicable):\r\n* #101\r\n\r\nLink to release branch PR:\r\n* #201\r\n\r\nCriteria Category:\r\n* Regression\r\n"
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
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(FIELD_LINES, st.text(max_size=40)), max_size=30))
def test_template_fragments_mixed_with_noise_never_raise(lines):
    body = "\n".join(lines)
    request = parse_request(comment(body), repository=REPO)
    assert request.body == body
    assert all(isinstance(r, PRRef) and r.number >= 0 for r in request.trunk_prs + request.release_prs)


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
    ],
    ids=["spaces", "dots", "slashes", "punctuation", "stars", "many-refs", "do-do", "repeated-fields", "megabyte"],
)
def test_hostile_huge_comments_parse_quickly(body):
    started = time.perf_counter()
    request = parse_request(comment(body), repository=REPO)
    assert time.perf_counter() - started < 2.0
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
def test_bot_classes_that_need_an_issue_refuse_without_one(cls):
    with pytest.raises(ValueError, match="--fixes"):
        bot_command(branch="release/2.5", category=cls, fixes="")


def test_an_unknown_bot_class_is_refused_with_the_valid_ones_listed():
    with pytest.raises(CockpitError) as err:
        bot_command(branch="release/2.5", category="important", fixes=None)
    assert isinstance(err.value, ValueError)
    assert "important" in str(err.value) and "regression" in str(err.value)


def test_a_branch_with_spaces_is_refused():
    with pytest.raises(ValueError, match="release/2.5"):
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
