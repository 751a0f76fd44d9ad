"""Release day in the sandbox: the release workflows of ``acme/test-infra``, their runs, and the versions file.

``add_release_day(world)`` adds, after the evidence repositories (``world_evidence``):

- in ``acme/test-infra`` on ``main``: the release workflow files (stage for PyPI, upload to PyPI,
  promote to the download site, recompute checksums, publish docker images, validate binaries),
  shaped like pytorch/test-infra's (a ``dryrun`` choice defaulting to ``enabled``, ``package``,
  ``channel``, ``version``; jobs in the protected ``pytorchbot-env`` / ``promote-env``), in our
  words; and ``release/release_versions.sh`` with one variable left at the previous version;
- their runs (``world.release_day``, served by ``github_actions_routes``): a staging dry run that
  passed, then the real staging that succeeded, an upload dry run that failed on one job with a readable log
  tail, a real promotion to the download site waiting for a reviewer's approval in ``promote-env`` (started
  outside the cockpit: not in the journal), and the checksum recompute waiting for the same approval;
- ``world.release_day["journal"]``: the dispatch journal of the runs the cockpit started (GitHub lists no
  inputs), which the demo writes into its state file, and ``[evidence.release_workflows]``.

``world.truth["release_day"]`` says what was planted, for the tests.
"""

from __future__ import annotations

from cockpit.sandbox.model import SbWorkflowRun, World
from cockpit.sandbox.world_libraries import CORE_PACKAGE, libraries
from cockpit.sandbox.world_names import DAY, HOUR, RELEASE_MANAGERS, T_END, iso
from cockpit.sandbox.world_promotion import STAGING_GAP, staged_wheel

TEST_INFRA = "acme/test-infra"
REF = "main"
VERSIONS_PATH = "release/release_versions.sh"
FIRST_RUN = 97_000
FIRST_JOB = 98_000
RELEASE_ENV_IDS = {"pytorchbot-env": 7101, "promote-env": 7102}

_DRYRUN = """      dryrun:
        description: "enabled: say what would be copied, copy nothing"
        required: true
        type: choice
        default: enabled
        options:
          - enabled
          - disabled
"""
_PACKAGE = """      package:
        description: "The package to release"
        required: true
        type: choice
        default: {first}
        options: [{packages}]
"""
_JOB = """
jobs:
  {job}:
    runs-on: ubuntu-latest
    environment: {environment}
    steps:
      - uses: actions/checkout@v4
      - name: {step}
        run: |
          source ./release/release_versions.sh
          echo "releasing ${{{{ inputs.package }}}}"
"""


def _workflow(name: str, inputs: str, job: str, environment: str, step: str) -> str:
    header = f"name: {name}\n\non:\n  workflow_dispatch:\n    inputs:\n{inputs}"
    return header + _JOB.format(job=job, environment=environment, step=step)


def workflow_files(packages: list[str], version: str) -> dict[str, tuple[str, str, str, str]]:
    """Path -> (workflow name, file text, job, environment) of each release workflow of the sandbox's test-infra."""
    package = _PACKAGE.format(first=packages[0], packages=", ".join(packages))
    channel = """      channel:
        description: "Channel to validate: test (the RC) or release"
        required: true
        type: choice
        default: test
        options: [test, release]
"""
    version_input = """      version:
        description: "Version to check; empty means the one in release_versions.sh"
        required: false
        type: string
"""
    docker = f"""      version:
        description: "Version of the images (e.g. 2.5.0)"
        required: true
        type: string
        default: "{version}"
      dry_run:
        description: "Build and test only; push nothing"
        type: boolean
        default: true
"""
    specs = {
        "release-stage-pypi.yml": ("Stage wheels for PyPI", _DRYRUN + package, "stage", "pytorchbot-env", "Stage"),
        "release-pypi.yml": ("Upload staged wheels to PyPI", _DRYRUN + package, "upload", "pytorchbot-env", "Upload"),
        "release-download-site.yml": (
            "Promote to the download site",
            _DRYRUN + package,
            "promote",
            "promote-env",
            "Promote",
        ),
        "release-post-promotion.yml": ("Recompute checksums", version_input, "checksums", "promote-env", "Recompute"),
        "release-docker.yml": ("Publish docker images", docker + channel, "publish", "promote-env", "Publish"),
        "validate-binaries.yml": ("Validate binaries", channel + version_input, "validate", "''", "Validate"),
        "validate-docker-images.yml": ("Validate docker images", channel, "validate", "''", "Validate"),
    }
    return {
        f".github/workflows/{path}": (name, _workflow(name, inputs, job, env, step), job, env.strip("'"))
        for path, (name, inputs, job, env, step) in specs.items()
    }


def versions_file(version: str) -> tuple[str, dict]:
    """``release_versions.sh`` for ``version``: every library at its own number but vision, left at the
    previous one (what the gate must name); returns the text and what was planted."""
    libs = {lib.package: lib.version for lib in libraries(version)}
    vision = "torchlet-vision"
    stale = libs[vision].rsplit(".", 2)
    stale_version = f"{stale[0]}.{int(stale[1]) - 1}.0"
    lines = [
        "#!/usr/bin/env bash",
        "",
        "# The versions the release workflows promote: bump them before release day",
        f"TORCHLET_VERSION=${{TORCHLET_VERSION:-{version}}}",
        f"TORCHLET_VISION_VERSION=${{TORCHLET_VISION_VERSION:-{stale_version}}}",
        f"TORCHLET_AUDIO_VERSION=${{TORCHLET_AUDIO_VERSION:-{libs['torchlet-audio']}}}",
        "TRITONLET_VERSION=${TRITONLET_VERSION:-3.1.0}",
        "TORCHLET_RTX_VERSION=${TORCHLET_VERSION}",
    ]
    planted = {"variable": "TORCHLET_VISION_VERSION", "file": stale_version, "expected": libs[vision], "line": 5}
    return "\n".join(lines) + "\n", planted


def _job(
    job_id: int, name: str, conclusion: str | None, when: str, steps: list[tuple[str, str | None]], log: str
) -> dict:
    status = "completed" if conclusion else "waiting"
    return {
        "id": job_id,
        "name": name,
        "status": status,
        "conclusion": conclusion,
        "started_at": when,
        "completed_at": when if conclusion else None,
        "steps": [
            {"number": k + 1, "name": step, "status": "completed" if c else "queued", "conclusion": c}
            for k, (step, c) in enumerate(steps)
        ],
        "log": log,
    }


_UPLOAD_LOG = """##[group]Run source ./release/release_versions.sh
Listing s3://sandbox-backup/torchlet-{version}-pypi-staging/
  torchlet-{version}-cp312-cp312-manylinux_2_28_x86_64.whl
  torchlet-{version}-cp313-cp313-manylinux_2_28_x86_64.whl
##[endgroup]
Checking the staged set against the release matrix
error: no staged wheel of {package} for {tag} {platform}
  (expected {gap})
error: the staged set is incomplete: 1 of 3 expected wheels missing
##[error]Process completed with exit code 1.
"""


def _runs(version: str, sha: str, package: str) -> tuple[list[dict], dict]:
    manager = RELEASE_MANAGERS[0].login
    ok = [("Set up job", "success"), ("Run actions/checkout@v4", "success")]
    runs = []

    def run(k: int, path: str, name: str, inputs: dict, conclusion: str | None, when: int, jobs: list) -> None:
        runs.append(
            {
                "id": FIRST_RUN + k,
                "workflow_path": path,
                "name": name,
                "head_branch": REF,
                "head_sha": sha,
                "event": "workflow_dispatch",
                "status": "completed" if conclusion else "waiting",
                "conclusion": conclusion,
                "actor": manager,
                "created_at": iso(when),
                "run_attempt": 1,
                "inputs": inputs,
                "jobs": jobs,
                "pending": [],
            }
        )

    t0 = T_END - DAY
    dry = {"dryrun": "enabled", "package": package}
    run(0, ".github/workflows/release-stage-pypi.yml", "Stage wheels for PyPI", dry, "success", t0, [
        _job(FIRST_JOB, "stage", "success", iso(t0), [*ok, ("Stage", "success")], "staged 3 wheels (dry run)\n"),
    ])  # fmt: skip
    t1 = t0 + 2 * HOUR
    package_gap, platform_gap, tag_gap = STAGING_GAP  # the wheel never copied to staging (world_promotion)
    gap = staged_wheel(*STAGING_GAP, version).filename
    log = _UPLOAD_LOG.format(version=version, package=package_gap, tag=tag_gap, platform=platform_gap, gap=gap)
    run(1, ".github/workflows/release-pypi.yml", "Upload staged wheels to PyPI", dry, "failure", t1, [
        _job(FIRST_JOB + 1, "check staged set", "failure", iso(t1), [*ok, ("Check", "failure")], log),
        _job(FIRST_JOB + 2, "upload", "skipped", iso(t1), [], ""),
    ])  # fmt: skip
    t2 = t1 + 2 * HOUR
    real = {"dryrun": "disabled", "package": package}
    run(2, ".github/workflows/release-download-site.yml", "Promote to the download site", real, None, t2, [
        _job(FIRST_JOB + 3, "promote", None, iso(t2), [], "Waiting for a review of promote-env\n"),
    ])  # fmt: skip
    runs[-1]["pending"] = _waiting_for("promote-env")
    t3 = t0 - 6 * HOUR  # the real staging, after a dry run the day before: started from the cockpit (journalled)
    run(3, ".github/workflows/release-stage-pypi.yml", "Stage wheels for PyPI", real, "success", t3, [
        _job(FIRST_JOB + 4, "stage", "success", iso(t3), [*ok, ("Stage", "success")], "staged 3 wheels\n"),
    ])  # fmt: skip
    t4 = t2 + HOUR  # the checksums of the promoted files, waiting for promote-env's approval
    sums = {"project": "torch", "version": version}
    run(4, ".github/workflows/release-post-promotion.yml", "Recompute checksums", sums, None, t4, [
        _job(FIRST_JOB + 5, "checksums", None, iso(t4), [], "Waiting for a review of promote-env\n"),
    ])  # fmt: skip
    runs[-1]["pending"] = _waiting_for("promote-env")
    truth = {
        "staged": FIRST_RUN + 3,
        "checksums_waiting": FIRST_RUN + 4,
        "dry_run_failed": FIRST_RUN + 1,
        "failed_job": "check staged set",
        "log_line": "error: the staged set is incomplete: 1 of 3 expected wheels missing",
        "waiting_run": FIRST_RUN + 2,
        "waiting_environment": "promote-env",
    }
    return runs, truth


def _create_release_run(world: World) -> None:
    """The core's ``create_release.yml`` ran when the previous release was published (event ``release`` on its
    tag); this release has none yet, so its step is open, not a 404."""
    core = world.repos.get(world.repository)
    if core is None:
        return
    previous = str(world.truth.get("closed_milestone", {}).get("title", "2.4.1"))
    core.workflow_runs.append(
        SbWorkflowRun(
            FIRST_RUN + 50,
            "Create Release",
            "c" * 40,
            f"v{previous}",
            event="release",
            check_suite_id=FIRST_RUN + 1_000_050,
            created_at=iso(T_END - 40 * DAY),
            path=".github/workflows/create_release.yml",
            display_title=f"v{previous}",
        )
    )


def _smoke_test_dispatch(repo, manager: str) -> list[dict]:
    """The journal entry of the smoke tests on the final RC: the newest validate-binaries run dispatched from
    main (the world plants it, green or failed, in ``world_evidence``), started from the cockpit on the test channel."""
    runs = [r for r in repo.workflow_runs if r.path.endswith("/validate-binaries.yml") and r.head_branch == REF]
    if not runs:
        return []
    newest = max(runs, key=lambda r: (r.created_at, r.id))
    return [
        {
            "workflow": f"{TEST_INFRA}:{newest.path}",
            "inputs": {"channel": "test", "os": "all"},
            "dry_run": False,
            "ref": REF,
            "dispatched_at": newest.created_at,
            "by": manager,
            "run_id": newest.id,
        }
    ]


def _journalled(run: dict, *, manager: str) -> dict:
    """The dispatch journal's entry for a run the cockpit started (its inputs: GitHub does not list them)."""
    inputs = {k: str(v) for k, v in run["inputs"].items()}
    return {
        "workflow": f"{TEST_INFRA}:{run['workflow_path']}",
        "inputs": inputs,
        "dry_run": inputs.get("dryrun", "disabled") != "disabled",
        "ref": run["head_branch"],
        "dispatched_at": run["created_at"],
        "by": manager,
        "run_id": run["id"],
    }


def add_release_day(world: World) -> None:
    """Add release day's workflows, runs and versions file to ``world`` (see the module docstring)."""
    repo = world.repos.get(TEST_INFRA)
    if repo is None:
        return  # a world built without its evidence repositories has no test-infra to hold them
    packages = [CORE_PACKAGE.replace("-", "_"), *(lib.package.replace("-", "_") for lib in libraries(world.version))]
    files = repo.files.setdefault(REF, {})
    workflows = []
    for path, (name, text, job, environment) in workflow_files(packages, world.version).items():
        files[path] = text
        workflows.append({"name": name, "path": path, "job": job, "environment": environment})
    text, planted = versions_file(world.version)
    files[VERSIONS_PATH] = text
    sha = repo.branches.get(REF, "0" * 40)
    runs, truth = _runs(world.version, sha, packages[0])
    _create_release_run(world)
    journal = [_journalled(r, manager=RELEASE_MANAGERS[0].login) for r in runs if r["id"] != FIRST_RUN + 2]
    journal += _smoke_test_dispatch(repo, RELEASE_MANAGERS[0].login)
    world.release_day = {"repository": TEST_INFRA, "ref": REF, "workflows": workflows, "runs": runs, "journal": journal}
    # the steps these workflows perform are judged from their runs and the journal (the demo seeds it)
    world.evidence_config["release_workflows"] = {"repository": TEST_INFRA, "ref": REF, "packages": [packages[0]]}
    world.truth["release_day"] = {**truth, "versions": planted, "versions_path": VERSIONS_PATH}
    world.truth["release_day"]["tracking_issue"] = _tracking_issue(world)


HAND_TICKED = "release_notes"
"""The step whose box a release manager ticked by hand in the demo's tracking issue (the cockpit records it)."""


def _tracking_issue(world: World) -> dict[str, object]:
    """The release team's ``[v.X.Y.Z] Release Day Checklist`` issue, opened from the checklist two days ago,
    with one box ticked by hand on GitHub since (``HAND_TICKED``)."""
    from cockpit.domain.reports import StepView
    from cockpit.sandbox.model import SbIssue
    from cockpit.services.checklist import load_template
    from cockpit.services.tracking_issue import LABEL, render, title

    core = world.repos[world.repository]
    number = max([i.number for i in core.issues] + [p.number for p in core.pulls]) + 1
    steps = [StepView(step) for step in load_template()]
    body = render(world.version, steps, {}).replace(
        f"- [ ] PyTorch release notes published — *manual* <!-- cockpit:{HAND_TICKED} -->",
        f"- [x] PyTorch release notes published — *manual* <!-- cockpit:{HAND_TICKED} -->",
    )
    when = iso(T_END - 2 * DAY)
    core.issues.append(
        SbIssue(number, title(world.version), RELEASE_MANAGERS[0].login, body=body, labels=[LABEL], created_at=when,
                updated_at=iso(T_END - DAY))
    )  # fmt: skip
    return {"number": number, "ticked_by_hand": HAND_TICKED}


def _waiting_for(environment: str) -> list[dict[str, object]]:
    """A run's pending deployment: ``environment`` waits for one of the release managers to approve it."""
    return [
        {
            "environment": environment,
            "environment_id": RELEASE_ENV_IDS[environment],
            "reviewers": [p.login for p in RELEASE_MANAGERS],
            "wait_timer": 0,
        }
    ]
