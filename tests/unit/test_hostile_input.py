"""Whatever the outside world sends (huge bodies, control characters, invalid UTF-8 in commit
messages, markup in titles), every parser and renderer answers without an exception, and no
markup from outside is ever interpreted on the screen."""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import fields, is_dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockpit.adapters import github_parse
from cockpit.adapters.git import parse_log
from cockpit.adapters.storage import parse_project_page
from cockpit.config import parse_config
from cockpit.domain.commits import CommitRecord
from cockpit.domain.github import IssueComment
from cockpit.errors import ConfigError, StorageError
from cockpit.services import refs
from cockpit.services.pick_parser import parse_request, parse_requests
from cockpit.services.storage import parse_wheel_filename

sys.path.insert(0, str(Path(__file__).parents[1] / "ui"))

REPO = "acme/torchlet"
HOSTILE = [
    "[bold red]shouting[/]",
    "[/]",
    "[link=https://evil.example]click[/link]",
    "[@click=app.quit]quit[/]",
    "\x1b[31mred\x1b[0m\x1b]52;c;aGk=\x07",
    "\x00\x01\x02\x7f\r\n\t",
    "💥" * 200,
    "A" * 20_000,
    "line\nbreak",
    "\u202eevil rtl",
    "Fixes #1 #2 (#3) https://github.com/acme/torchlet/pull/4",
]
nasty_text = st.one_of(
    st.sampled_from(HOSTILE), st.text(max_size=400), st.text(alphabet=st.characters(max_codepoint=0x20), max_size=80)
)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | nasty_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(nasty_text, inner, max_size=4),
    max_leaves=20,
)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.binary(max_size=2000), st.lists(st.sampled_from([b"\0", b"\x1f", b"\xff\xfe", b"a" * 40]), max_size=20))
def test_git_log_parser_skips_garbage_and_invalid_utf8(raw, pieces):
    for data in (raw, b"".join(pieces) + raw):
        for record in parse_log(data):
            assert len(record.sha) >= 40 and isinstance(record.subject, str)


def test_a_commit_message_in_latin_1_is_read_not_refused():
    record = b"a" * 40 + b"\x1f" + b"b" * 40 + b"\x1fJos\xe9\x1f1700000000\x1fCaf\xe9 fix (#12)\x1fbody \xff\x00"
    [commit] = parse_log(record)
    assert commit.subject.startswith("Caf") and commit.author.startswith("Jos")


@FAST
@given(nasty_text)
def test_every_reference_reader_accepts_any_text(text):
    commit = CommitRecord("a" * 40, text, text, text, 0, ())
    refs.subject_prs(text)
    refs.mentioned_prs(text, REPO)
    refs.pr_urls(text, REPO)
    refs.resolved_pr(text, REPO)
    refs.picked_from(text)
    refs.bulk_pick_prs(text)
    refs.fixed_issues(text, REPO)
    refs.normalized_subject(text)
    refs.reverted_title(text)
    refs.is_revert(commit)
    refs.revert_target(commit)
    refs.trunk_prs(commit, REPO)
    refs.branch_refs(commit, REPO)
    refs.all_prs(commit, REPO)


@FAST
@given(st.lists(nasty_text, max_size=5))
def test_the_pick_parser_reads_any_comment(bodies):
    comments = [IssueComment(i + 1, "someone", body) for i, body in enumerate(bodies)]
    assert len(parse_requests(comments, repository=REPO)) <= len(comments)
    for comment in comments:
        parse_request(comment, repository=REPO)


@FAST
@given(nasty_text)
def test_the_pep503_page_and_wheel_names_accept_any_text(text):
    page = (
        f'<html><body><a href="{text}">{text}</a>'
        f'<a href="x.whl#sha256={text}" data-requires-python="{text}">w</a>{text}'
    )
    parse_project_page(page, "http://index.example/whl/test/torchlet/")
    try:
        parse_project_page(text, "http://index.example/")
    except StorageError as exc:  # text without HTML: refused in one line
        assert "\n" not in str(exc)
    parse_wheel_filename(text)
    parse_wheel_filename(f"torchlet-{text}-cp312-cp312-linux_x86_64.whl")


@FAST
@given(json_value)
def test_github_json_parsers_accept_or_refuse_with_malformed_only(data):
    runs: dict = {}
    for parse in (
        github_parse.milestone_from,
        github_parse.comment_from,
        github_parse.run_from,
        github_parse.sha_from,
        lambda d: github_parse.item_from(d, REPO),
        lambda d: github_parse.pull_from(d, REPO),
        lambda d: github_parse.check_run_from(d, runs),
        lambda d: github_parse.list_of(d, "a list", "workflow_runs"),
    ):
        with contextlib.suppress(github_parse.Malformed):
            parse(data)


@FAST
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "title",
                "body",
                "user",
                "number",
                "state",
                "labels",
                "pull_request",
                "milestone",
                "html_url",
                "created_at",
                "closed_at",
                "merged_at",
                "id",
            ]
        ),
        json_value,
        max_size=13,
    )
)
def test_a_github_issue_with_hostile_fields_is_parsed_or_refused(data):
    with contextlib.suppress(github_parse.Malformed):
        github_parse.item_from({"number": 1, "title": "t", "state": "open", **data}, REPO)


@FAST
@given(
    st.dictionaries(
        st.sampled_from(["release", "github", "git", "ci", "storage", "ui", "keymap", "state"]), json_value, max_size=8
    )
)
def test_any_config_document_is_accepted_or_one_config_error(doc):
    try:
        parse_config(Path("/x/cockpit.toml"), doc)
    except ConfigError as exc:
        assert "\n" not in str(exc) or "not valid TOML" in str(exc)


def _poison(value, text: str):
    """Every free-text field of a report (titles, bodies, authors, summaries) replaced by ``text``."""
    if isinstance(value, tuple):
        return tuple(_poison(v, text) for v in value)
    if isinstance(value, list):
        return [_poison(v, text) for v in value]
    if isinstance(value, dict):
        return {k: _poison(v, text) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in fields(value):
            if not f.init:
                continue
            current = getattr(value, f.name)
            if f.name in ("title", "body", "author", "summary", "detail", "message", "note") and isinstance(
                current, str
            ):
                changes[f.name] = text + current[:0]
            elif isinstance(current, (tuple, list, dict)) or is_dataclass(current):
                changes[f.name] = _poison(current, text)
        return replace(value, **changes) if changes else value
    return value


def hostile_backend(text: str):
    from fake_backend import FakeBackend

    class HostileBackend(FakeBackend):
        def _load(self, name, build):
            return _poison(super()._load(name, build), text)

    return HostileBackend()


@pytest.mark.parametrize("text", HOSTILE[:6], ids=["markup", "close-tag", "link", "click", "escape", "controls"])
def test_reports_render_as_markdown_and_json_whatever_the_titles(text):
    from cockpit.loaders.picture import gather
    from cockpit.services.report_render import render_json, render_markdown

    picture = gather(hostile_backend(text))
    markdown = render_markdown(picture)
    assert isinstance(markdown, str) and markdown
    json.loads(render_json(picture))


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_panes_show_hostile_titles_as_text_never_as_markup(anyio_backend):
    from cockpit.ui.app import CockpitApp
    from cockpit.ui.rows_table import RowsTable

    for text in ("[/] [bold]B[/bold] [@click=app.quit]q[/] \x1b[31m\x00",):
        app = CockpitApp(hostile_backend(text), clock=lambda: datetime(2026, 3, 2, 12, tzinfo=UTC))
        app.animation_level = "none"
        async with app.run_test(size=(120, 40)) as pilot:
            for key in "123450":
                await pilot.press(key)
                for _ in range(50):
                    await pilot.pause(0.01)
                    if all(w.is_finished for w in app.workers):
                        break
                await pilot.press("enter")
                await pilot.pause()
                await pilot.press("escape")
            assert app.is_running and not app.unexpected_errors
            cells = [str(c) for t in app.query(RowsTable) for r in range(t.row_count) for c in t.get_row_at(r)]
            assert any("[/]" in c or "[bold]B[/bold]" in c for c in cells)  # shown literally


# Terminal escapes from outside: made inert once, where the text enters (cockpit.domain.text).

from cockpit.domain.text import inert, inert_json  # noqa: E402
from tests.hostile_text import PAYLOAD, TERMINAL_ATTACKS, active_characters  # noqa: E402


@pytest.mark.parametrize("attack", TERMINAL_ATTACKS, ids=list(TERMINAL_ATTACKS))
def test_every_terminal_attack_is_shown_visibly_and_obeyed_never(attack):
    text = f"Fix loader {TERMINAL_ATTACKS[attack]} for good"
    for multiline in (False, True):
        shown = inert(text, multiline=multiline)
        assert not active_characters(shown), shown
        assert shown.startswith("Fix loader ") and shown.endswith(" for good")


def test_escapes_read_as_control_pictures_and_overrides_as_code_points():
    assert inert("\x1b[2J\x00\x07\x7f") == "␛[2J␀␇␡"
    assert inert("\u202eevil\u2066") == "<U+202E>evil<U+2066>"
    assert inert("\x9b31m") == "<U+009B>31m"
    assert inert("lone \ud800 surrogate") == "lone \ufffd surrogate"


def test_bodies_keep_their_lines_and_titles_stay_one_line():
    assert inert("a\r\nb\rc\n\td", multiline=True) == "a\nb\nc\n\td"
    assert inert("a\r\nb\nc\td") == "a  b c\td"
    plain = "Fix the loader (#123)"
    assert inert(plain) is plain  # nothing to clean costs nothing


@FAST
@given(st.text())
def test_any_text_comes_out_inert_and_cleaning_twice_changes_nothing(text):
    for multiline in (False, True):
        once = inert(text, multiline=multiline)
        assert not active_characters(once)
        assert inert(once, multiline=multiline) == once


def test_a_github_answer_is_cleaned_everywhere_bodies_keeping_their_lines():
    data = inert_json(
        {
            "title": "t\x1b[2J",
            "body": "line 1\r\nline 2\x07",
            "user": {"login": "m\u202e"},
            "labels": [{"name": "bug\x1b]52;c;aGk=\x07"}],
            "\x1bkey": 3,
            "n": 1,
        }
    )
    assert data == {
        "title": "t␛[2J",
        "body": "line 1\nline 2␇",
        "user": {"login": "m<U+202E>"},
        "labels": [{"name": "bug␛]52;c;aGk=␇"}],
        "␛key": 3,
        "n": 1,
    }


def test_the_github_adapter_cleans_answers_and_error_messages_at_its_one_door(monkeypatch):
    import httpx

    from cockpit.adapters.github import GitHubClient
    from cockpit.errors import GitHubError

    client = GitHubClient("http://127.0.0.1:9", None, timeout=1, retries=0)
    issue = {
        "number": 5,
        "title": "Fix" + PAYLOAD,
        "state": "open",
        "body": "a\n" + PAYLOAD,
        "user": {"login": "mallory\x1b[2J"},
        "labels": [{"name": "x" + PAYLOAD}],
    }
    answers = iter([(200, json.dumps(issue)), (422, json.dumps({"message": "refused" + PAYLOAD}))])

    def answer(request: httpx.Request) -> httpx.Response:
        status, text = next(answers)
        return httpx.Response(status, text=text)

    monkeypatch.setattr(client._t, "http", httpx.Client(transport=httpx.MockTransport(answer)))
    item = client.issue(REPO, 5)
    for text in (item.title, item.body, item.author, *item.labels):
        assert not active_characters(text), text
    assert "\n" in item.body and "␛" in item.title
    with pytest.raises(GitHubError) as error:
        client.issue(REPO, 6)
    assert "refused" in str(error.value) and not active_characters(str(error.value))
    client.close()


def test_a_commit_by_a_hostile_author_is_read_inert():
    record = (
        b"a" * 40
        + b"\x1f"
        + b"b" * 40
        + b"\x1fMallory \x1b]52;c;aGk=\x07\x1f1700000000\x1f"
        + "Fix \x1b[2J\u202e (#12)".encode()
        + "\x1fline one\r\nline \x9b two\x00".encode()
    )
    [commit] = parse_log(record)
    assert commit.author == "Mallory ␛]52;c;aGk=␇"
    assert commit.subject == "Fix ␛[2J<U+202E> (#12)"
    assert commit.body == "line one\nline <U+009B> two"


def test_a_hostile_wheel_name_on_the_index_is_read_inert():
    page = '<a href="torchlet-2.5.0%1B%5B2J%E2%80%AE-cp312-cp312-linux_x86_64.whl">x</a>'
    [file] = parse_project_page(page, "http://index.example/whl/test/torchlet/")
    assert file.filename == "torchlet-2.5.0␛[2J<U+202E>-cp312-cp312-linux_x86_64.whl"


def test_config_values_are_read_inert():
    doc = {
        "release": {
            "version": "2.5.0",
            "repository": "acme/torchlet",
            "branch": "release/2.5\x1b[2J",
            "validation_comment": "Validated\r\nfor {version}\x07",
        },
        "git": {"clone": "/tmp/x"},
        "ci": [{"repository": "acme/torchlet", "required": ["lint\u202e"]}],
    }
    config = parse_config(Path("/x/cockpit.toml"), doc)
    assert config.release.branch == "release/2.5␛[2J"
    assert config.validation_comment == "Validated\nfor {version}␇"
    assert config.ci[0].required_workflows == ("lint<U+202E>",)
    with pytest.raises(ConfigError) as error:
        parse_config(Path("/x/cockpit.toml"), {**doc, "keymap": {"\x1b[2J": 3}})
    assert not active_characters(str(error.value))


def test_the_git_reader_s_quick_check_misses_no_character_inert_would_change():
    from cockpit.adapters.git_log import needs_cleaning

    changed = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and inert(chr(c), multiline=True) != chr(c)]
    assert "\x1b" in changed and "\u202e" in changed
    assert [c for c in changed if c not in "\x00\x1f" and not needs_cleaning(c.encode())] == []
    assert not needs_cleaning("José fixed it (#1)\x1f\x00\n\t".encode())


def test_a_tracker_export_read_by_cockpit_picks_is_inert(tmp_path):
    from cockpit.cli.picks import read_comments

    export = tmp_path / "comments.json"
    export.write_text(
        json.dumps([{"id": 1, "user": {"login": "m\u202e"}, "body": "Link:\r\n* x\x1b]52;c;aGk=\x07"}]),
        encoding="utf-8",
    )
    [comment] = read_comments(export)
    assert comment.author == "m<U+202E>" and comment.body == "Link:\n* x␛]52;c;aGk=␇"
