"""``cockpit workflows``: the release's workflows with their latest runs, and the versions file they read, as JSON.

Release day runs through ``workflow_dispatch`` workflows in the repository the config's
``[evidence.validate_binaries] repository`` names (default ``pytorch/test-infra``, where PyTorch keeps
them), from its default branch. Listed: every workflow whose file is a ``release-*`` or ``validate-*``
workflow (the families the release-day runbook drives), each with its latest run, and the
``release_versions`` gate over ``release/release_versions.sh`` on that branch. Read-only: nothing is
started (``cockpit workflows`` only reads; starting runs is the checklist's business).

Output: ``{"repository", "ref", "workflows": [{"name", "path", "state", "latest_run": {...} | null}],
"release_versions": {"status", "summary", "details"}}``. Exit status 0, or 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.adapters.github_actions import GitHubActions
    from cockpit.config import Config
    from cockpit.domain.gates import Gate
    from cockpit.domain.workflows import WorkflowRun

RELEASE_FAMILIES = ("release-", "validate-")
"""File-name prefixes of the release workflows in pytorch/test-infra ``.github/workflows`` (61a77570f454)."""
REF = "main"


def run(args: argparse.Namespace) -> int:
    """Print the release's workflows, their latest runs and the versions gate."""
    from cockpit.bootstrap import github_actions
    from cockpit.cli.commands import load

    if getattr(args, "workflow_command", "list") != "list":
        from cockpit.cli.workflow_runs import run as act

        return act(args)
    config = load(args)
    client = github_actions(config.github, read_only=True)
    try:
        print(json.dumps(picture(client, config), indent=2))
    finally:
        client.close()
    return 0


def picture(client: GitHubActions, config: Config) -> dict[str, Any]:
    """The JSON document ``cockpit workflows`` prints, read through ``client``."""
    validate = config.evidence.validate_binaries
    repository = validate.repository if validate is not None else "pytorch/test-infra"
    workflows = []
    for wf in client.workflows(repository):
        if not wf.file_name.startswith(RELEASE_FAMILIES):
            continue
        latest = client.runs(repository, workflow=wf.file_name, limit=1)
        workflows.append(
            {
                "name": wf.name,
                "path": wf.path,
                "state": wf.state,
                "latest_run": _run_json(latest[0]) if latest else None,
            }
        )
    gate = versions_gate(client, config, repository)
    return {
        "repository": repository,
        "ref": REF,
        "workflows": workflows,
        "release_versions": {"status": str(gate.status), "summary": gate.summary, "details": list(gate.details)},
    }


def versions_gate(client: GitHubActions, config: Config, repository: str) -> Gate:
    """The ``release_versions`` gate over the file on ``repository``'s ``REF``, against the config's release
    and each ``[[repo]]`` library (an unreadable file is UNKNOWN with the reason, not a failure)."""
    from cockpit.domain.release_versions import RELEASE_VERSIONS_PATH
    from cockpit.loaders.workflow_steps import release_expectations
    from cockpit.services.release_versions import parse_release_versions, release_versions_gate

    expected, notes = release_expectations(config)
    where = f"{repository}@{REF}"
    try:
        text, _sha = client.file_text(repository, RELEASE_VERSIONS_PATH, REF)
    except CockpitError as exc:
        return release_versions_gate(None, expected, ref=where, unreadable=exc.message)
    return release_versions_gate(parse_release_versions(text), expected, ref=where, notes=notes)


def _run_json(run: WorkflowRun) -> dict[str, Any]:
    return {
        "id": run.id,
        "status": run.status,
        "conclusion": run.conclusion,
        "event": run.event,
        "branch": run.head_branch,
        "actor": run.actor,
        "created_at": run.created_at,
        "attempt": run.run_attempt,
        "url": run.html_url,
    }
