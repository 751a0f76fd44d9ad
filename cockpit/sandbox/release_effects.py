"""What the release workflows change in the sandbox's world when they run, so that release day can be
walked end to end in the demo: the staging gap planted by ``world_promotion`` (one wheel never copied to
staging) is what a real run of the staging workflow copies; until it has run, a re-run of the PyPI
upload's dry run fails again on its check of the staged set, as its first run did.

The emulated GitHub calls ``succeeded`` for each run that concludes ``success`` and asks ``rerun_failure``
before a re-run of failed jobs; ``SandboxServers`` wires both to its index (and its S3 emulator, when it
runs one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cockpit.sandbox.model import SbWheel
from cockpit.sandbox.world_promotion import STAGING, STAGING_GAP, staged_wheel
from cockpit.services.dispatch_form import same_name

# pytorch/test-infra .github/workflows/ (the demo's acme/test-infra mirrors their names)
STAGE_WORKFLOW = "release-stage-pypi.yml"
UPLOAD_WORKFLOW = "release-pypi.yml"
DRY_VALUES = ("enabled", "true")


class StagingEffects:
    """The staging workflow's effect on ``wheels`` (the index's own list): ``put`` also stores the wheels
    where the staging gate reads them (S3), or is None."""

    def __init__(self, wheels: list[SbWheel], version: str, put: Callable[[list[SbWheel]], None] | None = None):
        self.wheels = wheels
        self.version = version
        self.put = put
        self.added: list[SbWheel] = []

    def undo(self) -> None:
        """Take the wheels the runs added out of ``wheels`` again (a world shared by several servers)."""
        self.wheels[:] = [w for w in self.wheels if not any(w is a for a in self.added)]
        self.added.clear()

    def missing(self) -> list[SbWheel]:
        """The staged wheels the world still lacks: the planted gap until a real staging run copies it."""
        gap = staged_wheel(*STAGING_GAP, self.version)
        staged = {w.filename for w in self.wheels if w.channel == STAGING}
        planted_gap = any(w.package == gap.package for w in self.wheels if w.channel == STAGING)
        return [gap] if planted_gap and gap.filename not in staged else []

    def succeeded(self, run: dict[str, Any]) -> None:
        """A run concluded ``success``: a real staging run copies what staging lacks of its package."""
        if _workflow(run) != STAGE_WORKFLOW or _dry(run):
            return
        package = str((run.get("inputs") or {}).get("package", ""))
        copied = [w for w in self.missing() if not package or same_name(package, w.package)]  # its package
        if copied:
            self.wheels.extend(copied)
            self.added.extend(copied)
            if self.put is not None:
                self.put(copied)

    def rerun_failure(self, run: dict[str, Any]) -> str:
        """The log line a re-run of ``run`` fails with, or "" when it passes: the upload's check of the staged
        set fails while a wheel is missing."""
        if _workflow(run) != UPLOAD_WORKFLOW:
            return ""
        missing = self.missing()
        if not missing:
            return ""
        names = ", ".join(w.filename for w in missing)
        return f"error: the staged set is incomplete: {names} is missing (stage it again)\n"


def _workflow(run: dict[str, Any]) -> str:
    return str(run.get("workflow_path", "")).rsplit("/", 1)[-1]


def _dry(run: dict[str, Any]) -> bool:
    inputs = run.get("inputs") or {}
    return str(inputs.get("dryrun", inputs.get("dry_run", "enabled"))) in DRY_VALUES
