"""``cockpit demo`` and ``cockpit sandbox``: build (or reuse) a world, serve it, write its config."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import tomli_w

from cockpit.errors import CockpitError
from cockpit.locations import cache_dir
from cockpit.sandbox.model import SbWheel, World
from cockpit.sandbox.release_effects import StagingEffects
from cockpit.sandbox.world_names import T_END, iso
from cockpit.sandbox.world_scale import DEFAULT_SCALE, Scale

if TYPE_CHECKING:
    from cockpit.config import Config
    from cockpit.sandbox.github_server import GitHubEmulator
    from cockpit.sandbox.index_server import IndexEmulator

DEFAULT_SEED = 7
CONFIG_NAME = "cockpit.toml"
STATE_NAME = "cockpit-state.toml"


def cache_root() -> Path:
    """Where built worlds are kept: the cockpit's cache folder (``cockpit.locations.cache_dir``)."""
    return cache_dir()


def world_dir(
    seed: int,
    trunk_commits: int,
    root: Path | None = None,
    *,
    all_green: bool = False,
    scale: str = DEFAULT_SCALE,
    patch: bool = False,
    multi: bool = False,
) -> Path:
    from cockpit.sandbox.world import WORLD_FORMAT
    from cockpit.sandbox.world_libraries import LIBRARIES_FORMAT

    green = (
        ("-green" if all_green else "") + ("-patch" if patch else "") + (f"-multi{LIBRARIES_FORMAT}" if multi else "")
    )
    sized = "" if scale == DEFAULT_SCALE else f"-{scale}"
    return (root or cache_root() / "sandbox") / f"seed{seed}-n{trunk_commits}{sized}{green}-f{WORLD_FORMAT}"


def prepare_world(
    seed: int = DEFAULT_SEED,
    *,
    trunk_commits: int = 2000,
    directory: Path | None = None,
    progress: Callable[[str], None] = lambda _msg: None,
    all_green: bool = False,
    scale: Scale | None = None,
    patch: bool = False,
    multi: bool = False,
) -> World:
    """Reuse the world built for these parameters, or build it (into a temporary folder first,
    so an interrupted build is never mistaken for a finished one). ``all_green``: the release with
    every blocking gate green (see ``cockpit.sandbox.world``). ``scale``: a preset of sizes
    (``cockpit.sandbox.world_scale``; its trunk commits replace ``trunk_commits``); None builds
    the default world. ``patch``: the patch release 2.5.1 mid-flight (``cockpit.sandbox.world_patch``).
    ``multi``: the core released with two domain libraries, each with its own clone, milestone and tracker
    (``cockpit.sandbox.world_libraries``)."""
    from cockpit.sandbox.world import build_world, load_world, save_world

    sizes = {"trunk_commits": trunk_commits} if scale is None else scale.world_args()
    trunk_commits = sizes["trunk_commits"]
    name = DEFAULT_SCALE if scale is None else scale.name
    target = directory or world_dir(seed, trunk_commits, all_green=all_green, scale=name, patch=patch, multi=multi)
    marker = target / "world.json"
    if marker.exists():
        try:
            world = load_world(marker)
            if (
                _built_for(world, seed, all_green, sizes)
                and bool(world.schedule) == patch
                and bool(world.libraries) == multi
                and Path(world.clone_path).is_dir()
            ):
                return world
        except (OSError, ValueError, TypeError, KeyError):
            pass  # an unreadable cache is rebuilt
        progress(f"the cached world in {target} is unusable; rebuilding it")
    if shutil.which("git") is None:
        raise CockpitError(
            "git is not on PATH: the sandbox builds a git repository and needs git >= 2.30", title="Sandbox"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    kind = "all-green sandbox release" if all_green else "patch sandbox release" if patch else "sandbox release"
    at = "" if name == DEFAULT_SCALE else f" at the {name} scale"
    progress(f"building the {kind}{at} (seed {seed}, {trunk_commits} trunk commits) in {target}")
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        world = build_world(staging, seed=seed, all_green=all_green, patch=patch, **sizes)
        if multi:
            from cockpit.sandbox.world_libraries import add_libraries

            world = add_libraries(world, staging)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    world = _relocate(world, staging, target)
    save_world(world, marker)
    _repoint_origin(world)
    return world


def _built_for(world: World, seed: int, all_green: bool, sizes: dict) -> bool:
    """Whether a cached world is the one asked for (a ``--dir`` may hold another scale's)."""
    from cockpit.sandbox.world_scale import MIN_CI_REPOSITORIES
    from cockpit.sandbox.world_scale import sizes as measured

    if world.seed != seed or world.all_green != all_green:
        return False
    if len(world.ci_repositories) != sizes.get("ci_repositories", MIN_CI_REPOSITORIES):
        return False
    comments = sizes.get("tracker_comments")
    return comments is None or measured(world)["tracker comments"] == comments


def _relocate(world: World, old: Path, new: Path) -> World:
    world.clone_path = str(new / Path(world.clone_path).relative_to(old))
    world.remote_path = str(new / Path(world.remote_path).relative_to(old))
    for lib in world.libraries:
        lib["clone_path"] = str(new / Path(lib["clone_path"]).relative_to(old))
        lib["remote_path"] = str(new / Path(lib["remote_path"]).relative_to(old))
    return world


def _repoint_origin(world: World) -> None:
    import subprocess

    from cockpit.sandbox.world_commits import fork_of

    for clone, remote in [(world.clone_path, world.remote_path)] + [
        (lib["clone_path"], lib["remote_path"]) for lib in world.libraries
    ]:
        subprocess.run(["git", "-C", clone, "remote", "set-url", "origin", remote], check=True, capture_output=True)
    fork = fork_of(Path(world.remote_path))
    if fork.exists():
        subprocess.run(
            ["git", "-C", world.clone_path, "remote", "set-url", "fork", str(fork)], check=True, capture_output=True
        )


def write_config(world: World, directory: Path, *, github_url: str, index_url: str, s3_url: str | None = None) -> Path:
    """Write the ``cockpit.toml`` that points the real adapters at the emulators.

    ``s3_url``: None stages for PyPI in the index's staging channel; otherwise in the S3 prefix, read from
    the S3 emulator at ``s3_url`` ("": none could start, and the staging gate says why)."""
    from cockpit.sandbox.world_matrix import REPOSITORY as MATRIX_REPOSITORY

    core = world.repository
    ci = []
    branches = {lib["repository"]: lib["branch"] for lib in world.libraries}
    for repo in world.ci_repositories:
        branch = branches.get(repo, world.release_branch)
        # required as GitHub names the workflows; the core's RC tag is judged on the default binary builds
        ci.append({"repository": repo, "branch": branch, "required": ["pull", "trunk", "Lint"]})
    doc = {
        "release": {
            "version": world.version,
            "repository": core,
            "branch": world.release_branch,
            "main": "main",
            "milestone": world.milestone_number,
            "tracker_issue": world.tracker_issue,
            # the "Final RC" day the tracker issue announces, which the burn-down marks
            **({} if world.schedule else {"final_rc_date": iso(T_END)[:10]}),
        },
        "github": {"api_url": github_url, "auth": "none", "timeout": 5, "retries": 2, "max_rate_limit_wait": 5},
        "git": {"clone": world.clone_path, "remote": "origin"},
        "ci": ci,
        "storage": {
            "index_url": index_url,
            "pypi_url": index_url,
            "packages": list(world.packages),
            **({"platforms": list(world.platforms)} if world.platforms else {}),
            # none when the world serves its build matrix (world_matrix): the Python builds are read from it
            **({} if MATRIX_REPOSITORY in world.repos else {"python_tags": list(world.python_tags)}),
            **({"variants": {v: list(p) for v, p in world.variants.items()}} if world.variants else {}),
            "pypi_bound": _pypi_bound(world),
            **_staging_keys(world, s3_url),
        },
        "state": {"path": str(directory / STATE_NAME)},
        **({"schedule": world.schedule} if world.schedule else {}),
        **({"evidence": world.evidence_config} if world.evidence_config else {}),
        **({"repo": _library_entries(world)} if world.libraries else {}),
    }
    path = directory / CONFIG_NAME
    header = "# Written by 'cockpit demo' / 'cockpit sandbox': a fictional release served on 127.0.0.1.\n"
    path.write_text(header + tomli_w.dumps(doc), encoding="utf-8")
    return path


def _pypi_bound(world: World) -> dict[str, list[str]]:
    """The world's PyPI-bound wheels: one variant a platform; every wheel of a world without variants."""
    from cockpit.sandbox.world_wheels import PYPI_BOUND

    if not world.variants:
        return {"cpu": ["*"]}  # the cpu entry covers the wheels without a local version
    return {v: list(p) for v, p in PYPI_BOUND.items() if v in world.variants}


def _staging_keys(world: World, s3_url: str | None = None) -> dict:
    """Where the world stages its PyPI wheels (none in a world cached before staging existed): the index's
    staging channel, or the S3 prefix (``s3_url``: the emulator's endpoint, "" when none runs)."""
    from cockpit.sandbox.s3_server import PREFIX
    from cockpit.sandbox.world_promotion import STAGED, STAGING

    if not any(w.channel == STAGING for w in world.wheels):
        return {}
    if s3_url is None:
        return {"staging_channel": STAGING, "staging_platforms": list(STAGED)}
    endpoint = {"staging_endpoint_url": s3_url} if s3_url else {}
    return {"staging_prefix": PREFIX, **endpoint, "staging_platforms": list(STAGED)}


def _library_entries(world: World) -> list[dict]:
    """The ``[[repo]]`` entries of a multi-repository world's domain libraries."""
    keys = ("name", "repository", "version", "branch", "milestone", "tracker_issue", "packages", "core_pins")
    return [{**{k: lib[k] for k in keys}, "clone": lib["clone_path"]} for lib in world.libraries]


GO_SIGNER = "sandbox (all-green world)"


def sign_go_steps(config: Config) -> int:
    """Sign every required manual step the go decision waits for, in a state file not yet written.

    The all-green world's data makes every gate green, but sign-offs are people's, kept in the
    session state: without them the verdict stays NO-GO. Signed only when the state file does not
    exist yet, so a demo reopened after unticking a step keeps it unticked. Returns how many were
    signed; steps done after the go decision (the promotion itself) are left to the user.
    """
    from cockpit.domain.checklist import StepKind
    from cockpit.services.checklist import load_template
    from cockpit.state.store import StateStore

    path = config.resolved_state_path
    if path.exists():
        return 0
    steps = [
        s
        for s in load_template(config.checklist_template)
        if s.kind is StepKind.MANUAL and s.required and not s.after_go
    ]
    store = StateStore(path)
    try:
        for step in steps:
            store.set_signoff(step.id, done=True, who=GO_SIGNER, note="signed in advance by the sandbox")
    finally:
        store.close()
    return len(steps)


def seed_rc_sizes(config: Config, world: World) -> int:
    """Write the world's earlier RCs' wheel sizes into the session state, as a cockpit that judged
    those RCs would have recorded them (the test channel now holds only the newest RC's files).

    Only into a state file that has recorded no RC yet, so a reopened demo keeps its own history.
    Returns how many RCs were written.
    """
    from cockpit.state.store import StateStore

    earlier = world.truth.get("storage", {}).get("earlier_rcs") or {}
    if not earlier:
        return 0
    store = StateStore(config.resolved_state_path)
    try:
        if store.read_only or store.rc_sizes():
            return 0
        with store.one_write():
            for tag, sizes in earlier.items():
                store.record_rc_sizes(tag, {name: int(size) for name, size in sizes.items()})
        return len(earlier)
    finally:
        store.close()


def seed_dispatches(config: Config, world: World) -> int:
    """Write the world's dispatch journal (the release workflow runs a cockpit started, with their inputs) into
    the session state, only when it holds none yet. Returns how many entries were written."""
    from cockpit.state.store import StateStore

    journal = world.release_day.get("journal") or []
    if not journal:
        return 0
    store = StateStore(config.resolved_state_path)
    try:
        if store.read_only or store.dispatches():
            return 0
        with store.one_write():
            for entry in journal:
                key = store.journal_dispatch(
                    entry["workflow"], entry["inputs"], dry_run=entry["dry_run"], ref=entry["ref"], by=entry["by"]
                )
                store.complete_dispatch(key, int(entry["run_id"]))
        return len(journal)
    finally:
        store.close()


def seed_tracking_issue(config: Config, world: World) -> bool:
    """Record the world's tracking issue in the session state (as if the checklist had opened it), unless one
    is recorded already. Whether it was written."""
    from cockpit.actions.tracking_issue import ledger_key
    from cockpit.state.store import StateStore

    planted = world.truth.get("release_day", {}).get("tracking_issue")
    if not planted:
        return False
    store = StateStore(config.resolved_state_path)
    try:
        key = ledger_key(config.release.repository, config.release.version)
        if store.read_only or store.ledger_get(key) is not None:
            return False
        store.ledger_put(key, int(planted["number"]))
        return True
    finally:
        store.close()


class SandboxServers:
    """The GitHub and wheel-index emulators for one world, on ephemeral 127.0.0.1 ports."""

    def __init__(self, world: World, *, owned: bool = False, s3: bool = False) -> None:
        """``owned``: nothing else uses ``world`` (it was just loaded), so the GitHub emulator may
        change it in place instead of a copy. ``s3``: stage for PyPI on S3, as PyTorch does: moto's S3
        server when boto3 and moto are installed (``s3_url``; ``s3_missing`` says why not)."""
        self.world = world
        self.owned = owned
        self.s3 = s3
        self.s3_url = ""
        self.s3_missing = ""
        self._stack = ExitStack()
        self.github: GitHubEmulator | None = None
        self.index: IndexEmulator | None = None
        self.github_url = ""
        self.index_url = ""

    def __enter__(self) -> SandboxServers:
        from cockpit.sandbox.github_server import GitHubEmulator
        from cockpit.sandbox.index_server import IndexEmulator

        self.github = GitHubEmulator(self.world, owned=self.owned)
        self.index = IndexEmulator(self.world)
        self.github_url = self.github.start()
        self._stack.callback(self.github.stop)
        self.index_url = self.index.start()
        self._stack.callback(self.index.stop)
        put = self._start_s3() if self.s3 else None
        # the release workflows add to the world's wheels (release_effects), taken back when the servers stop
        effects = StagingEffects(self.world.wheels, self.world.version, put)
        self.github.release_effects = effects
        self._stack.callback(effects.undo)
        return self

    def _start_s3(self) -> Callable[[list[SbWheel]], None] | None:
        """Start the S3 emulator; what puts staged wheels into it (None when it cannot run)."""
        from cockpit.sandbox.s3_server import CREDENTIALS, S3Emulator, missing

        self.s3_missing = missing()
        if self.s3_missing:
            return None
        emulator = S3Emulator(self.world)
        self.s3_url = emulator.start()
        self._stack.callback(emulator.stop)
        # The standard AWS chain finds the emulator's keys first: never the user's own for a sandbox.
        saved = {name: os.environ.get(name) for name in (*CREDENTIALS, "AWS_PROFILE", "AWS_SESSION_TOKEN")}
        os.environ.pop("AWS_PROFILE", None)
        os.environ.pop("AWS_SESSION_TOKEN", None)
        os.environ.update(CREDENTIALS)
        self._stack.callback(_restore_environment, saved)
        return emulator.put

    def __exit__(self, *exc) -> None:
        self._stack.close()


def _restore_environment(saved: dict[str, str | None]) -> None:
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
