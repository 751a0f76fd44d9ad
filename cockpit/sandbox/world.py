"""Build the sandbox world: a fictional ``acme/torchlet`` release, deterministic from a seed.

``build_world(dest, seed=7, trunk_commits=2000, milestone_items=60, version="2.5.0", all_green=False)`` writes
``dest/torchlet`` (a working clone) and ``dest/torchlet-remote.git`` (its bare ``origin``) with one
``git fast-import`` stream, and returns a ``World`` (``cockpit.sandbox.model``) holding what the
GitHub, wheel-index and PyPI emulators serve. ``save_world`` / ``load_world`` cache it as JSON;
bump ``WORLD_FORMAT`` whenever the generator's output changes.

Size parameters (``cockpit.sandbox.world_scale`` names presets of them; their defaults build the
default world, byte for byte): ``milestone_items``; ``tracker_comments`` (None: only the planted
requests; a number: exactly that many comments, see ``world_crowd``); ``ci_repositories`` (3: the
core, vision and audio; more adds green domain libraries); ``jobs_per_run`` (None: the planted
matrices; a number widens every ``pull`` and ``trunk`` run to at least that many jobs).

``all_green=True`` builds the same release with the release manager's work done: every blocking
gate is green (nothing open or missing in the milestone, every request decided and clean, no
revert owed, CI green, every wheel staged within the limits); only the checklist's manual steps
are left to sign (``demo.sign_go_steps``). It is the baseline the fault tests need: any NO-GO on
it comes from a fault, never from the data.

``world.truth`` records every planted fact, for the tests. Keys (numbers are strings when keys):

- ``verdicts``: milestone item number -> ``Verdict`` value (landed, landed_modified,
  landed_before_cut, missing, not_merged (open or closed-unmerged PRs), open_issue, needs_review,
  skipped). Its keys are exactly the milestone's items.
- ``evidence``: item number -> sorted ``EvidenceKind`` values the release branch carries for it
  (every kind present; a matcher may report a subset but must find at least one). Empty when the
  verdict needs none.
- ``reverts_owed``: ``[{"revert_sha", "reverted_sha", "pr"}]``: reverts on main whose target is
  in the release branch and which the branch has not taken. ``reverts_not_owed``: the same shape
  plus ``"why"`` (``already_taken`` or ``target_not_in_branch``).
- ``missing_in_main``: SHAs of real fixes made only on the release branch. ``release_only``: SHAs
  of release-only commits (version bump, CI pin), which must not be reported missing in main.
- ``rc_delta``: ``{"base", "head", "commits", "prs", "trunk_prs"}``: the commits after the rc1 tag
  up to rc2; ``trunk_prs``: every trunk PR they pick (even the reworded pick only a patch id
  finds); ``prs``: every PR their messages name (subject ``(#N)``s incl. release-branch PRs, bulk
  bullets, picked trunk PRs).
- ``picks``: tracker comment id -> ``{"parsed", "trunk_prs", "release_prs", "category",
  "trunk_na", "fixes", "hints", "status" (PickStatus), "flags" (PickFlag values)}``. ``category``
  is without the bot's `` - <issue url>`` suffix; ``fixes`` lists issue refs as written (URL or
  ``#N``) from "Issue fixed:" lines and that suffix. PR refs are ints for
  ``acme/torchlet`` and ``"owner/name#N"`` strings for other repositories. ``duplicate`` is on the
  later request; ``stale`` is never planted (it depends on the clock).
- ``unrequested_merges``: merged release-branch PRs no request names.
- ``prefix_collisions``: ``[{"short", "long", "short_verdict"}]``: milestone numbers whose digits
  prefix a PR picked into the branch (``#9081`` vs ``#90817``).
- ``shapes``: release-branch shape -> commit SHA (x_pick, pr_plain, pr_trailer, bulk, conflict,
  noref, revert_pick, version_bump, pin, branch_fix); ``trunk``: role -> trunk SHA.
- ``ci`` (repository -> red/green/amber) and ``ci_detail`` (head, failed, unstable_failed,
  last_green, pending, binary_builds_sha, ...); ``storage``: the planted gaps of the RC channel,
  flat (``missing``, ``yanked``, ``oversize``, ``wrong_version``) and per variant (``by_variant``):
  see ``world_wheels``.
- ``promotion``: the checklist's own gates after the final RC (``rc_health``, ``final_rc_tagged``,
  ``pypi_staged``, ``stable_promoted``, ``pypi_promoted``), each with its planted ``status`` and why:
  see ``world_promotion``.
- ``pick_predictions``: ``{"applies": PR, "after": {"pr", "needs"}, "conflicts": {"pr", "paths"}
  or None}``: missing PRs whose ``git cherry-pick -x`` onto the branch head applies, applies only
  after another missing PR, conflicts (none in an all-green world).
- ``team_signoffs``: step id -> ``{"who", "when"}``: the steps the second release manager signed in her
  own sign-off comment on the tracker, ``who`` her GitHub login (none in an all-green world or a crowd's).
- ``revert_prs``: ``{"opens": {"revert_sha", "pr"}, "manual": {"revert_sha", "paths"}}`` or None: the
  owed revert whose PR opens from the fork, and the one whose pick conflicts (a manual cherry-pick).
- ``cut_sha``, ``main_head``, ``branch_head``, ``tags``, ``milestone``, ``closed_milestone``,
  ``tracker_issue``, ``edge_cases``.
- ``decoy_trackers``: issue numbers titled like a release tracker that are not this release's (the
  2.4.1 tracker, a closed unlabelled duplicate); ``decoy_milestones``: ``[{"number", "title"}]`` of
  closed milestones whose title names the release too loosely ("v2.5", the minor's planning).
- ``merges``: the release-branch PRs planted for the merge action (``world_merges``): ``ready`` (approved,
  required checks green), ``blocked`` (changes requested, a required check red), ``required``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import fields, is_dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cockpit.domain.release import is_valid_version
from cockpit.sandbox import model
from cockpit.sandbox.model import World
from cockpit.sandbox.world_ci import CIWriter, domain_repo, torchlet_ci
from cockpit.sandbox.world_commits import write_history
from cockpit.sandbox.world_evidence import add_evidence
from cockpit.sandbox.world_github import core_repo
from cockpit.sandbox.world_history import fill_capacity, pick_truth, plan_history, revert_pr_truth
from cockpit.sandbox.world_matrix import add_build_matrix
from cockpit.sandbox.world_merges import plant_merges
from cockpit.sandbox.world_milestones import CLOSED_MILESTONE, MILESTONE, PLANNING_MILESTONE
from cockpit.sandbox.world_names import AUDIO, CONTRIBUTORS, CORE, VISION
from cockpit.sandbox.world_plan import PRE_ROLES, HistoryPlan
from cockpit.sandbox.world_promotion import plant_promotion
from cockpit.sandbox.world_release_day import add_release_day
from cockpit.sandbox.world_scale import MIN_CI_REPOSITORIES, ci_repository_names
from cockpit.sandbox.world_tracker import (
    decoy_trackers,
    team_signoff,
    tracker_issue,
    unrequested_merges,
    vision_pulls,
)
from cockpit.sandbox.world_tracker import tracker_comments as comments_of_tracker
from cockpit.sandbox.world_wheels import PACKAGES, PYTHON_TAGS, VARIANTS, wheels_and_pypi

WORLD_FORMAT = 20  # the owed revert that conflicts, the fork, ktanaka's sign-off comment, the core's staging gap
CORE_ITEMS = 33  # milestone items every world has; ``milestone_items`` above this adds fill
_FILL_CYCLE = ("before_cut", "pick", "open_issue", "before_cut", "closed_unmerged", "pick", "missing")


def build_world(
    dest: Path,
    *,
    seed: int = 7,
    trunk_commits: int = 2000,
    milestone_items: int = 60,
    version: str = "2.5.0",
    all_green: bool = False,
    tracker_comments: int | None = None,
    ci_repositories: int = MIN_CI_REPOSITORIES,
    jobs_per_run: int | None = None,
    patch: bool = False,
    evidence: bool = True,
) -> World:
    """Write the git repositories under ``dest`` and return the world (same seed, same SHAs).

    ``patch=True`` builds the patch release 2.5.1 mid-flight instead (``cockpit.sandbox.world_patch``);
    ``evidence=False`` leaves out the checklist's evidence repositories (``cockpit.sandbox.world_evidence``)."""
    if patch:
        from cockpit.sandbox.world_patch import PATCH_VERSION, make_patch_world

        patched = make_patch_world(
            build_world(
                dest,
                seed=seed,
                trunk_commits=trunk_commits,
                milestone_items=milestone_items,
                version=PATCH_VERSION,
                tracker_comments=tracker_comments,
                ci_repositories=ci_repositories,
                jobs_per_run=jobs_per_run,
                evidence=False,
            )
        )
        add_evidence(patched)  # after the patch's own issues, so theirs keep their numbers
        return patched
    if not is_valid_version(version):
        raise ValueError(f"version {version!r}: expected X.Y.Z, e.g. 2.5.0")
    extra_ci = ci_repository_names(ci_repositories)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    fill = _milestone_fill(milestone_items - CORE_ITEMS, trunk_commits)
    plan = plan_history(
        rng,
        trunk_commits,
        version,
        fill_picks=fill["pick"],
        fill_missing=fill["missing"],
        fill_before_cut=fill["before_cut"],
        all_green=all_green,
    )
    clone, remote, tags = write_history(plan, dest)
    branch = plan.branch_name
    core, facts = core_repo(
        plan, open_issues=fill["open_issue"], closed_unmerged=fill["closed_unmerged"], all_green=all_green
    )
    core.tags = dict(tags)
    tracker_issue(plan, core, facts)
    vision_prs, vision_numbers = vision_pulls(branch)
    picks = comments_of_tracker(plan, core, facts, vision_numbers, all_green=all_green, comments=tracker_comments)
    decoys = decoy_trackers(plan, core, facts)
    planted_only = tracker_comments is None and not all_green  # a crowd's tracker holds exactly its count
    team = team_signoff(core, facts.tracker, version) if planted_only else {}
    merges = {} if all_green else plant_merges(plan, core, facts.tracker, picks)
    writer = CIWriter()
    rc2 = f"v{version}-rc2"
    ci_core = torchlet_ci(
        writer,
        core,
        branch,
        [(c.sha, c.time) for c in reversed(plan.branch[-4:])],
        rc2,
        tags[rc2],
        all_green=all_green,
        jobs_per_run=jobs_per_run,
    )
    vision, ci_vision = domain_repo(writer, VISION, branch, "green", jobs_per_run=jobs_per_run)
    vision.pulls = vision_prs
    audio, ci_audio = domain_repo(writer, AUDIO, branch, "green" if all_green else "amber", jobs_per_run=jobs_per_run)
    extra = {name: domain_repo(writer, name, branch, "green", jobs_per_run=jobs_per_run) for name in extra_ci}
    wheels, pypi, storage = wheels_and_pypi(rng, seed, version, all_green=all_green)
    repos = {CORE: core, VISION: vision, AUDIO: audio, **{name: repo for name, (repo, _detail) in extra.items()}}
    promotion = plant_promotion(
        writer,
        repos,
        CORE,
        wheels,
        version=version,
        tags=tags,
        branch_head=plan.branch[-1].sha,
        clone=clone,
        remote=remote,
        all_green=all_green,
    )
    ci = {CORE: "green", VISION: "green", AUDIO: "green"}
    if not all_green:
        ci = {CORE: "red", VISION: "green", AUDIO: "amber"}
    ci.update(dict.fromkeys(extra, "green"))
    truth = _truth(plan, facts, tags, picks, unrequested_merges(core, picks, branch))
    truth.update(
        team_signoffs=team,
        pick_predictions=pick_truth(plan, all_green=all_green),
        revert_prs=revert_pr_truth(plan, all_green=all_green),
        ci=ci,
        ci_detail={
            CORE: ci_core,
            VISION: ci_vision,
            AUDIO: ci_audio,
            **{name: detail for name, (_repo, detail) in extra.items()},
        },
        storage=storage,
        all_green=all_green,
        decoy_trackers=decoys,
        decoy_milestones=[{"number": PLANNING_MILESTONE, "title": f"v{branch.removeprefix('release/')}"}],
        merges=merges,
        promotion=promotion,
    )
    world = World(
        seed=seed,
        version=version,
        repository=CORE,
        release_branch=branch,
        milestone_number=MILESTONE,
        tracker_issue=facts.tracker,
        repos=repos,
        wheels=wheels,
        pypi=pypi,
        clone_path=str(clone),
        remote_path=str(remote),
        ci_repositories=ci,
        packages=list(PACKAGES),
        variants={v: list(p) for v, p in VARIANTS.items()},
        python_tags=list(PYTHON_TAGS),
        truth=truth,
        all_green=all_green,
    )
    add_build_matrix(world)  # the Python builds the wheels must cover, read as PyTorch's are
    if evidence:  # the checklist's evidence repositories (world_evidence), then release day's workflows there
        add_evidence(world)
        add_release_day(world)
    return world


def _milestone_fill(extra: int, trunk_commits: int) -> dict[str, int]:
    """Split the extra milestone items into kinds; commit-backed kinds only as far as history allows."""
    fill = dict.fromkeys(("before_cut", "pick", "missing", "open_issue", "closed_unmerged"), 0)
    post_room = fill_capacity(max(trunk_commits, 1))
    pre_room = round(trunk_commits * 0.85) // 2 - len(PRE_ROLES)
    for k in range(max(0, extra)):
        kind = _FILL_CYCLE[k % len(_FILL_CYCLE)]
        if kind in ("pick", "missing") and fill["pick"] + fill["missing"] >= post_room:
            kind = "before_cut"
        if kind == "before_cut" and fill["before_cut"] >= pre_room:
            kind = "open_issue"
        fill[kind] += 1
    return fill


def _truth(plan: HistoryPlan, facts: Any, tags: dict[str, str], picks: dict, unrequested: list[int]) -> dict:
    t = plan.by_role
    lo, hi = plan.rc_after
    delta = plan.branch[lo + 1 : hi + 1]
    subjects = [c.message.split("\n", 1)[0] for c in delta]
    delta_trunk = sorted(pr for c in delta for i in c.picks if (pr := plan.trunk[i].pr))
    named = {plan.trunk[i].pr for c in delta if c.role != "noref" for i in c.picks if plan.trunk[i].pr}
    shapes = {c.role: c.sha for c in plan.branch if c.role != "x_pick" and not _takes_owed_revert(plan, c)}
    shapes["x_pick"] = next(c.sha for c in plan.branch if c.role == "x_pick")
    taken = {plan.trunk[i].role for c in plan.branch if _takes_owed_revert(plan, c) for i in c.picks}
    owed = [
        (r, target)
        for r, target in (("revert_picked", "pick_reverted"), ("revert_pre_owed", "pre_reverted_owed"))
        if r not in taken
    ]
    not_owed = [
        ("revert_pre_taken", "pre_reverted_taken", "already_taken"),
        ("revert_filler", "filler_reverted", "target_not_in_branch"),
    ]
    not_owed += [
        (r, target, "already_taken")
        for r, target in (("revert_picked", "pick_reverted"), ("revert_pre_owed", "pre_reverted_owed"))
        if r in taken
    ]
    return {
        "format": WORLD_FORMAT,
        "cut_sha": plan.trunk[plan.cut].sha,
        "main_head": plan.trunk[-1].sha,
        "branch_head": plan.branch[-1].sha,
        "tags": dict(tags),
        "milestone": {"number": MILESTONE, "title": plan.version},
        "closed_milestone": {"number": CLOSED_MILESTONE, "title": "2.4.1"},
        "tracker_issue": facts.tracker,
        "verdicts": dict(facts.verdicts),
        "evidence": dict(facts.evidence),
        "reverts_owed": [
            {"revert_sha": t(r).sha, "reverted_sha": t(target).sha, "pr": t(target).pr} for r, target in owed
        ],
        "reverts_not_owed": [
            {"revert_sha": t(r).sha, "reverted_sha": t(target).sha, "pr": t(target).pr, "why": why}
            for r, target, why in not_owed
        ],
        "missing_in_main": [shapes["branch_fix"]] if "branch_fix" in shapes else [],
        "release_only": [shapes[k] for k in ("version_bump", "pin", "keep_message") if k in shapes],
        "rc_delta": {
            "base": f"v{plan.version}-rc1",
            "head": f"v{plan.version}-rc2",
            "commits": [c.sha for c in delta],
            "prs": sorted({int(n) for s in subjects for n in re.findall(r"\(#(\d+)\)", s)} | named),
            "trunk_prs": delta_trunk,
        },
        "picks": picks,
        "unrequested_merges": unrequested,
        "prefix_collisions": [
            {"short": facts.issues["closed_collision"], "long": t("pick_x1").pr, "short_verdict": "not_merged"},
            {"short": facts.issues["needs_review_collision"], "long": t("pick_x2").pr, "short_verdict": "needs_review"},
        ],
        "shapes": shapes,
        "trunk": {role: plan.trunk[i].sha for role, i in plan.roles.items()},
        "edge_cases": {
            "markup_title_pr": t("missing_2").pr,
            "long_body_sha": t("pick_x3").sha,
            "non_ascii_author": CONTRIBUTORS[1].name,
        },
    }


def _takes_owed_revert(plan: HistoryPlan, commit: Any) -> bool:
    """An ``all_green`` branch's extra revert picks (the planted ``revert_pick`` shape is another)."""
    return commit.role == "revert_pick" and any(
        plan.trunk[i].role in ("revert_picked", "revert_pre_owed") for i in commit.picks
    )


def save_world(world: World, path: Path) -> None:
    """Write the world as JSON: the same document as ``dataclasses.asdict`` gives, without its deep copy."""
    text = json.dumps(world, default=_as_dict, ensure_ascii=False, separators=(",", ":"))
    Path(path).write_text(text, encoding="utf-8")


def _as_dict(obj: Any) -> dict:
    if is_dataclass(obj) and not isinstance(obj, type):
        return vars(obj)
    raise TypeError(f"cannot save {type(obj).__name__} in a sandbox world")


def load_world(path: Path) -> World:
    """Read a world written by ``save_world``; raise ValueError/KeyError/TypeError if it is not one."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object holding a sandbox world")
    repos = {name: _repo(raw) for name, raw in data.get("repos", {}).items()}
    world = _build(World, {**data, "repos": {}})
    world.repos = repos
    world.wheels = [_build(model.SbWheel, w) for w in data.get("wheels", [])]
    world.pypi = [_build(model.SbPyPIRelease, r) for r in data.get("pypi", [])]
    return world


_REPO_LISTS = {
    "milestones": model.SbMilestone,
    "issues": model.SbIssue,
    "pulls": model.SbPull,
    "comments": model.SbComment,
    "workflow_runs": model.SbWorkflowRun,
    "check_runs": model.SbCheckRun,
    "reviews": model.SbReview,
}


def _repo(raw: dict) -> model.SbRepo:
    repo = _build(model.SbRepo, {k: v for k, v in raw.items() if k not in _REPO_LISTS})
    for key, cls in _REPO_LISTS.items():
        setattr(repo, key, [_build(cls, item) for item in raw.get(key, [])])
    return repo


def _build(cls: type, raw: dict) -> Any:
    names = _field_names(cls)
    return cls(**{k: v for k, v in raw.items() if k in names})


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))
