"""The subcommands behind ``cockpit``; each returns an exit status."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cockpit.config import CONFIG_NAME, Config, load_config
from cockpit.errors import ConfigError


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def tell_interrupted(actions: Any) -> None:
    """Before a command acts: what an earlier session left between an action's intent and its outcome, looked
    up in the world and said once on stderr (``cockpit.actions.intents``)."""
    for line in actions.interrupted():
        _say(f"cockpit: interrupted last time: {line}")


def print_dry_run(actions: Any, action_id: str, target: Any) -> int:
    """``--dry-run`` of an action: its exact text on stdout and 0, or, when it cannot be described (the
    tracker cannot be read, say), why on stderr and 1."""
    text = actions.dry_run(action_id, target)
    if text.startswith("(cannot describe"):
        print(f"cockpit: {text.strip('()')}", file=sys.stderr)
        return 1
    print(text)
    return 0


def config_path(args: argparse.Namespace) -> Path:
    return args.config or Path.cwd() / CONFIG_NAME


def load(args: argparse.Namespace) -> Config:
    path = config_path(args)
    if args.config is None and not path.exists():
        raise ConfigError(
            f"no {CONFIG_NAME} in {Path.cwd()}: pass --config PATH, or try 'cockpit demo' for a sandbox release"
        )
    return _opened(load_config(path))


def _opened(config: Config) -> Config:
    """The config is known: its warnings (unknown keys) are said once, and a ``--debug`` log goes beside
    its state file."""
    from cockpit import logging_setup

    for warning in config.warnings:
        _say(f"cockpit: warning: {warning}")

    logging_setup.use_state_dir(config.resolved_state_path)
    return config


def open_app(
    config: Config, *, read_only: bool, take_over: bool = False, clock: Callable[[], datetime] | None = None
) -> int:
    from cockpit.bootstrap import build_backend, utc_now
    from cockpit.ui.app import CockpitApp

    backend = build_backend(config, read_only=read_only, take_over=take_over, clock=clock or utc_now)
    try:
        app = CockpitApp(backend, clock=clock)
        app.run()
    finally:
        backend.state.close()
    return 1 if app.return_code else 0  # an error Textual stopped the app for (it has said what)


def run_app(args: argparse.Namespace) -> int:
    return open_app(load(args), read_only=args.read_only, take_over=args.take_over)


def run_view(args: argparse.Namespace) -> int:
    from cockpit.cli.view_tracker import release_only_config, run_from_tracker

    viewer = release_only_config(config_path(args))  # only [release]: the team's picture from the tracker
    if viewer is not None or getattr(args, "from_tracker", False):
        return run_from_tracker(viewer or load(args))
    config = load(args)
    if args.state:
        from dataclasses import replace

        config = _opened(replace(config, state_path=args.state))
    return open_app(config, read_only=True)


def run_serve(args: argparse.Namespace) -> int:
    """``cockpit serve``: serve the release of ``--config`` (and ``--state``) until Ctrl-C."""
    from cockpit.cli.serve import serve

    load(args)  # a bad config is said now, once, not in every browser tab
    return serve(config_path(args), state=args.state, host=args.host, port=args.port, max_sessions=args.max_sessions)


def _sandbox_config(world, servers) -> Path:
    """Write the sandbox's config; an all-green world also gets its go sign-offs (first time only)."""
    from cockpit.sandbox.demo import seed_dispatches, seed_rc_sizes, seed_tracking_issue, sign_go_steps, write_config

    path = write_config(
        world,
        Path(world.clone_path).parent,
        github_url=servers.github_url,
        index_url=servers.index_url,
        s3_url=_s3_url(servers),
    )
    if world.all_green and sign_go_steps(load_config(path)):
        _say("all-green sandbox: the checklist's manual steps before the go decision are signed in advance")
    seed_rc_sizes(load_config(path), world)
    seed_dispatches(load_config(path), world)
    seed_tracking_issue(load_config(path), world)
    return path


def _s3_url(servers) -> str | None:
    """Where the demo stages for PyPI: the S3 emulator's endpoint; "" without boto3 (the staging gate says
    why); None (the index's staging channel) with boto3 but no moto, so that nothing reaches AWS itself."""
    import importlib.util

    if not servers.s3 or servers.s3_url:
        return servers.s3_url if servers.s3 else None
    if importlib.util.find_spec("boto3") is None:
        _say(f"{servers.s3_missing}: the demo's PyPI staging on S3 cannot be read, and its gate says so")
        return ""
    _say(f"{servers.s3_missing}: the demo's PyPI staging is read from the index's staging channel")
    return None


def _scaled_world(args: argparse.Namespace, *, directory: Path | None = None, always_describe: bool = False):
    """The sandbox world at the ``--scale`` asked for; its sizes said when it is not the default
    (``cockpit sandbox`` always says them)."""
    from cockpit.sandbox.demo import prepare_world
    from cockpit.sandbox.world_scale import DEFAULT_SCALE, describe, scale_named

    scale = scale_named(getattr(args, "scale", DEFAULT_SCALE))
    patch = getattr(args, "patch", False)
    if patch and args.all_green:
        raise ConfigError("--patch and --all-green are two different sandbox releases: choose one")
    multi = getattr(args, "multi", False)
    if multi and (patch or args.all_green):
        raise ConfigError(
            "--multi is the 2.5.0 release with its domain libraries: it takes neither --patch nor --all-green"
        )
    world = prepare_world(
        args.seed,
        directory=directory,
        progress=_say,
        all_green=args.all_green,
        scale=None if scale.name == DEFAULT_SCALE else scale,
        patch=patch,
        multi=multi,
    )
    if always_describe or scale.name != DEFAULT_SCALE:
        _say(describe(scale, world))
    return world


def run_demo(args: argparse.Namespace) -> int:
    from cockpit.sandbox.demo import SandboxServers

    started = time.monotonic()
    world = _scaled_world(args)
    with SandboxServers(world, owned=True, s3=True) as servers:
        path = _sandbox_config(world, servers)
        if getattr(args, "serve", False):
            from cockpit.cli.serve import serve

            _say(f"sandbox ready; the release manager's own cockpit on it: cockpit --config {path}")
            return serve(path, host=args.host, port=args.port, max_sessions=args.max_sessions)
        if time.monotonic() - started > 1:
            _say(f"sandbox ready in {time.monotonic() - started:.1f}s; opening the cockpit")
        return open_app(
            _opened(load_config(path)),
            read_only=args.read_only,
            take_over=args.take_over,
            clock=world_clock(world.clock),
        )


def world_clock(start: str) -> Callable[[], datetime] | None:
    """A patch world's clock: it starts at the world's own "now" and runs at the wall clock's pace,
    so the schedule's phase and the requests' ages read as the world was planted. None: the wall clock."""
    if not start:
        return None
    began, origin = time.monotonic(), datetime.fromisoformat(start)
    if origin.tzinfo is None:
        origin = origin.replace(tzinfo=UTC)
    from datetime import timedelta

    return lambda: origin + timedelta(seconds=time.monotonic() - began)


def run_sandbox(args: argparse.Namespace) -> int:
    from cockpit.sandbox.demo import SandboxServers

    directory = args.dir.resolve() if args.dir else None
    world = _scaled_world(args, directory=directory, always_describe=True)
    with SandboxServers(world, owned=True) as servers:
        path = _sandbox_config(world, servers)
        print(path, flush=True)
        _say(f"GitHub emulator: {servers.github_url} (request log: {servers.github_url}/_sandbox/log)")
        _say(f"wheel index + PyPI: {servers.index_url}")
        _say(f"try: cockpit --config {path}    (Ctrl-C stops the sandbox)")
        if world.clock:
            _say(f"the patch world's 'now' is {world.clock}: its schedule reads as of that day")
        signal.signal(signal.SIGTERM, _stop)  # `kill` stops it as cleanly as Ctrl-C
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            _say("sandbox stopped")
    return 0


def _stop(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def run_locate(args: argparse.Namespace) -> int:
    """Print every path the cockpit reads or writes, one per line, labelled."""
    from cockpit.logging_setup import debug_log_path
    from cockpit.sandbox.demo import cache_root
    from cockpit.state.lock import describe_lock, lock_path_for
    from cockpit.state.store import describe_state_file
    from cockpit.ui.themes import packaged_theme_dir, theme_dirs

    def show(label: str, where: object, note: str = "") -> None:
        print(f"{label + ':':<15} {where}{'  (' + note + ')' if note else ''}")

    path = config_path(args)
    show("config", path, "" if path.exists() else "missing")
    if path.exists():
        config = load_config(path)
        state = config.resolved_state_path
        show("state", state, describe_state_file(state))
        show("state lock", lock_path_for(state), describe_lock(state))
        show("debug log", debug_log_path(config.resolved_state_path), "written with --debug")
        show("clone", config.git.clone)
        for repo in config.repos:  # each domain library of the release
            show(f"clone {repo.name}", repo.clone, "" if repo.clone.is_dir() else "missing")
    user_themes = theme_dirs()[-1]
    show("themes", packaged_theme_dir(), "shipped")
    show("user themes", user_themes, "" if user_themes.is_dir() else "missing: create it to add *.toml themes")
    show("cache", cache_root(), "sandbox worlds")
    return 0
