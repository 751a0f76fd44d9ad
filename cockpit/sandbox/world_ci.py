"""CI on the release branches: workflow runs and hundreds of check runs, red / green / amber.

- ``acme/torchlet``: head RED (a required ``pull`` shard failed; an unstable ``trunk`` job failed
  too), head~1 GREEN (so one pick lies between green and red, the CI blame's), head~2 (the rc2
  tag, with the binary builds) GREEN, head~3 red (``Lint``).

The workflows are named as GitHub reports PyTorch's (the profile's ``ci.required_workflows`` and
``ci.binary_build_workflows``): ``pull``, ``trunk``, ``Lint`` on the branch, and on the RC tag
``linux-binary-manywheel``, ``linux-aarch64-binary-manywheel``, ``windows-binary-wheel`` and
``macos-arm64-binary-wheel``.
- ``acme/vision``: GREEN (success or skipped; one failing job whose name says ``unstable``).
  torchlet's unstable job carries the word inside its shard suffix, as PyTorch writes it
  (``test (default, 1, 2, linux.rocm.gpu.2, unstable)``); vision's in the job's own name.
- ``acme/audio``: AMBER (``trunk`` still running: jobs queued and in progress).

A run's conclusion ignores its unstable jobs (they run with continue-on-error).

At a PyTorch-sized scale (``widen``), the ``pull`` and ``trunk`` runs carry more builds, each a
build job and its test shards, up to a number of jobs per run; the planted failures stay as above.
"""

from __future__ import annotations

from cockpit.sandbox.model import SbCheckRun, SbRepo, SbWorkflowRun
from cockpit.sandbox.world_names import DAY, T_END, fake_sha, iso

Matrix = list[tuple[str, list[tuple[str, int, str]]]]

TORCHLET: dict[str, Matrix] = {
    "pull": [
        (
            "linux-jammy-py3.10-gcc11",
            [
                ("default", 5, "linux.2xlarge"),
                ("docs_test", 1, "linux.2xlarge"),
                ("backwards_compat", 1, "linux.2xlarge"),
                ("distributed", 2, "linux.2xlarge"),
                ("crossref", 2, "linux.2xlarge"),
                ("dynamo", 3, "linux.2xlarge"),
            ],
        ),
        ("linux-jammy-py3.12-gcc11", [("default", 4, "linux.2xlarge"), ("dynamo", 3, "linux.2xlarge")]),
        (
            "linux-jammy-cuda12.4-py3.10-gcc9-sm86",
            [("default", 5, "linux.g5.4xlarge.nvidia.gpu"), ("distributed", 3, "linux.g5.12xlarge.nvidia.gpu")],
        ),
        ("win-vs2022-cpu-py3", [("default", 3, "windows.4xlarge.nonephemeral")]),
        ("macos-py3-arm64", [("default", 3, "macos-m1-stable"), ("mps", 1, "macos-m1-14")]),
        ("linux-focal-py3.10-clang10-onnx", [("default", 2, "linux.2xlarge")]),
        (
            "linux-jammy-py3.11-gcc11-inductor",
            [("inductor", 4, "linux.2xlarge"), ("inductor_distributed", 2, "linux.2xlarge")],
        ),
        ("linux-jammy-xpu-py3.10", [("default", 4, "linux.idc.xpu")]),
        ("linux-jammy-py3-clang12-mobile-build", []),
        ("linux-docs", []),
    ],
    "trunk": [
        (
            "linux-focal-cuda12.4-py3.10-gcc9",
            [
                ("default", 5, "linux.4xlarge.nvidia.gpu"),
                ("inductor", 4, "linux.g5.4xlarge.nvidia.gpu"),
                ("distributed", 3, "linux.g4dn.12xlarge.nvidia.gpu"),
                ("slow", 3, "linux.4xlarge.nvidia.gpu"),
            ],
        ),
        ("linux-jammy-py3.10-clang15-asan", [("default", 6, "linux.4xlarge")]),
        ("linux-jammy-py3.10-gcc11-nogpu", [("nogpu_AVX512", 2, "linux.2xlarge"), ("jit_legacy", 1, "linux.2xlarge")]),
        (
            "linux-focal-cuda12.6-py3.12-gcc11",
            [("default", 5, "linux.4xlarge.nvidia.gpu"), ("nogpu_NO_AVX2", 2, "linux.2xlarge")],
        ),
        ("linux-jammy-aarch64-py3.10", [("default", 4, "linux.arm64.2xlarge")]),
        ("macos-py3-arm64-trunk", [("default", 3, "macos-m1-stable")]),
        ("win-vs2022-cuda12.4-py3", [("default", 3, "windows.g5.4xlarge.nvidia.gpu")]),
        ("linux-focal-rocm6.2-py3.10", [("default", 2, "linux.rocm.gpu.2, unstable")]),
    ],
    "Lint": [
        (name, [])
        for name in (
            "lintrunner-clang",
            "lintrunner-noclang",
            "quick-checks",
            "workflow-checks",
            "toc",
            "Test tools",
            "pr-sanity-checks",
            "Link checks",
        )
    ],
    "linux-binary-manywheel": [
        (f"manywheel-py3_{py}-{acc}", [("smoke", 1, "linux.4xlarge")])
        for py in (10, 11, 12, 13, "13t")
        for acc in ("cpu", "cuda12_4", "cuda12_6")
    ],
    "linux-aarch64-binary-manywheel": [
        (f"manywheel-py3_{py}-cpu-aarch64", [("smoke", 1, "linux.arm64.2xlarge")]) for py in (10, 11, 12, 13)
    ],
    "windows-binary-wheel": [(f"wheel-py3_{py}-cpu", [("smoke", 1, "windows.4xlarge")]) for py in (10, 11, 12, 13)],
    "macos-arm64-binary-wheel": [(f"wheel-py3_{py}-cpu", [("smoke", 1, "macos-m1-stable")]) for py in (10, 11, 12, 13)],
}
BINARY_BUILDS = (
    "linux-binary-manywheel",
    "linux-aarch64-binary-manywheel",
    "windows-binary-wheel",
    "macos-arm64-binary-wheel",
)
DOMAIN: dict[str, Matrix] = {
    "pull": [
        ("unittests-linux", [("default", 3, "linux.4xlarge")]),
        ("unittests-macos", [("default", 2, "macos-m1-stable")]),
        ("unittests-windows", [("default", 2, "windows.4xlarge")]),
        ("build-wheels", []),
    ],
    "trunk": [
        ("unittests-linux-gpu", [("default", 4, "linux.g5.4xlarge.nvidia.gpu")]),
        ("unittests-linux-rocm-unstable", [("default", 1, "linux.rocm.gpu")]),
    ],
    "Lint": [("python-source-and-configs", []), ("c-source", []), ("bc", [])],
}

PULL_FAILURE = "linux-jammy-py3.10-gcc11 / test (default, 3, 5, linux.2xlarge)"
LINT_FAILURE = "lintrunner-noclang / linux-job"
SKIPPED = (
    "macos-py3-arm64 / test (mps, 1, 1, macos-m1-14)",
    "unittests-windows / test (default, 2, 2, windows.4xlarge)",
)


def jobs(matrix: Matrix, workflow: str) -> list[str]:
    """Job names in PyTorch's form: ``<build> / build`` and ``<build> / test (<config>, i, n, <runner>)``."""
    names = []
    for build, configs in matrix:
        names.append(f"{build} / linux-job" if workflow == "Lint" else f"{build} / build")
        names += [f"{build} / test ({cfg}, {i}, {n}, {runner})" for cfg, n, runner in configs for i in range(1, n + 1)]
    return names


_EXTRA_OS = ("linux-jammy", "linux-noble", "win-vs2022", "macos-14-arm64", "linux-jammy-aarch64")
_EXTRA_ACCELERATORS = (
    ("cpu", "linux.2xlarge"),
    ("cuda12.6", "linux.g5.4xlarge.nvidia.gpu"),
    ("cuda12.8", "linux.g6.4xlarge.nvidia.gpu"),
    ("rocm6.3", "linux.rocm.gpu.mi300.2"),
    ("xpu", "linux.idc.xpu"),
)
_EXTRA_SHARDS = 5


def widen(matrix: Matrix, jobs_per_run: int | None) -> Matrix:
    """``matrix`` with extra builds (``<os>-py3.X-<accelerator>``, a build job and five test shards
    each) until a run has at least ``jobs_per_run`` jobs; ``None`` (or a smaller number) keeps it."""
    widened = list(matrix)
    count = sum(1 + sum(n for _cfg, n, _runner in configs) for _build, configs in matrix)
    k = 0
    while jobs_per_run is not None and count < jobs_per_run:
        os_name = _EXTRA_OS[k % len(_EXTRA_OS)]
        accelerator, runner = _EXTRA_ACCELERATORS[(k // len(_EXTRA_OS)) % len(_EXTRA_ACCELERATORS)]
        python = 10 + (k // (len(_EXTRA_OS) * len(_EXTRA_ACCELERATORS))) % 4
        series = k // (len(_EXTRA_OS) * len(_EXTRA_ACCELERATORS) * 4)
        build = f"{os_name}-py3.{python}-{accelerator}" + (f"-set{series + 1}" if series else "")
        widened.append((build, [("default", _EXTRA_SHARDS, runner)]))
        count += 1 + _EXTRA_SHARDS
        k += 1
    return widened


class CIWriter:
    """Hands out run, suite and check-run ids that are unique across every repository."""

    def __init__(self) -> None:
        self.runs = 0
        self.checks = 0

    def run(
        self,
        repo: SbRepo,
        workflow: str,
        matrix: Matrix,
        sha: str,
        branch: str,
        when: int,
        outcome: dict[str, tuple[str, str | None]] | None = None,
    ) -> None:
        """One workflow run with a check run per job; ``outcome`` overrides (status, conclusion) by job name."""
        outcome = outcome or {}
        self.runs += 1
        run_id = 11_200_000_000 + 37 * self.runs
        statuses = []
        for k, name in enumerate(jobs(matrix, workflow)):
            status, conclusion = outcome.get(name, ("completed", "skipped" if name in SKIPPED else "success"))
            self.checks += 1
            started = when + 600 + 45 * k
            repo.check_runs.append(
                SbCheckRun(
                    31_500_000_000 + 11 * self.checks,
                    name,
                    sha,
                    run_id,
                    status,
                    conclusion,
                    iso(started) if status != "queued" else "",
                    iso(started + 1200 + 97 * (k % 40)) if status == "completed" else None,
                )
            )
            if "unstable" not in name:
                statuses.append((status, conclusion))
        running = any(s != "completed" for s, _ in statuses)
        failed = any(c in ("failure", "cancelled", "timed_out") for _, c in statuses)
        repo.workflow_runs.append(
            SbWorkflowRun(
                run_id,
                workflow,
                sha,
                branch,
                "push",
                "in_progress" if running else "completed",
                None if running else ("failure" if failed else "success"),
                28_000_000_000 + 13 * self.runs,
                iso(when),
            )
        )


def torchlet_ci(
    writer: CIWriter,
    repo: SbRepo,
    branch: str,
    history: list[tuple[str, int]],
    rc_tag: str,
    rc_sha: str,
    *,
    all_green: bool = False,
    jobs_per_run: int | None = None,
) -> dict:
    """Runs for the newest four release-branch commits ``history`` ((sha, time), newest first).

    ``all_green``: every required job passes on every commit; only the unstable job fails (ignored).
    ``jobs_per_run``: ``pull`` and ``trunk`` runs widened to that many jobs (see ``widen``).
    """
    matrices = {w: widen(m, jobs_per_run) if w in ("pull", "trunk") else m for w, m in TORCHLET.items()}
    unstable = next(n for n in jobs(TORCHLET["trunk"], "trunk") if "unstable" in n)
    bad: tuple[str, str | None] = ("completed", "failure")
    plans = [
        {"pull": {PULL_FAILURE: bad}, "trunk": {unstable: bad}},
        {"trunk": {unstable: bad}},
        {"trunk": {unstable: bad}},
        {"Lint": {LINT_FAILURE: bad}},
    ]
    if all_green:
        plans = [{"trunk": {unstable: bad}}, {}, {}, {}]
    for (sha, when), plan in zip(history, plans, strict=False):
        for workflow in ("pull", "trunk", "Lint"):
            writer.run(repo, workflow, matrices[workflow], sha, branch, when, plan.get(workflow))
    for k, workflow in enumerate(BINARY_BUILDS):
        writer.run(repo, workflow, TORCHLET[workflow], rc_sha, rc_tag, history[2][1] + 3600 + 60 * k)
    if all_green:
        return {
            "verdict": "green",
            "head": history[0][0],
            "failed": [],
            "unstable_failed": [unstable],
            "last_green": history[0][0],
            "commits_behind_green": 0,
            "binary_builds_sha": rc_sha,
            "check_runs_at_head": sum(1 for c in repo.check_runs if c.head_sha == history[0][0]),
        }
    return {
        "verdict": "red",
        "head": history[0][0],
        "failed": [PULL_FAILURE],
        "unstable_failed": [unstable],
        "last_green": history[1][0],
        "commits_behind_green": 1,
        "binary_builds_sha": rc_sha,
        "check_runs_at_head": sum(1 for c in repo.check_runs if c.head_sha == history[0][0]),
    }


def domain_repo(
    writer: CIWriter, name: str, branch: str, verdict: str, *, jobs_per_run: int | None = None
) -> tuple[SbRepo, dict]:
    """A domain library with fake SHAs: ``green`` (vision) or ``amber`` (audio); ``jobs_per_run`` as
    for ``torchlet_ci``."""
    matrices = {w: widen(m, jobs_per_run) if w in ("pull", "trunk") else m for w, m in DOMAIN.items()}
    repo = SbRepo(name)
    shas = [fake_sha(name, branch, k) for k in range(6)]
    repo.branches = {"main": fake_sha(name, "main"), branch: shas[0]}
    repo.branch_history = {branch: shas}
    unstable = next(n for n in jobs(DOMAIN["trunk"], "trunk") if "unstable" in n)
    trunk_jobs = jobs(DOMAIN["trunk"], "trunk")
    if verdict == "green":
        outcome: dict[str, tuple[str, str | None]] = {unstable: ("completed", "failure")}
        detail = {"verdict": "green", "head": shas[0], "unstable_failed": [unstable]}
    else:
        outcome = {
            trunk_jobs[1]: ("in_progress", None),
            trunk_jobs[2]: ("in_progress", None),
            trunk_jobs[3]: ("queued", None),
            trunk_jobs[4]: ("queued", None),
        }
        detail = {"verdict": "amber", "head": shas[0], "pending": sorted(n for n in outcome)}
    for k, sha in enumerate(shas[:2]):
        when = T_END - (k + 1) * DAY // 2
        for workflow in ("pull", "trunk", "Lint"):
            writer.run(
                repo,
                workflow,
                matrices[workflow],
                sha,
                branch,
                when,
                outcome if workflow == "trunk" and k == 0 else None,
            )
    return repo, detail
