"""The release manager's last chores as actions, over the real adapters and the sandbox emulator:
open the validation issue, post the validation comment on every closed milestone issue, merge an
accepted release-branch PR. Each sends exactly the requests its preview lists, nothing but reads in
a read-only session, and nothing twice when run again after a crash or a lost answer."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from cockpit.bootstrap import build_backend
from cockpit.config import load_config
from cockpit.services.milestone import validation_key

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("validation_not_started")]

REQUEST = re.compile(r"^\s*(GET|POST|PUT|PATCH|DELETE) (/\S+)", re.M)
TITLE = "[v2.5.0] Release validation"


def previewed(text: str) -> list[tuple[str, str]]:
    """The requests a preview lists, (method, path without query), in order."""
    return [(m, p.split("?")[0]) for m, p in REQUEST.findall(text)]


def sent(emulator, since: int = 0) -> list[tuple[str, str]]:
    return [(e["method"], e["path"].split("?")[0]) for e in emulator.log()[since:]]


def writes(emulator, since: int = 0) -> list[tuple[str, str]]:
    return [r for r in sent(emulator, since) if r[0] not in ("GET", "HEAD")]


def session(sandbox, directory: Path, *, read_only: bool = False, timeout: float | None = None):
    """A cockpit session on the sandbox with its own state file in ``directory`` (a second session
    in another directory is the first one after a crash that lost its state write)."""
    directory.mkdir(parents=True, exist_ok=True)
    text = sandbox.config_path.read_text(encoding="utf-8")
    text = re.sub(r'^path = ".*"$', f'path = "{directory / "state.toml"}"', text, flags=re.M)
    if timeout is not None:
        text = re.sub(r"^timeout = \d+$", f"timeout = {timeout}", text, flags=re.M)
    path = directory / "cockpit.toml"
    path.write_text(text, encoding="utf-8")
    backend = build_backend(load_config(path), read_only=read_only)
    milestone = backend.load_milestone()
    backend.load_picks()
    backend.load_branch_diff()
    return backend, milestone


def lose_answer(emulator, method: str, route: str, *, seconds: float = 1.5) -> None:
    """The next ``method`` request whose path matches ``route`` is applied, then its answer comes too
    late for the client (a timeout that hid a success)."""
    serve, left = emulator.serve, [1]

    def serving(request):
        response = serve(request)
        if left[0] and request.method == method and re.search(route, request.route):
            left[0] -= 1
            time.sleep(seconds)
        return response

    emulator.serve = serving  # the handler calls the instance's ``serve``


def issues_titled(sandbox, title: str) -> list:
    repo = sandbox.github.repos[sandbox.world.repository.lower()]
    return [i for i in repo.repo.issues if i.title == title]


def test_the_validation_issue_is_opened_once_with_the_body_its_preview_showed(sandbox, tmp_path):
    backend, milestone = session(sandbox, tmp_path / "a")
    actions, gh = backend.actions, sandbox.github
    preview = actions.dry_run("milestone.validation_issue", milestone)
    mark = len(gh.log())
    result = actions.run("milestone.validation_issue", milestone, confirmed=True)
    assert result.ok, result.message
    assert sent(gh, mark) == previewed(preview)
    assert writes(gh, mark) == [("POST", f"/repos/{sandbox.world.repository}/issues")]
    (issue,) = issues_titled(sandbox, TITLE)
    assert issue.body in preview and "## Milestone Issues\n\n- [ ] " in issue.body
    again = actions.refusal("milestone.validation_issue", milestone)
    assert again and f"#{issue.number}" in again


def test_after_a_crash_lost_the_state_write_the_validation_issue_is_found_by_title_not_opened_again(sandbox, tmp_path):
    first, milestone = session(sandbox, tmp_path / "a")
    first.actions.dry_run("milestone.validation_issue", milestone)
    assert first.actions.run("milestone.validation_issue", milestone, confirmed=True).ok
    # the same release manager again, as if the state file had never been written
    second, milestone = session(sandbox, tmp_path / "b")
    mark = len(sandbox.github.log())
    second.actions.dry_run("milestone.validation_issue", milestone)
    result = second.actions.run("milestone.validation_issue", milestone, confirmed=True)
    assert result.ok and "not opened again" in result.message
    assert writes(sandbox.github, mark) == []
    assert len(issues_titled(sandbox, TITLE)) == 1


def test_a_timeout_after_github_opened_the_issue_is_not_followed_by_a_second_issue(sandbox, tmp_path):
    backend, milestone = session(sandbox, tmp_path / "a", timeout=1)
    lose_answer(sandbox.github, "POST", r"/issues$")
    backend.actions.dry_run("milestone.validation_issue", milestone)
    failed = backend.actions.run("milestone.validation_issue", milestone, confirmed=True)
    assert not failed.ok and "did not answer" in failed.message
    backend.actions.dry_run("milestone.validation_issue", milestone)
    retried = backend.actions.run("milestone.validation_issue", milestone, confirmed=True)
    assert retried.ok and "not opened again" in retried.message
    assert len(issues_titled(sandbox, TITLE)) == 1


def validation_comments(sandbox) -> dict[int, int]:
    """Issue number -> how many validation comments it carries."""
    repo = sandbox.github.repos[sandbox.world.repository.lower()]
    counts: dict[int, int] = {}
    for c in repo.repo.comments:
        if c.body and c.body.startswith("Validated for 2.5.0"):
            counts[c.issue_number] = counts.get(c.issue_number, 0) + 1
    return counts


def test_validation_comments_go_to_every_closed_issue_whose_fix_is_in_the_branch_as_previewed(sandbox, tmp_path):
    backend, milestone = session(sandbox, tmp_path / "a")
    gh, truth = sandbox.github, sandbox.world.truth
    preview = backend.actions.dry_run("milestone.validate_all", milestone)
    mark = len(gh.log())
    result = backend.actions.run("milestone.validate_all", milestone, confirmed=True)
    assert result.ok, result.message
    assert sent(gh, mark) == list(previewed(preview))
    posted = validation_comments(sandbox)
    assert posted and set(posted.values()) == {1}
    for number in posted:  # a fix the branch diff finds in the branch
        assert truth["verdicts"][str(number)] not in ("missing", "needs_review")
    skipped = [n for n, v in truth["verdicts"].items() if v in ("missing", "needs_review")]
    assert any(f"skip #{n} " in preview for n in skipped)
    assert backend.state.ledger_get(validation_key(sandbox.world.repository, next(iter(posted)))) is not None
    refusal = backend.actions.refusal("milestone.validate_all", milestone)
    backend.actions.dry_run("milestone.validate_all", milestone)
    assert refusal is None and backend.actions.refusal("milestone.validate_all", milestone)


def test_validation_comments_posted_before_a_crash_or_a_lost_answer_are_not_posted_twice(sandbox, tmp_path):
    first, milestone = session(sandbox, tmp_path / "a", timeout=1)
    # the first POST is applied by GitHub but its answer is lost: the run fails there
    lose_answer(sandbox.github, "POST", r"/issues/\d+/comments$")
    first.actions.dry_run("milestone.validate_all", milestone)
    failed = first.actions.run("milestone.validate_all", milestone, confirmed=True)
    assert not failed.ok
    # again from a session whose state file never heard of any of it
    second, milestone = session(sandbox, tmp_path / "b")
    preview = second.actions.dry_run("milestone.validate_all", milestone)
    assert "already has a validation comment" in preview
    result = second.actions.run("milestone.validate_all", milestone, confirmed=True)
    assert result.ok, result.message
    assert set(validation_comments(sandbox).values()) == {1}


def test_a_viewer_previews_the_chores_but_sends_nothing_but_reads(sandbox, tmp_path):
    backend, milestone = session(sandbox, tmp_path / "a", read_only=True)
    pick = ready_row(sandbox, backend)
    mark = len(sandbox.github.log())
    for action_id, target in (
        ("milestone.validation_issue", milestone),
        ("milestone.validate_all", milestone),
        ("picks.merge", pick),
    ):
        backend.actions.dry_run(action_id, target)
        result = backend.actions.run(action_id, target, confirmed=True)
        assert not result.ok and "read-only" in result.message
    assert {m for m, _ in sent(sandbox.github, mark)} <= {"GET", "HEAD"}


def ready_row(sandbox, backend, kind: str = "ready"):
    number = sandbox.world.truth["merges"][kind]
    picks = backend.shared.picks or backend.load_picks()
    return next(r for r in picks.rows if [p.number for p in r.request.release_prs] == [number])


def pull_state(sandbox, number: int):
    return sandbox.github.repos[sandbox.world.repository.lower()].pulls[number]


def test_an_approved_green_release_pr_is_merged_at_the_head_its_confirmation_showed(sandbox, tmp_path):
    backend, _ = session(sandbox, tmp_path / "a")
    row, gh = ready_row(sandbox, backend), sandbox.github
    head = pull_state(sandbox, sandbox.world.truth["merges"]["ready"]).head_sha
    preview = backend.actions.dry_run("picks.merge", row)
    assert head in preview and '"merge_method": "squash"' in preview
    assert "required checks (branch protection of release/2.5): 2 of 2 green" in preview
    assert backend.actions.refusal("picks.merge", row) is None
    mark = len(gh.log())
    result = backend.actions.run("picks.merge", row, confirmed=True)
    assert result.ok, result.message
    assert sent(gh, mark) == previewed(preview)  # the PUT, nothing else
    assert pull_state(sandbox, row.request.release_prs[0].number).merged


def test_an_unapproved_red_release_pr_is_refused_naming_each_condition_and_nothing_is_sent(sandbox, tmp_path):
    backend, _ = session(sandbox, tmp_path / "a")
    row = ready_row(sandbox, backend, "blocked")
    backend.actions.dry_run("picks.merge", row)
    refusal = backend.actions.refusal("picks.merge", row)
    assert refusal and "changes requested by ktanaka" in refusal and "linux-jammy-py3.11 / build (failure)" in refusal
    mark = len(sandbox.github.log())
    assert not backend.actions.run("picks.merge", row, confirmed=True).ok
    assert writes(sandbox.github, mark) == []


def test_a_push_after_the_confirmation_is_never_merged_unseen(sandbox, tmp_path):
    backend, _ = session(sandbox, tmp_path / "a")
    row = ready_row(sandbox, backend)
    number = row.request.release_prs[0].number
    backend.actions.dry_run("picks.merge", row)
    sandbox.github.push_to_pull(sandbox.world.repository, number, "f" * 40)
    result = backend.actions.run("picks.merge", row, confirmed=True)
    assert not result.ok and "409" in result.message and "nothing was merged" in result.message
    assert not pull_state(sandbox, number).merged
    # a new preview judges the new head: it has no checks yet, so it is refused before anything is sent
    preview = backend.actions.dry_run("picks.merge", row)
    assert "f" * 12 in preview and backend.actions.refusal("picks.merge", row)


def test_a_merge_whose_answer_was_lost_is_not_sent_again(sandbox, tmp_path):
    backend, _ = session(sandbox, tmp_path / "a", timeout=1)
    row = ready_row(sandbox, backend)
    number = row.request.release_prs[0].number
    lose_answer(sandbox.github, "PUT", r"/merge$")
    backend.actions.dry_run("picks.merge", row)
    assert not backend.actions.run("picks.merge", row, confirmed=True).ok
    assert pull_state(sandbox, number).merged
    mark = len(sandbox.github.log())
    backend.actions.dry_run("picks.merge", row)
    refusal = backend.actions.refusal("picks.merge", row)
    assert refusal and "merged" in refusal
    assert not backend.actions.run("picks.merge", row, confirmed=True).ok
    assert writes(sandbox.github, mark) == []


def test_a_validation_comment_someone_wrote_in_their_own_words_counts_for_the_single_and_the_bulk_action(
    sandbox, tmp_path
):
    backend, milestone = session(sandbox, tmp_path / "a")
    preview = backend.actions.dry_run("milestone.validate_all", milestone)
    first = int(re.search(r"^#(\d+) ", preview, re.M).group(1))
    repo = sandbox.github.repos[sandbox.world.repository.lower()]
    repo.add_comment(9_999_001, first, "qa-bot", "VALIDATED  FOR 2.5.0 on Windows and macOS, thanks!")
    item = next(i for i in milestone.items if i.number == first)
    mark = len(sandbox.github.log())
    single = backend.actions.run("milestone.validate", item, confirmed=True)
    assert single.ok and "already had its validation comment (by qa-bot)" in single.message
    assert writes(sandbox.github, mark) == []
    assert f"skip #{first} " in backend.actions.dry_run("milestone.validate_all", milestone)
