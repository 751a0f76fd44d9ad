"""After the final RC: builds on the RC tags, the wheels staged for PyPI, and the stable channel.

What a normal world plants (``truth["promotion"]``, one entry per checklist gate, each with its
expected ``status`` and the ``why``):

- ``rc_health`` RED: the core's rc2 commit is green (``pull``/``trunk``/``Lint`` at head~2 and the
  binary-build runs pushed on the tag), but ``acme/vision``'s newest RC tag (``v0.20.0-rc2``, found
  among its push runs) has a failed ``binary-builds`` run, and ``acme/audio`` has no run on any RC tag
  (UNKNOWN for that repository). Domain libraries beyond those two get a green tag run.
- ``final_rc_tagged`` RED: rc2 names head~2; the branch took two more commits after it.
- ``pypi_staged`` RED: the staging channel (``/whl/staging/``, no local versions, the ``STAGED``
  platforms) lacks one wheel of ``torchlet-audio``.
- ``stable_promoted`` RED: a promotion stopped half-way: only ``torchlet``'s ``cpu`` files of the RC are
  in the stable channel.
- ``pypi_promoted`` AMBER: PyPI has 2.4.0 and 2.4.1 only.

An ``all_green`` world has the release manager's work done up to the go decision: an rc3 tag (light)
on the branch head, in the clone and its remote, with green binary builds on it; a green tag run in
every domain library; every staged wheel. Stable and PyPI are still ahead (AMBER: after the decision).
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from cockpit.domain.artifacts import ExpectedArtifact
from cockpit.sandbox.model import SbRepo, SbWheel
from cockpit.sandbox.world_ci import BINARY_BUILDS, DOMAIN, TORCHLET, CIWriter, jobs
from cockpit.sandbox.world_names import DAY, HOUR, T_END, fake_sha
from cockpit.sandbox.world_wheels import ARM, MAC, MB, PACKAGES, PYTHON_TAGS, WIN, X86

STAGING = "staging"
STAGED = (X86, ARM, WIN, MAC)  # what PyPI gets: no ROCm, XPU or plain linux_x86_64 builds
_STAGED_MB = {X86: 780, ARM: 140, WIN: 210, MAC: 72}
_DOMAIN_MB = {"torchlet-vision": 7.5, "torchlet-audio": 3.4}
STAGING_GAP = ("torchlet", WIN, "cp313t")  # the core's: the package the release workflows stage (world_release_day)
DOMAIN_TAG = "v0.20.0-rc2"  # a domain library's own version, as torchvision has
RED_DOMAIN = "acme/vision"
NO_TAG_DOMAIN = "acme/audio"
PROMOTED_VARIANT = ("torchlet", "cpu")  # what reached stable before the copy stopped
_BINARY = [("build-wheels", [("smoke", 1, "linux.4xlarge")])]


def plant_promotion(
    writer: CIWriter,
    repos: dict[str, SbRepo],
    core: str,
    wheels: list[SbWheel],
    *,
    version: str,
    tags: dict[str, str],
    branch_head: str,
    clone: Path,
    remote: Path,
    all_green: bool,
) -> dict:
    """Add the runs, tags and files above to the world; return ``truth["promotion"]``."""
    rc2 = f"v{version}-rc2"
    truth: dict = {"rc_health": _tag_runs(writer, repos, core, rc2, all_green)}
    if all_green:
        rc3 = f"v{version}-rc3"
        _light_tag(clone, remote, rc3, branch_head)
        tags[rc3] = branch_head
        repos[core].tags[rc3] = branch_head
        for workflow in BINARY_BUILDS:
            writer.run(repos[core], workflow, TORCHLET[workflow], branch_head, rc3, T_END - 2 * HOUR)
        truth["rc_health"]["repositories"][core] = {"tag": rc3, "status": "green"}
        truth["final_rc_tagged"] = {"status": "green", "tag": rc3, "tag_sha": branch_head, "head": branch_head}
    else:
        truth["final_rc_tagged"] = {
            "status": "red",
            "tag": rc2,
            "tag_sha": tags[rc2],
            "head": branch_head,
            "why": "the release branch took two commits after rc2 was tagged",
        }
    truth["pypi_staged"] = _staging(wheels, version, all_green)
    truth["stable_promoted"] = _stable(wheels, version, all_green)
    truth["pypi_promoted"] = {"status": "amber", "why": f"PyPI has no {version} yet"}
    return truth


def _tag_runs(writer: CIWriter, repos: dict[str, SbRepo], core: str, rc2: str, all_green: bool) -> dict:
    by_repo: dict[str, dict] = {core: {"tag": rc2, "status": "green"}}
    for name, repo in repos.items():
        if name == core:
            continue
        if name == NO_TAG_DOMAIN and not all_green:
            by_repo[name] = {"tag": "", "status": "unknown", "why": "no run on any RC tag"}
            continue
        sha = fake_sha(name, DOMAIN_TAG)
        failed = name == RED_DOMAIN and not all_green
        outcome: dict[str, tuple[str, str | None]] | None = None
        if failed:
            outcome = {jobs(_BINARY, "binary-builds")[1]: ("completed", "failure")}
        writer.run(repo, "binary-builds", _BINARY, sha, DOMAIN_TAG, T_END - DAY // 3, outcome)
        writer.run(repo, "Lint", DOMAIN["Lint"], sha, DOMAIN_TAG, T_END - DAY // 3)
        by_repo[name] = {"tag": DOMAIN_TAG, "status": "red" if failed else "green"}
        if failed:
            by_repo[name].update(failed=["binary-builds"], why="a wheel build failed on the domain library's RC tag")
    status = "green" if all_green else "red"
    return {"status": status, "repositories": by_repo}


def staged_wheel(package: str, platform: str, tag: str, version: str) -> SbWheel:
    """The wheel staging holds for one package, platform and Python tag."""
    name = ExpectedArtifact(package, version, tag, platform).filename
    mb = _DOMAIN_MB.get(package, _STAGED_MB[platform])
    size = int(mb * MB) + 4096 * (PYTHON_TAGS.index(tag) + 1)
    return SbWheel(STAGING, package, name, size, hashlib.sha256(f"{STAGING}:{name}".encode()).hexdigest())


def _staging(wheels: list[SbWheel], version: str, all_green: bool) -> dict:
    missing = []
    for package in PACKAGES:
        for platform in STAGED:
            for tag in PYTHON_TAGS:
                wheel = staged_wheel(package, platform, tag, version)
                if not all_green and (package, platform, tag) == STAGING_GAP:
                    missing.append(wheel.filename)
                    continue
                wheels.append(wheel)
    if all_green:
        return {"status": "green", "missing": []}
    return {"status": "red", "missing": missing, "why": "one wheel was never copied to staging"}


def _stable(wheels: list[SbWheel], version: str, all_green: bool) -> dict:
    rc = [w for w in wheels if w.channel == "test" and w.yanked is None]
    expected = len(rc)
    if all_green:
        return {"status": "amber", "promoted": [], "expected_count": expected, "why": "promotion is after the go"}
    package, variant = PROMOTED_VARIANT
    copied = [w for w in rc if w.package == package and w.variant == variant]
    wheels.extend(SbWheel("stable", w.package, w.filename, w.size, w.sha256, variant=w.variant) for w in copied)
    return {
        "status": "red",
        "promoted": sorted(w.filename for w in copied),
        "expected_count": expected,
        "why": "the copy to stable stopped after torchlet's cpu wheels",
    }


def _light_tag(clone: Path, remote: Path, tag: str, sha: str) -> None:
    """A lightweight tag (no date in it: the same world gives the same refs), in the clone and its remote."""
    for where in (clone, remote):
        subprocess.run(["git", "-C", str(where), "tag", tag, sha], check=True, capture_output=True)
