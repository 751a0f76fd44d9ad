"""The repositories the checklist's evidence steps read, with good and bad states planted.

``add_evidence(world)`` adds to a built world: ``acme/test-infra`` (the binary validation workflow's runs
and their matrix jobs), ``acme/docs`` (the docs site's tree, read with the contents API),
``acme/torchlet.github.io`` (the release matrix and published-versions PRs with their checks),
``acme/colab-requests`` (a Colab issue for the previous release only), in the core repository the
release's validation issue and validation comments on the closed milestone issues, and a ``triton``
project on PyPI. It writes the ``[evidence]`` config into ``world.evidence_config`` and what each step
must conclude into ``world.truth["checklist_evidence"]``: gate name -> ``{"status", "why", ...}``.

The default world plants one fault per step where it can: the validation run on the final RC failed
(two matrix jobs named), two closed issues lack their validation comment, two task-list items of the
validation issue are open, the docs have no entry for the version, the release matrix PR has a failing
check, the triton version the pin maps to is not on PyPI; the Colab issue is not due before the release
(amber), and the published-versions PR is ready but waits for release day (amber). ``all_green`` worlds
plant every step green but the two done after the go decision: the Colab issue (not due) and the
published-versions PR (ready).
"""

from __future__ import annotations

import hashlib
import subprocess

from cockpit.sandbox.model import SbCheckRun, SbComment, SbIssue, SbPull, SbPyPIRelease, SbRepo, SbWorkflowRun, World
from cockpit.sandbox.world_names import DAY, HOUR, T_CUT, T_END, iso

TEST_INFRA, DOCS, WEBSITE, COLAB = "acme/test-infra", "acme/docs", "acme/torchlet.github.io", "acme/colab-requests"
WORKFLOW = "validate-binaries.yml"
PIN_PATH = ".ci/docker/ci_commit_pins/triton.txt"
TRITON_VERSION, TRITON_OLD = "3.1.0", "3.0.0"
PHRASE = "Validated for {version}"
FAILED_JOBS = ("linux-aarch64 / validate (3.13t)", "windows / validate (cu126, 3.12)")
_MATRIX = (
    "linux / validate (cpu, 3.10)",
    "linux / validate (cu126, 3.12)",
    "macos-arm64 / validate (3.12)",
    *FAILED_JOBS,
)


def _sha(*parts: object) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()


def add_evidence(world: World) -> None:
    """Add the evidence repositories, config and truth to ``world`` (see the module docstring)."""
    green, version = world.all_green, world.version
    short = ".".join(version.split(".")[:2])
    rc_tags = sorted((t for t in world.truth.get("tags", {}) if t.startswith(f"v{version}-rc")), key=_rc_number)
    final_rc = rc_tags[-1] if rc_tags else f"v{version}-rc1"
    truth: dict = {}
    truth["validate_binaries"] = _test_infra(world, version, final_rc, rc_tags, green)
    truth["docs_build_entry"] = _docs(world, short, green)
    truth["release_matrix_pr"], truth["published_versions_pr"] = _website(world, version, green)
    truth["validation_issue"] = _validation_issue(world, version, green)
    truth["validation_comments"] = _validation_comments(world, version, green)
    truth["triton_pin_release"], pin = _triton(world, green)
    truth["colab_issue"] = _colab(world)
    world.evidence_config = {
        "validate_binaries": {"repository": TEST_INFRA, "workflow": WORKFLOW},
        "validation_comments": {"phrase": PHRASE},
        "validation_issue": {"title": "*{version}*validation*"},
        "docs_build_entry": {"repository": DOCS, "ref": "site", "path": "{version_short}/index.html"},
        "release_matrix_pr": {"repository": WEBSITE, "title": "*{version}*release matrix*"},
        "published_versions_pr": {"repository": WEBSITE, "title": "*published versions*{version}*"},
        "triton_pin_release": {"pin_path": PIN_PATH, "versions": {pin: TRITON_VERSION}} if pin else {},
        "colab_issue": {"repository": COLAB, "title": "*{version}*"},
    }
    world.truth["checklist_evidence"] = truth


def _rc_number(tag: str) -> int:
    return int(tag.rsplit("rc", 1)[1])


def _tag_times(world: World) -> dict[str, int]:
    """When each tag of the core's clone was made (an annotated tag's tagger date, else its commit's)."""
    out = subprocess.run(
        ["git", "-C", str(world.clone_path), "for-each-ref", "--format=%(refname:strip=2) %(creatordate:unix)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {name: int(stamp) for name, _, stamp in (line.partition(" ") for line in out.splitlines()) if stamp}


def _test_infra(world: World, version: str, final_rc: str, rc_tags: list[str], green: bool) -> dict:
    """The validation workflow's runs as GitHub lists them: it sets no run-name, so every run is titled
    ``Validate binaries``; each was dispatched from ``main`` (workflow_dispatch) a while after its RC was
    tagged. The newest run of all was dispatched from another branch (a fix being tried): not this release's."""
    repo = SbRepo(TEST_INFRA, branches={"main": _sha("test-infra", "main")})
    made = _tag_times(world)
    runs = [  # oldest first: the previous release, then each RC of this one, then one from another ref
        ("main", "", "success", T_CUT - 20 * DAY),
        *(("main", tag, "success", made.get(tag, T_END - (8 - k) * DAY) + 2 * HOUR) for k, tag in enumerate(rc_tags)),
        ("validate-binaries-fix", "", "success", T_END),
    ]
    if not green:  # the run on the final RC failed
        runs = [(ref, tag, "failure" if tag == final_rc else c, when) for ref, tag, c, when in runs]
    for k, (ref, _tag, conclusion, at) in enumerate(runs):
        run_id, sha, when = 91_000 + k, _sha("validate", k), iso(at)
        repo.workflow_runs.append(
            SbWorkflowRun(
                run_id,
                "Validate binaries",
                sha,
                ref,
                event="workflow_dispatch",
                conclusion=conclusion,
                check_suite_id=92_000 + k,
                created_at=when,
                path=f".github/workflows/{WORKFLOW}",
                display_title="Validate binaries",
            )
        )
        for j, job in enumerate(_MATRIX):
            failed = conclusion == "failure" and job in FAILED_JOBS
            repo.check_runs.append(
                SbCheckRun(
                    93_000 + k * 10 + j,
                    job,
                    sha,
                    run_id,
                    conclusion="failure" if failed else "success",
                    started_at=when,
                    completed_at=when,
                )
            )
    world.repos[TEST_INFRA] = repo
    if green:
        return {"status": "green", "why": f"the run on {final_rc} passed", "rc": final_rc}
    return {"status": "red", "why": f"the run on {final_rc} failed", "rc": final_rc, "failed_jobs": list(FAILED_JOBS)}


def _docs(world: World, short: str, green: bool) -> dict:
    site = {"index.html": "<h1>docs</h1>\n", "2.4/index.html": "<h1>2.4</h1>\n", "stable/index.html": "stable\n"}
    if green:
        site[f"{short}/index.html"] = f"<h1>{short}</h1>\n"
    world.repos[DOCS] = SbRepo(DOCS, default_branch="site", branches={"site": _sha("docs")}, files={"site": site})
    if green:
        return {"status": "green", "why": f"{short}/index.html is on site"}
    return {"status": "red", "why": f"no {short}/index.html on site (only 2.4)"}


def _website(world: World, version: str, green: bool) -> tuple[dict, dict]:
    repo = SbRepo(WEBSITE, default_branch="site", branches={"site": _sha("website")})
    when = iso(T_END - 2 * DAY)
    prs = [
        (41, f"[{version}] Add the {version} release matrix to get started", "update-matrix", not green),
        (42, f"Update published versions for {version}", "published-versions", False),
        (40, "Add the 2.4.1 release matrix to get started", "matrix-2.4.1", False),
    ]
    for number, title, head, failing in prs:
        sha = _sha("website", number)
        merged = number == 40
        repo.pulls.append(
            SbPull(
                number,
                title,
                "release-bot",
                "site",
                head,
                state="closed" if merged else "open",
                merged=merged,
                created_at=when,
                updated_at=when,
                closed_at=when if merged else None,
                merged_at=when if merged else None,
                merge_commit_sha=_sha("merge", number) if merged else None,
                head_sha=sha,
                mergeable=None if merged else True,
                mergeable_state="unknown" if merged else "clean",
            )
        )
        run_id = 94_000 + number
        repo.workflow_runs.append(
            SbWorkflowRun(
                run_id,
                "site",
                sha,
                head,
                event="pull_request",
                conclusion="failure" if failing else "success",
                check_suite_id=95_000 + number,
                created_at=when,
            )
        )
        for j, job in enumerate(("build-site", "linkcheck")):
            bad = failing and job == "linkcheck"
            repo.check_runs.append(
                SbCheckRun(
                    96_000 + number * 10 + j,
                    job,
                    sha,
                    run_id,
                    conclusion="failure" if bad else "success",
                    started_at=when,
                    completed_at=when,
                )
            )
    world.repos[WEBSITE] = repo
    matrix = {"status": "green", "why": "#41 open, checks green, mergeable", "number": 41}
    if not green:
        matrix = {"status": "red", "why": "#41's linkcheck failed", "number": 41, "failed": ["linkcheck"]}
    return matrix, {"status": "amber", "why": "#42 ready, merged on release day", "number": 42}


def _validation_issue(world: World, version: str, green: bool) -> dict:
    core = world.repos[world.repository]
    # far above the numbers in use, so worlds built on this one (the patch release) number theirs as before
    number = max([i.number for i in core.issues] + [p.number for p in core.pulls]) + 1000
    items = [
        "Install from the test channel on Linux",
        "Smoke tests on Windows",
        "Smoke tests on macOS",
        "torch.compile on the tutorials",
        "Domain libraries import",
    ]
    open_items = set() if green else {3, 4}
    body = "Validations for the release candidate.\n\n" + "\n".join(
        f"- [{' ' if k in open_items else 'x'}] {text}" for k, text in enumerate(items)
    )
    when = iso(T_END - 3 * DAY)
    core.issues.append(
        SbIssue(
            number,
            f"[v{version}] Release validation",
            "release-manager",
            body=body,
            labels=["release"],
            created_at=when,
            updated_at=when,
        )
    )
    old_body = "\n".join(f"- [x] {text}" for text in items)
    core.issues.append(
        SbIssue(
            number + 1,
            "[v2.4.1] Release validation",
            "release-manager",
            state="closed",
            body=old_body,
            created_at=iso(T_END - 60 * DAY),
            updated_at=when,
            closed_at=when,
            state_reason="completed",
        )
    )
    if green:
        return {"status": "green", "why": "every task item done", "number": number}
    return {
        "status": "amber",
        "why": "2 of 5 task items open",
        "number": number,
        "open": [items[k] for k in sorted(open_items)],
    }


def _validation_comments(world: World, version: str, green: bool) -> dict:
    core = world.repos[world.repository]
    closed = sorted(
        i.number
        for i in core.issues
        if i.milestone == world.milestone_number
        and i.state == "closed"
        and i.state_reason not in ("not_planned", "duplicate")
        and "release-feature-request" not in i.labels
    )
    lacking = [] if green else closed[-2:]
    when = iso(T_END - DAY)
    for k, number in enumerate(n for n in closed if n not in lacking):
        who, text = (
            ("release-manager", f"Validated for {version}: this fix is in the release branch.")
            if k % 2 == 0
            else (f"tester{k}", f"validated for {version} on rc2, Linux and macOS")
        )
        core.comments.append(SbComment(9_000_000 + k, number, who, text, created_at=when, updated_at=when))
    for k, number in enumerate(lacking):  # a comment, but not the validation one
        core.comments.append(
            SbComment(9_100_000 + k, number, "tester", "Still seeing this on rc1?", created_at=when, updated_at=when)
        )
    status = "red" if lacking else "green"
    return {"status": status, "why": f"{len(lacking)} closed issues lack it", "lacking": lacking, "closed": closed}


def _triton(world: World, green: bool) -> tuple[dict, str | None]:
    pin = _pin(world)
    world.pypi.append(
        SbPyPIRelease(
            "triton", TRITON_OLD, [f"triton-{TRITON_OLD}-cp312-cp312-manylinux_2_28_x86_64.whl"], iso(T_END - 90 * DAY)
        )
    )
    if green:
        world.pypi.append(
            SbPyPIRelease(
                "triton",
                TRITON_VERSION,
                [f"triton-{TRITON_VERSION}-cp312-cp312-manylinux_2_28_x86_64.whl"],
                iso(T_END - 5 * DAY),
            )
        )
        return {"status": "green", "why": f"triton {TRITON_VERSION} is on PyPI", "pin": pin}, pin
    return {"status": "red", "why": f"triton {TRITON_VERSION} is not on PyPI", "pin": pin}, pin


def _pin(world: World) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", world.clone_path, "show", f"{world.release_branch}:{PIN_PATH}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.strip() or None


def _colab(world: World) -> dict:
    when = iso(T_END - 50 * DAY)
    world.repos[COLAB] = SbRepo(
        COLAB,
        issues=[
            SbIssue(
                7,
                "Upgrade torchlet to 2.4.1",
                "release-manager",
                state="closed",
                created_at=when,
                updated_at=when,
                closed_at=when,
                state_reason="completed",
            )
        ],
    )
    return {"status": "amber", "why": "not due before the release"}
