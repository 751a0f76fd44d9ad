"""The built-in RC tagging step: tag the release branch head as the next ``vX.Y.Z-rcN`` and push it.

N is one more than the highest RC tag of this version the clone or the remote knows (the remote's tags are
read at that moment: a tag someone else pushed counts). A tag of this version that already points at the
commit to tag is adopted instead of making the next one: pushed when only the clone has it, only recorded
when the remote has it too. So a tagging interrupted anywhere (after the tag, after the push, before the
sign-off) and tried again makes exactly one RC, never two on the same commit. The tag goes on the
release branch's commit as every pane resolves it (``cockpit.services.clone_refs``: the local
branch, else the remote's), named by the remote-tracking head (``origin/release/2.5``) when the
clone has it; a local branch that differs from the remote's is refused (the panes would have
judged one commit and CI another), and the tag is pushed to the configured remote. The step is signed off when the push
succeeds, with the tag and the commit in its note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cockpit.actions.intents import DONE, NOT_DONE, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.checklist import StepRun
from cockpit.domain.release import RC_NUMBER
from cockpit.domain.stamps import utc_stamp
from cockpit.errors import GitError
from cockpit.services.release_discovery import rc_tags

if TYPE_CHECKING:
    from cockpit.ports import Ports


def next_rc_tag(version: str, tags: Iterable[str]) -> str:
    """``v2.5.0-rc3`` when ``v2.5.0-rc1`` and ``v2.5.0-rc2`` exist; ``v2.5.0-rc1`` when none does."""
    pattern = re.compile(rf"^v{re.escape(version)}-rc{RC_NUMBER}$")
    numbers = [int(m.group(1)) for m in map(pattern.match, tags) if m]
    return f"v{version}-rc{max(numbers, default=0) + 1}"


def register(reg: ActionRegistry, backend: Ports) -> None:
    rel, remote = backend.config.release, backend.config.git.remote

    def plan() -> tuple[str, str, str, str]:
        """(tag, ref, sha, adopted) the action would make and tag; ``adopted`` is "" for a new tag, "local" for a
        tag of the clone at that commit not on the remote yet, "pushed" for one the remote has too."""
        ref, sha = where()
        local = backend.git.tags()
        try:
            pushed = backend.git.remote_tags(remote)
        except GitError as exc:
            raise GitError(
                f"the tags on {remote} cannot be read ({exc}): the next RC number would be a guess"
            ) from None
        known = {**local, **pushed}
        mine = [t for t in rc_tags(rel.version, known) if known[t] == sha]  # the remote's word wins on a clash
        if mine:
            adopted = mine[-1]
            return adopted, ref, sha, "pushed" if pushed.get(adopted) == sha else "local"
        return next_rc_tag(rel.version, known), ref, sha, ""

    def where() -> tuple[str, str]:
        """(ref, sha): the release branch commit every pane judged, named by the pushed branch when there is one."""
        from cockpit.loaders.branch import release_branch

        try:
            branch = release_branch(backend)  # the commit every pane judged
        except GitError:
            raise GitError(
                f"neither {rel.branch} nor {remote}/{rel.branch} exists in {backend.config.git.clone}; "
                f"fetch the release branch first"
            ) from None
        pushed = f"{remote}/{rel.branch}"
        pushed_sha = branch.sha if branch.ref == pushed else backend.git.rev_parse(pushed)
        if pushed_sha is None:
            return branch.ref, branch.sha  # no remote-tracking branch: the local one is all there is
        if pushed_sha != branch.sha:
            raise GitError(
                f"the local {rel.branch} ({branch.sha[:12]}) is not {pushed} ({pushed_sha[:12]}): the panes "
                f"judged the local branch, CI the pushed one; push or pull {rel.branch} first"
            )
        return pushed, pushed_sha

    def describe(_target: StepRun | str) -> str:
        tag, ref, sha, adopted = plan()
        if adopted == "pushed":
            return f"{tag} already points at {sha[:12]} on {remote}: nothing is tagged or pushed, the step is signed"
        push = f"git push {remote} refs/tags/{tag}"
        if adopted == "local":
            return f"run in {backend.config.git.clone}: {push}  ({tag} is already at {sha[:12]} in the clone)"
        return (
            f"run in {backend.config.git.clone}: git tag -a {tag} {ref} -m '{rel.repository} {tag}'  "
            f"(commit {sha[:12]})  &&  {push}"
        )

    def run(target: StepRun | str) -> str:
        on_line = target.on_line if isinstance(target, StepRun) else (lambda line: None)
        step_id = target.step.id if isinstance(target, StepRun) else str(target)
        tag, ref, sha, adopted = plan()
        if not adopted:
            on_line(f"$ git tag -a {tag} {ref}  (commit {sha})")
            backend.git.tag(tag, ref, f"{rel.repository} {tag}")
        if adopted != "pushed":
            on_line(f"$ git push {remote} refs/tags/{tag}")
            backend.git.push(remote, f"refs/tags/{tag}")
            on_line(f"pushed {tag} to {remote}")
        else:
            on_line(f"{tag} is already on {remote} at {sha[:12]}: adopted, nothing tagged or pushed")
        note = f"{tag} at {sha[:12]}, pushed to {remote}"
        backend.state.set_signoff(
            step_id,
            done=True,
            who=backend.who,
            note=note,
            when=utc_stamp(backend.clock()),
        )
        if adopted == "pushed":
            return f"{tag} was already on {remote} at {sha[:12]}: adopted and signed, no new tag"
        if adopted == "local":
            return f"{tag} was already in the clone at {sha[:12]}: pushed it to {remote}, no new tag"
        return f"tagged {sha[:12]} as {tag} and pushed it to {remote}"

    def tagged(intent: Intent) -> Finding:
        """Is an RC tag of the version on the remote at the intended commit (then the retry adopts it)?"""
        version, sha = intent.what, intent.key
        pushed = backend.git.remote_tags(intent.where)
        there = [t for t in rc_tags(version, pushed) if pushed[t] == sha]
        if there:
            return Finding(
                DONE, f"{there[-1]} is on {intent.where} at {sha[:12]}: tag again to adopt it and sign; no new tag"
            )
        local = backend.git.tags()
        here = [t for t in rc_tags(version, local) if local[t] == sha]
        if here:
            return Finding(
                NOT_DONE, f"{here[-1]} is in the clone at {sha[:12]}, not on {intent.where}: tag again to push it"
            )
        return Finding(NOT_DONE, f"no RC tag of {version} at {sha[:12]} on {intent.where} or in the clone")

    reg.register(
        Action(
            "checklist.rc_tag",
            "Tag and push the next release candidate",
            Danger.MUTATING,
            "checklist",
            run=run,
            describe=describe,
            label=lambda target: target.step.id if isinstance(target, StepRun) else str(target),
            intent=lambda _target: Intent("tag", remote, rel.version, where()[1]),
            look=tagged,
        )
    )
