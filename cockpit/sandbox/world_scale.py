"""How big the sandbox release is: named presets of the world generator's size parameters.

``demo`` is the default world (the tests' and ``cockpit demo``'s). ``pytorch`` is a release the
size of PyTorch's: a tracker of 600 comments, a milestone of 400 items, CI of five repositories
whose ``pull`` and ``trunk`` runs have 300 jobs each (thousands of check runs in all). ``stress``
doubles it. ``cockpit demo --scale pytorch`` and ``cockpit sandbox --scale pytorch`` serve them;
``sizes`` measures a built world, so what is printed is what is served.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cockpit.sandbox.model import SbIssue, SbPull, World

EXTRA_CI_REPOSITORIES = (
    "acme/text",
    "acme/rl",
    "acme/data",
    "acme/serve",
    "acme/tune",
    "acme/recipes",
    "acme/executor",
)
"""Domain libraries watched beyond vision and audio, in the order a larger scale adds them."""
MIN_CI_REPOSITORIES = 3  # the core, vision and audio: the world plants facts in each


@dataclass(frozen=True)
class Scale:
    """The size parameters of ``build_world`` under one name (None: the generator's own default)."""

    name: str
    trunk_commits: int = 2000
    milestone_items: int = 60
    tracker_comments: int | None = None
    ci_repositories: int = MIN_CI_REPOSITORIES
    jobs_per_run: int | None = None

    def world_args(self) -> dict[str, Any]:
        """Keyword arguments for ``build_world``."""
        return {
            "trunk_commits": self.trunk_commits,
            "milestone_items": self.milestone_items,
            "tracker_comments": self.tracker_comments,
            "ci_repositories": self.ci_repositories,
            "jobs_per_run": self.jobs_per_run,
        }


SCALES: dict[str, Scale] = {
    "demo": Scale("demo"),
    "pytorch": Scale("pytorch", milestone_items=400, tracker_comments=600, ci_repositories=5, jobs_per_run=300),
    "stress": Scale(
        "stress", trunk_commits=5000, milestone_items=800, tracker_comments=1200, ci_repositories=8, jobs_per_run=600
    ),
}
DEFAULT_SCALE = "demo"


def scale_named(name: str) -> Scale:
    """The preset ``name``; ``ValueError`` naming the presets when there is none."""
    try:
        return SCALES[name]
    except KeyError:
        raise ValueError(f"unknown sandbox scale {name!r}; expected one of {', '.join(SCALES)}") from None


def ci_repository_names(count: int) -> tuple[str, ...]:
    """The domain libraries a world with ``count`` CI repositories adds to the core, vision and audio."""
    extra = count - MIN_CI_REPOSITORIES
    if not 0 <= extra <= len(EXTRA_CI_REPOSITORIES):
        raise ValueError(
            f"ci_repositories={count}: expected {MIN_CI_REPOSITORIES} to "
            f"{MIN_CI_REPOSITORIES + len(EXTRA_CI_REPOSITORIES)}"
        )
    return EXTRA_CI_REPOSITORIES[:extra]


def sizes(world: World) -> dict[str, int]:
    """What a built world serves: tracker comments, milestone items, CI repositories, the largest
    workflow run's jobs, check runs in all and release-branch PRs."""
    core = world.repos[world.repository]
    everything: list[SbIssue | SbPull] = [*core.issues, *core.pulls]
    items = sum(1 for i in everything if i.milestone == world.milestone_number)
    per_run: dict[int, int] = {}
    for repo in world.repos.values():
        for check in repo.check_runs:
            per_run[check.run_id] = per_run.get(check.run_id, 0) + 1
    return {
        "tracker comments": sum(1 for c in core.comments if c.issue_number == world.tracker_issue),
        "milestone items": items,
        "CI repositories": len(world.ci_repositories),
        "jobs in the largest run": max(per_run.values(), default=0),
        "check runs": sum(per_run.values()),
        "release-branch PRs": sum(1 for p in core.pulls if p.base == world.release_branch),
    }


def describe(scale: Scale, world: World) -> str:
    """One line for the terminal: the preset and the sizes of the world it built."""
    counts = {**sizes(world), "trunk commits": scale.trunk_commits}
    return f"sandbox scale {scale.name}: " + ", ".join(f"{n:,} {what}" for what, n in counts.items())
