"""The plan of the core repository's history: which trunk commit plays which part, and the picks.

Planning is pure data (no git): ``plan_history`` decides every commit of ``main`` (and, through
``world_branch``, of the release branch), their times, PR numbers and file changes;
``world_commits.write_history`` turns the plan into one fast-import stream. Trunk commits with a part
to play carry a ``role`` (``pick_x1``, ``pick_conflict``, ``revert_picked``, ...); the others are filler.
"""

from __future__ import annotations

import random

from cockpit.sandbox.world_branch import plan_branch
from cockpit.sandbox.world_names import (
    CONTRIBUTORS,
    MERGEBOT,
    MODULES,
    OBJECTS,
    REVIEWERS,
    SENTENCES,
    STEMS,
    T_CUT,
    T_END,
    T_START,
    TARGETS,
    paragraph_pool,
    title_for,
)
from cockpit.sandbox.world_plan import (
    ISSUE_FIXES,
    POST_ROLES,
    PRE_ROLES,
    REVERTS,
    HistoryPlan,
    NumberLine,
    TrunkCommit,
)

MIN_TRUNK_COMMITS = 200
FILLER_FILES = tuple(f"torchlet/{m}/{s}.py" for m in MODULES for s in STEMS[:4])
FILLER_BLOBS = 256


def fill_capacity(trunk_commits: int) -> int:
    """How many extra post-cut trunk commits (fill picks or missing PRs) a history of this size holds."""
    cut = round(trunk_commits * 0.85)
    post = trunk_commits - 1 - cut
    return max(0, post - len(POST_ROLES) - max(5, post // 4))


def plan_history(
    rng: random.Random,
    trunk_commits: int,
    version: str,
    *,
    fill_picks: int = 0,
    fill_missing: int = 0,
    fill_before_cut: int = 0,
    all_green: bool = False,
) -> HistoryPlan:
    """Decide every commit of main and of the release branch (deterministic for ``rng``).

    ``all_green``: the release branch owes nothing (see ``world_branch.plan_branch``).
    """
    n = trunk_commits
    if n < MIN_TRUNK_COMMITS:
        raise ValueError(f"trunk_commits={n}: the sandbox needs at least {MIN_TRUNK_COMMITS} to plant every shape")
    cut = round(n * 0.85)
    if fill_picks + fill_missing > fill_capacity(n):
        raise ValueError(f"{fill_picks + fill_missing} extra post-cut milestone PRs do not fit in {n} trunk commits")
    trunk_numbers = _pr_numbers(rng, n)
    paragraphs = paragraph_pool(rng)
    contents: dict[str, str] = {}
    plan = HistoryPlan(version, [], [], cut, {}, {}, NumberLine(trunk_numbers), contents)
    plan.fill_picks = [f"fill_pick_{k}" for k in range(1, fill_picks + 1)]
    plan.fill_missing = [f"fill_missing_{k}" for k in range(1, fill_missing + 1)]
    plan.fill_before_cut = [f"fill_before_cut_{k}" for k in range(1, fill_before_cut + 1)]
    post_roles = list(POST_ROLES)
    for role in plan.fill_picks + plan.fill_missing:
        post_roles.insert(rng.randint(1, len(post_roles)), role)
    pre_roles = list(PRE_ROLES) + plan.fill_before_cut
    rng.shuffle(pre_roles)
    plan.roles.update(_spread(rng, pre_roles, cut // 2, cut - 1))
    plan.roles.update(_spread(rng, post_roles, cut + 1, n - 1))
    role_at = {i: r for r, i in plan.roles.items()}

    for k in range(FILLER_BLOBS):
        contents[f"pool{k}"] = (
            f'"""Generated module part {k} (seeded)."""\n\n\n'
            f"def op_{k}(x, scale={rng.randint(2, 99)}):\n    return x * scale\n"
        )
    current = {path: f"pool{k}" for k, path in enumerate(FILLER_FILES)}
    special_files = _special_files(plan.roles, contents)
    initial: list[tuple[str, str | None]] = [*current.items(), *((p, f"{r}:v0") for r, p in special_files.items())]
    initial += [
        ("version.txt", "version:dev"),
        (".ci/docker/ci_commit_pins/triton.txt", "pin:main"),
        ("README.md", "readme"),
    ]
    contents.update(
        {
            "version:dev": f"{version}a0\n",
            "version:next": _next_dev(version),
            "version:release": f"{version}\n",
            "pin:main": fake_pin(rng),
            "pin:release": fake_pin(rng),
            "readme": "# torchlet\n\nA fictional tensor library for the Release Cockpit sandbox.\n",
        }
    )

    for i in range(n):
        t = _time(i, cut, n)
        role = role_at.get(i, "")
        author = rng.choice(CONTRIBUTORS)
        commit = TrunkCommit(
            i, t, author, rng.choice(REVIEWERS), title_for(rng), trunk_numbers[i], rng.choice(paragraphs), [], role
        )
        if i == 0:
            commit.title, commit.changes = "Initial import of torchlet", initial
        elif role == "main_bump":
            commit.title, commit.changes = (
                f"Bump version to {_next_dev(version).strip()} on main",
                [("version.txt", "version:next")],
            )
        elif role in REVERTS:
            target = plan.roles[REVERTS[role]]
            commit.pr, commit.reverts, commit.author = None, target, MERGEBOT
            commit.changes = [(special_files[REVERTS[role]], f"{REVERTS[role]}:v0")]
        elif role:
            commit.changes = [(special_files[role], f"{role}:v1")]
        else:
            path = FILLER_FILES[rng.randrange(len(FILLER_FILES))]
            key = f"pool{rng.randrange(FILLER_BLOBS)}"
            while key == current[path]:
                key = f"pool{rng.randrange(FILLER_BLOBS)}"
            current[path] = key
            commit.changes = [(path, key)]
        plan.trunk.append(commit)
    _edge_cases(rng, plan)
    _pick_troubles(plan, special_files, contents)
    for role in ISSUE_FIXES:
        fix = plan.by_role(role)
        plan.issues[role] = issue = plan.numbers.after(max(0, fix.index - 3))
        fix.extra.append(f"Fixes #{issue}")
    plan_branch(rng, plan, special_files, all_green=all_green)
    return plan


def _edge_cases(rng: random.Random, plan: HistoryPlan) -> None:
    """Messages that trip parsers: markup in a title, non-ASCII authors, a very long body."""
    plan.by_role("missing_2").title = "Fix [bold] markup and <Tensor> repr leaking into error messages"
    plan.by_role("pick_x1").author = CONTRIBUTORS[1]
    plan.by_role("pick_noref").author = CONTRIBUTORS[2]
    plan.by_role("pick_x3").paragraph = "\n".join(f"{k + 1}. {SENTENCES[k % len(SENTENCES)]}" for k in range(150))
    for role in ("bulk_1", "bulk_2", "bulk_3"):
        plan.by_role(role).title = f"Fix {rng.choice(OBJECTS)} {rng.choice(TARGETS)}"


def _pick_troubles(plan: HistoryPlan, files: dict[str, str], contents: dict[str, str]) -> None:
    """Missing PRs whose picks would not simply apply: ``missing_4`` builds on ``missing_3``'s change
    (it applies only after it), and ``missing_5`` fixes on main, another way, the lines the
    branch's own fix changed (it conflicts); and the owed revert of ``pre_reverted_owed``, whose
    lines the branch reworded (it conflicts). ``pick_truth`` says what a prediction must find."""
    contents["missing_3:v2"] = contents["missing_3:v1"].replace(
        "    return x\n", "    x = x.contiguous()\n    return x\n"
    )
    plan.by_role("missing_4").changes = [(files["missing_3"], "missing_3:v2")]
    contents["branch_fix:main"] = (
        contents["branch_fix:v0"].replace(
            "    return f.read()\n",
            "    data = f.read()\n    if len(data) < 8:\n        raise ValueError('short archive')\n",
        )
        + "    return data\n"
    )
    plan.by_role("missing_5").changes = [(files["branch_fix"], "branch_fix:main")]
    # The branch rewords the error the pre-cut commit added, which main later reverts: that revert,
    # owed by the branch, conflicts there (it needs a manual cherry-pick, no PR is opened for it).
    contents["pre_reverted_owed:branch"] = contents["pre_reverted_owed:v1"].replace(
        "expected a tensor, got None", "expected a tensor, got None (the 2.x message)"
    )


def pick_truth(plan: HistoryPlan, *, all_green: bool) -> dict[str, object]:
    """What ``git cherry-pick -x`` of the planted missing PRs onto the branch head does."""
    return {
        "applies": plan.trunk_pr("missing_3"),
        "after": {"pr": plan.trunk_pr("missing_4"), "needs": plan.trunk_pr("missing_3")},
        "conflicts": None if all_green else {"pr": plan.trunk_pr("missing_5"), "paths": [FIX_PATH]},
    }


def revert_pr_truth(plan: HistoryPlan, *, all_green: bool) -> dict[str, object] | None:
    """The reverts owed as PRs: ``opens`` applies onto the branch head; ``manual`` conflicts in ``paths``."""
    if all_green:
        return None
    files = _special_files(plan.roles, {})
    return {
        "opens": {"revert_sha": plan.by_role("revert_picked").sha, "pr": plan.by_role("pick_reverted").pr},
        "manual": {"revert_sha": plan.by_role("revert_pre_owed").sha, "paths": [files["pre_reverted_owed"]]},
    }


def _pr_numbers(rng: random.Random, n: int) -> list[int]:
    """Five-digit PR numbers from about 90000, with gaps for issues and release PRs."""
    numbers, p = [], 90000 + rng.randint(0, 99)
    for _ in range(n):
        numbers.append(p)
        p += rng.randint(2, 4)
    return numbers


def _spread(rng: random.Random, roles: list[str], first: int, last: int) -> dict[str, int]:
    """Place ``roles`` in order on distinct indices spread evenly over [first, last]."""
    width = (last - first + 1) / len(roles)
    return {role: first + int(k * width + rng.random() * (width - 1)) for k, role in enumerate(roles)}


def _time(i: int, cut: int, n: int) -> int:
    if i <= cut:
        return T_START + (i * (T_CUT - T_START)) // cut
    return T_CUT + ((i - cut) * (T_END - T_CUT)) // (n - 1 - cut)


def _next_dev(version: str) -> str:
    major, minor = version.split(".")[:2]
    return f"{major}.{int(minor) + 1}.0a0\n"


def fake_pin(rng: random.Random) -> str:
    return f"{rng.getrandbits(160):040x}\n"


FIX_PATH = "torchlet/serialization/archive_reader.py"  # the branch's own fix, and main's other fix of it


def _special_files(roles: dict[str, int], contents: dict[str, str]) -> dict[str, str]:
    """One dedicated file per role (so a pick's patch equals its trunk commit's patch)."""
    files = {}
    for k, role in enumerate(sorted(r for r in roles if r not in REVERTS and r != "main_bump")):
        module, stem = MODULES[k % len(MODULES)], STEMS[(k // len(MODULES)) % len(STEMS)]
        files[role] = f"torchlet/{module}/{stem}_{k:03d}.py"
        body = f'"""torchlet.{module}: {stem} helpers, part {k}."""\n\n\ndef {stem}_{k}(x):\n'
        contents[f"{role}:v0"] = body + "    return x\n"
        contents[f"{role}:v1"] = (
            body
            + f"    if x is None:\n        raise ValueError('{stem}_{k}: expected a tensor, got None')\n    return x\n"
        )
        contents[f"{role}:conflict"] = (
            body
            + "    # resolved against the release branch\n"
            + f"    if x is None:\n        raise TypeError('{stem}_{k}: expected a tensor')\n    return x\n"
        )
    files["branch_fix"] = FIX_PATH
    contents["branch_fix:v0"] = '"""Reads torchlet archives."""\n\n\ndef read(f):\n    return f.read()\n'
    contents["branch_fix:v1"] = (
        '"""Reads torchlet archives."""\n\n\ndef read(f):\n    data = f.read()\n'
        "    if not data:\n        raise EOFError('truncated archive')\n    return data\n"
    )
    return files
