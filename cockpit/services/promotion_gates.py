"""The checklist's own gates after the final RC: the binary builds on the RC tag, the final RC tag
on the remote at the judged branch head, the staged PyPI wheels, the stable index and PyPI.

Each gate is GREEN only on evidence read; evidence that could not be read is UNKNOWN with the reason.
A step not yet done (nothing tagged, staged or promoted yet) is AMBER; evidence that something went
wrong (a failed build, a tag on an older commit, a half-done promotion) is RED.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from cockpit.domain.artifacts import StorageReport
from cockpit.domain.ci import WorkflowRun
from cockpit.domain.gates import Gate, GateStatus, worst
from cockpit.domain.promotion import RCTagRuns
from cockpit.gates import family
from cockpit.services.ci import BAD
from cockpit.services.storage import storage_gate

RC_HEALTH = "rc_health"
FINAL_RC_TAGGED = "final_rc_tagged"
PYPI_STAGED = "pypi_staged"
STABLE_PROMOTED = "stable_promoted"
PYPI_PROMOTED = "pypi_promoted"
_SHOWN = 5  # names in a summary before "and N more"
TITLES = {spec.name: spec.title for spec in family("promotion")}
"""The checklist's own gates: its steps show them; the overview's one line per pane gate does not list them."""


def _gate(name: str, status: GateStatus, summary: str, details: Iterable[str] = ()) -> Gate:
    return Gate(name, TITLES[name], status, summary, tuple(details))


def _names(names: Sequence[str]) -> str:
    more = len(names) - _SHOWN
    return ", ".join(names[:_SHOWN]) + (f" and {more} more" if more > 0 else "")


def repo_rc_health(tag_runs: RCTagRuns) -> tuple[GateStatus, str, list[str]]:
    """One repository's verdict on its RC tag: status, one line, and a line per failed or running run.

    The newest run of each workflow counts (a re-run replaces the run it repeats).
    """
    repo, tag = tag_runs.repository, tag_runs.tag
    if tag_runs.error:
        return GateStatus.UNKNOWN, f"{repo}: runs on the RC tag could not be read: {tag_runs.error}", []
    if not tag:
        return GateStatus.UNKNOWN, f"{repo}: no RC tag found ({tag_runs.where or 'nowhere to look'})", []
    at = f"{repo} {tag}" + (f" ({tag_runs.sha[:10]})" if tag_runs.sha else "")
    if not tag_runs.runs:
        return GateStatus.UNKNOWN, f"{at}: no workflow runs found for the tag or its commit", []
    latest: dict[str, WorkflowRun] = {}
    for run in sorted(tag_runs.runs, key=lambda r: (r.created_at is not None, r.created_at, r.id), reverse=True):
        latest.setdefault(run.name, run)
    runs = list(latest.values())
    failed = [r for r in runs if r.conclusion in BAD]
    running = [r for r in runs if r.status != "completed"]
    lines = [f"{at}: {r.name} {r.conclusion} {r.html_url}".rstrip() for r in failed]
    lines += [f"{at}: {r.name} still {r.status} {r.html_url}".rstrip() for r in running]
    if failed:
        names = _names([r.name for r in failed])
        return GateStatus.RED, f"{at}: failed: {names}", lines
    if running:
        names = _names([r.name for r in running])
        return GateStatus.AMBER, f"{at}: still running: {names}", lines
    return GateStatus.GREEN, f"{at}: {len(runs)} workflows green", lines


def rc_health_gate(results: Sequence[RCTagRuns]) -> Gate:
    """``rc_health``: every configured repository's builds on its final RC tag, the worst one first."""
    if not results:
        return _gate(RC_HEALTH, GateStatus.UNKNOWN, "no repository to judge: add [[ci]] tables to the config")
    judged = [repo_rc_health(r) for r in results]
    status = worst([s for s, _, _ in judged])
    order = sorted(judged, key=lambda j: -j[0].rank)
    if status is GateStatus.GREEN:
        summary = f"green on the RC tag in all {len(judged)} repositories"
    else:
        bad = [line for s, line, _ in order if s is not GateStatus.GREEN]
        summary = "; ".join(bad[:2]) + (f"; and {len(bad) - 2} more" if len(bad) > 2 else "")
    details = [line for _, line, _ in order] + [extra for _, _, more in order for extra in more]
    return _gate(RC_HEALTH, status, summary, details)


def final_rc_tag_gate(
    *, tag: str | None, remote: str, remote_tags: Mapping[str, str], branch: str, head: str | None
) -> Gate:
    """``final_rc_tagged``: the newest RC tag is on ``remote`` and names the branch head that was judged."""
    if tag is None:
        return _gate(FINAL_RC_TAGGED, GateStatus.AMBER, "no RC tag yet: tag the final RC on the release branch head")
    if head is None:
        return _gate(FINAL_RC_TAGGED, GateStatus.UNKNOWN, f"the clone has no {remote}/{branch}: fetch it")
    on_remote = remote_tags.get(tag)
    if on_remote is None:
        return _gate(FINAL_RC_TAGGED, GateStatus.AMBER, f"{tag} is not on {remote}: push it")
    if on_remote != head:
        return _gate(
            FINAL_RC_TAGGED,
            GateStatus.RED,
            f"{tag} on {remote} is at {on_remote[:10]}, but {branch} is at {head[:10]}: "
            "the branch moved after the tag; tag the final RC on the head",
            (f"{tag} on {remote}: {on_remote}", f"head of {remote}/{branch}: {head}"),
        )
    return _gate(FINAL_RC_TAGGED, GateStatus.GREEN, f"{tag} on {remote} names the head of {branch} ({head[:10]})")


def staged_gate(report: StorageReport, *, channel: str, published: bool, version: str) -> Gate:
    """``pypi_staged``: every expected wheel in the staging channel, within the limits; PyPI without the version."""
    judged = storage_gate(report)
    if published:
        return _gate(
            PYPI_STAGED,
            GateStatus.RED,
            f"{version} is already on PyPI: staged files can no longer be uploaded (PyPI takes a filename once)",
            judged.details,
        )
    where = f"staging channel '{channel}'"
    return _gate(PYPI_STAGED, judged.status, f"{where}: {judged.summary}", judged.details)


def stable_gate(expected: Mapping[str, str], stable: set[str], *, version: str) -> Gate:
    """``stable_promoted``: the RC's files (name -> variant) all in the stable index."""
    if not expected:
        return _gate(STABLE_PROMOTED, GateStatus.UNKNOWN, f"no files of {version} in the RC channel to compare with")
    missing = [name for name in expected if name not in stable]
    there = len(expected) - len(missing)
    if not missing:
        return _gate(STABLE_PROMOTED, GateStatus.GREEN, f"all {there} files of {version} are in the stable index")
    if there == 0:
        return _gate(STABLE_PROMOTED, GateStatus.AMBER, f"not promoted yet: none of {len(expected)} files is in stable")
    by_variant: dict[str, int] = {}
    for name in missing:
        by_variant[expected[name] or "plain"] = by_variant.get(expected[name] or "plain", 0) + 1
    where = ", ".join(f"{v}: {n}" for v, n in by_variant.items())
    return _gate(
        STABLE_PROMOTED,
        GateStatus.RED,
        f"partly promoted: {there} of {len(expected)} files in stable; {len(missing)} missing ({where})",
        [f"not in stable: {name}" for name in missing],
    )


def pypi_promoted_gate(versions: Mapping[str, Sequence[str]], *, version: str) -> Gate:
    """``pypi_promoted``: every package has ``version`` on PyPI (``versions``: package -> its versions)."""
    if not versions:
        return _gate(PYPI_PROMOTED, GateStatus.UNKNOWN, "no packages to look up: set [storage] packages")
    have = [p for p, vs in versions.items() if version in vs]
    lack = [p for p in versions if p not in have]
    if not lack:
        return _gate(PYPI_PROMOTED, GateStatus.GREEN, f"{version} is on PyPI for {_names(have)}")
    if not have:
        return _gate(PYPI_PROMOTED, GateStatus.AMBER, f"{version} is not on PyPI yet")
    return _gate(
        PYPI_PROMOTED,
        GateStatus.RED,
        f"{version} is on PyPI for {_names(have)} but not for {_names(lack)}: the upload stopped half-way",
    )
