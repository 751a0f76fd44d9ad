"""``cockpit report`` and ``cockpit check``: the whole picture, headless, for CI and the tracker.

``check`` exits 0 on GO. A step signed by hand over a red or unknown gate (an override) counts as
done: the release manager who signed it took the decision the gate could not. It never passes
silently: the first line says "GO WITH N OVERRIDE(S)" instead of "GO", and each override follows
on its own ``override:`` line (who, when, the gate's status then and now, the note).
"""

from __future__ import annotations

import argparse
from datetime import UTC

from cockpit.domain.gates import GateStatus


def _picture(args: argparse.Namespace):
    from cockpit.bootstrap import build_backend
    from cockpit.cli.commands import load
    from cockpit.cli.repos import only
    from cockpit.loaders.picture import gather

    config = load(args)
    if args.repo:  # one repository's picture; an unknown name lists the configured ones
        config = only(config, args.repo)
    backend = build_backend(config, read_only=True)
    try:
        return gather(backend)
    finally:
        backend.state.close()


def run_report(args: argparse.Namespace) -> int:
    from datetime import datetime

    from cockpit.services.report_render import render_json, render_markdown

    picture = _picture(args)
    today = datetime.now(UTC).date()
    print(render_json(picture) if args.format == "json" else render_markdown(picture, today), end="")
    return 0


def run_check(args: argparse.Namespace) -> int:
    picture = _picture(args)
    from cockpit.gates import registry

    # A gate that locks a step (not green: "already on PyPI") states a fact; it is no failure.
    states = {spec.name for spec in registry().values() if spec.locks}
    failing = [g for g in picture.gates.values() if g.status is not GateStatus.GREEN and g.name not in states]
    verdict = picture.verdict
    if verdict.go and not verdict.overrides:
        print(f"GO: release {picture.version}: every blocking gate is green and every required step is signed")
        return 0
    if verdict.go:
        print(
            f"GO WITH {len(verdict.overrides)} OVERRIDE(S): release {picture.version}: "
            "some steps are signed by hand over gates that are not green"
        )
        _print_overrides(verdict.overrides)
        return 0
    print(f"NO-GO: release {picture.version}")
    for gate in failing:
        print(f"{gate.status.value}: {gate.title}: {gate.summary}")
    for reason in verdict.reasons:  # steps by their titles: the ids are for the config, not for reading
        if reason.startswith("not signed: "):
            print("unsigned: " + reason.removeprefix("not signed: "))
        elif reason.startswith("not done: "):
            print(reason)
    _print_overrides(verdict.overrides)
    return 1


def _print_overrides(overrides: tuple[str, ...]) -> None:
    """Overrides apart from green gates: a step signed over a red or unknown gate is done, not green."""
    for line in overrides:
        print(f"override: {line}")
