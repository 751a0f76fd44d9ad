"""A prose request on the sandbox's tracker, through the real adapters, loader and action registry:
read from prose, its PR's role settled by the PR's own base branch, confirmed in the state file."""

from __future__ import annotations

import tomllib

from cockpit.bootstrap import build_backend
from cockpit.domain.picks import PickFlag, PickStatus, ReadingConfirmed
from cockpit.services.pick_readings import reading_key


def test_a_prose_ask_is_flagged_until_the_release_manager_confirms_the_reading(sandbox):
    repo, config = sandbox.world.repository, sandbox.config
    backend = build_backend(config)
    try:
        before = backend.load_picks()
        trunk = next(r.request.trunk_prs[0] for r in before.rows if r.request.trunk_prs and not r.request.free_form)
        version = ".".join(config.release.version.split(".")[:2])
        ask = f"Could #{trunk.number} also be included in {version}? The docs build on the branch needs it."
        backend.github.create_comment(repo, config.release.tracker_issue, ask)
        sandbox.github.request_log.clear()

        row = backend.load_picks().rows[-1]
        assert row.request.prose == (f"Could #{trunk.number} also be included in {version}?",)
        assert row.request.trunk_prs == (trunk,) and row.status is PickStatus.NO_RELEASE_PR
        assert PickFlag.READ_FROM_PROSE in row.flags
        # its role came from its base branch: the PR was read one by one, not from the milestone list
        assert ("GET", f"/repos/{repo}/pulls/{trunk.number}") in [
            (e["method"], e["path"]) for e in sandbox.github.log()
        ]

        key = reading_key(repo, row.request.comment_id)
        result = backend.actions.run(
            "picks.confirm_reading", ReadingConfirmed(key, f"trunk #{trunk.number}"), confirmed=True
        )
        assert result.ok, result
        saved = tomllib.loads(config.resolved_state_path.read_text(encoding="utf-8"))["pick_readings"][key]
        assert saved["reading"] == f"trunk #{trunk.number}" and saved["confirmed"] is True

        again = backend.load_picks().rows[-1]
        assert PickFlag.READ_FROM_PROSE not in again.flags
        assert any("confirmed this reading" in note for note in again.notes)
    finally:
        backend.state.close()
