"""A request in the core's tracker for a domain library's fix is judged against that library's branch."""

from __future__ import annotations

from cockpit.domain.github import PullState
from cockpit.domain.picks import PickFlag, PickStatus, PRRef
from cockpit.services.pick_rows import analyze_picks
from cockpit.services.picks import needed_library_pulls
from tests.unit.test_picks_service import BRANCH, NOW, REPO, pr, request

VISION = "pytorch/vision"
LIBRARIES = {VISION: "release/0.20"}


def _row(pulls, trunk, release, **kw):
    rows, _ = analyze_picks(
        [request(1, trunk, release)],
        pulls=pulls,
        release_branch=BRANCH,
        repository=REPO,
        now=NOW,
        library_branches=LIBRARIES,
        **kw,
    )
    return rows[0]


def test_the_loader_fetches_the_library_prs_a_core_request_names_by_url_or_short_ref():
    full, short, unknown = PRRef(88, VISION), PRRef(89, "PyTorch/Vision"), PRRef(7, "pytorch/text")
    wanted = needed_library_pulls([request(1, [full, 5], [short]), request(2, [unknown], [])], [VISION])
    assert wanted == {full, short}


def test_a_library_release_pr_aimed_at_the_cores_branch_is_flagged_wrong_base():
    trunk, pick = PRRef(88, VISION), PRRef(89, VISION)
    pulls = {trunk: pr(88, repository=VISION), pick: pr(89, PullState.OPEN, BRANCH, repository=VISION)}
    row = _row(pulls, [trunk], [pick])
    assert PickFlag.WRONG_BASE in row.flags
    assert any("targets release/2.5, not pytorch/vision's release/0.20" in n for n in row.notes)


def test_a_library_release_pr_onto_its_own_branch_is_under_review_and_loaded():
    trunk, pick = PRRef(88, VISION), PRRef(89, VISION)
    pulls = {trunk: pr(88, repository=VISION), pick: pr(89, PullState.OPEN, "release/0.20", repository=VISION)}
    row = _row(pulls, [trunk], [pick])
    assert row.status is PickStatus.UNDER_REVIEW and PickFlag.WRONG_BASE not in row.flags
    assert not any("not loaded" in n for n in row.notes)


def test_a_library_pr_that_could_not_be_read_says_why():
    trunk, pick = PRRef(88, VISION), PRRef(89, VISION)
    row = _row({trunk: pr(88, repository=VISION)}, [trunk], [pick], unreadable_pulls={pick: "404 Not Found"})
    assert PickFlag.COULD_NOT_READ in row.flags
    assert any("pytorch/vision#89 could not be read: 404 Not Found" in n for n in row.notes)
