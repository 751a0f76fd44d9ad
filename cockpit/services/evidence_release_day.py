"""Judging the release-day evidence steps: the release matrix and published-versions PRs, the triton pin,
the Colab issue. Pure functions; each returns the step's gate (see ``services.evidence``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cockpit.domain.ci import CheckRun
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, MilestoneItem, PullRequest, PullState
from cockpit.services.evidence import gate, title_matches

_GOOD = ("success", "skipped", "neutral")
_COMMIT = re.compile(r"^[0-9a-f]{7,40}$")


def release_pr_gate(
    name: str, pull: PullRequest | None, checks: Sequence[CheckRun], *, where: str, release_day: bool
) -> Gate:
    """A release-day PR. The release matrix PR is green while open with its checks green and mergeable, and
    must be merged on release day; the published-versions PR is done only once merged (ready is amber: it is
    merged on release day, not before). Red: none found, closed unmerged, checks failing or conflicts;
    amber: checks running, GitHub still computing mergeability, or ready and waiting to be merged."""
    if pull is None:
        status = GateStatus.RED if release_day or name == "release_matrix_pr" else GateStatus.AMBER
        return gate(name, status, f"no pull request found: {where}")
    details = [f"#{pull.number} {pull.title} ({pull.state.value})", pull.html_url]
    if pull.state is PullState.MERGED:
        return gate(name, GateStatus.GREEN, f"#{pull.number} merged", details)
    if pull.state is PullState.CLOSED_UNMERGED:
        return gate(name, GateStatus.RED, f"#{pull.number} was closed without merging", details)
    failed = [c for c in checks if c.status == "completed" and c.conclusion not in _GOOD]
    running = [c for c in checks if c.status != "completed"]
    details += [f"failed: {c.name} ({c.conclusion})" for c in failed]
    details += [f"running: {c.name}" for c in running]
    details.append(f"mergeable: {_mergeable(pull)}")
    if failed:
        return gate(name, GateStatus.RED, f"#{pull.number}: {len(failed)} of {len(checks)} checks failed", details)
    if pull.mergeable is False or pull.mergeable_state == "dirty":
        return gate(name, GateStatus.RED, f"#{pull.number} has conflicts with its base", details)
    if running or not checks:
        what = f"{len(running)} of {len(checks)} checks running" if running else "no checks reported yet"
        return gate(name, GateStatus.AMBER, f"#{pull.number}: {what}", details)
    if pull.mergeable is None:
        return gate(name, GateStatus.AMBER, f"#{pull.number}: GitHub has not computed mergeability yet", details)
    if release_day:
        return gate(name, GateStatus.AMBER, f"#{pull.number} is green and mergeable: release day, merge it", details)
    if name == "published_versions_pr":
        return gate(
            name,
            GateStatus.AMBER,
            f"#{pull.number} is ready (checks green, mergeable): merge it on release day",
            details,
        )
    return gate(name, GateStatus.GREEN, f"#{pull.number} open, {len(checks)} checks green, mergeable", details)


def _mergeable(pull: PullRequest) -> str:
    if pull.mergeable is None:
        return "not computed yet"
    return ("yes" if pull.mergeable else "no") + (f" ({pull.mergeable_state})" if pull.mergeable_state else "")


def pinned_commit(text: str | None) -> str | None:
    """The commit a pin file names (its first non-empty line), or None when it names none."""
    line = next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")
    return line.lower() if _COMMIT.match(line.lower()) else None


def triton_version_for(pin: str, versions: Sequence[tuple[str, str]]) -> str | None:
    """The triton version the config maps to ``pin`` (keys may be a 7+ digit prefix of it)."""
    return next((v for commit, v in versions if pin.startswith(commit.lower())), None)


def triton_version_named(text: str | None) -> str | None:
    """The version ``triton_version.txt`` names (its first non-empty line, ``3.8.0``), or None."""
    line = next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")
    return line if re.fullmatch(r"\d+\.\d+(?:\.\d+)?(?:[a-z0-9.+-]*)?", line) else None


def triton_gate(
    *,
    pin_text: str | None,
    path: str,
    branch: str,
    versions: Sequence[tuple[str, str]],
    package: str,
    published: list[str] | None,
    asked: bool,
    version_text: str | None = None,
    version_path: str = "",
) -> Gate:
    """Green when the pin file names a commit, its triton version is known and PyPI has that version.

    The version is the one the release branch's ``version_path`` (``.ci/docker/triton_version.txt``)
    names, read as ``version_text``; without that file, the config's ``versions`` map the pin to one.
    ``published`` is PyPI's files of that version (None: not on PyPI); ``asked`` says whether PyPI was asked.
    """
    name = "triton_pin_release"
    if pin_text is None:
        return gate(name, GateStatus.RED, f"no {path} on {branch}")
    pin = pinned_commit(pin_text)
    if pin is None:
        return gate(name, GateStatus.RED, f"{path} on {branch} names no commit", [pin_text.strip()[:80]])
    details = [f"{path} on {branch}: {pin}"]
    version = triton_version_named(version_text)
    if version is not None:
        details.append(f"{version_path} on {branch}: {version}")
    else:  # no version file on the branch (older releases): the config's map, as before
        version = triton_version_for(pin, versions)
    if version is None:
        return gate(
            name,
            GateStatus.AMBER,
            f"pin {pin[:12]} has no {package} version in [evidence.triton_pin_release] versions",
            details,
        )
    details.append(f"mapped to {package} {version}")
    if not asked:
        return gate(
            name, GateStatus.UNKNOWN, f"pin {pin[:12]} -> {package} {version}; no PyPI server configured", details
        )
    if published is None:
        return gate(name, GateStatus.RED, f"{package} {version} (pin {pin[:12]}) is not on PyPI", details)
    details.append(f"{len(published)} files on PyPI")
    return gate(name, GateStatus.GREEN, f"{package} {version} for pin {pin[:12]} is on PyPI", details)


def colab_gate(found: Sequence[MilestoneItem], *, repository: str, title: str, released: bool) -> Gate:
    """Green once an issue titled like ``title`` exists in the Colab repository; before the release it is
    not due yet (amber, not red); after it, missing is red."""
    name = "colab_issue"
    issue = max(
        (i for i in found if i.kind is ItemKind.ISSUE and title_matches(i.title, title)),
        key=lambda i: i.number,
        default=None,
    )
    if issue is not None:
        details = [f"#{issue.number} {issue.title} ({issue.state.value})", issue.html_url]
        return gate(name, GateStatus.GREEN, f"{repository}#{issue.number} is open for the release", details)
    if not released:
        return gate(name, GateStatus.AMBER, f"not due yet: open it in {repository} once the release is out")
    return gate(name, GateStatus.RED, f"the release is out and {repository} has no issue titled like {title!r}")
