"""Release-only commits come marked in several spellings; the branch diff sets every one aside."""

from __future__ import annotations

import pytest

from cockpit.services.branch_diff import DEFAULT_RELEASE_ONLY, compile_patterns


def _release_only(subject: str) -> bool:
    return any(p.search(subject) for p in compile_patterns(DEFAULT_RELEASE_ONLY))


@pytest.mark.parametrize(
    "subject",
    [
        "[RELEASE-ONLY CHANGES] Branch cut for release 3.1 (#9001)",
        "[RELEASE ONLY CHANGES] Drop the nightly index from the test scripts (#9002)",
        "[RELEASE 3.1] Release only changes (#9003)",
        "[Release 3.2] Release only changes",
        "[release 3.4] Apply Release only changes to 3.4 branch (#9004)",
        "[release-only] point the docs build at the release branch",
        "Bump version to 3.1.1",
        "Update ci_commit_pins for the release",
    ],
)
def test_every_real_spelling_of_a_release_only_commit_is_set_aside(subject: str) -> None:
    assert _release_only(subject)


@pytest.mark.parametrize(
    "subject",
    [
        "Fix a crash in the sparse matmul (#9100)",
        "Release the GIL in the data loader (#9101)",
        "Document release only builds (#9102)",
    ],
)
def test_an_ordinary_pick_is_not_release_only(subject: str) -> None:
    assert not _release_only(subject)
