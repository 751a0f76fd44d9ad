"""Which milestone, tracker issue, remote and workflows belong to a release: ``cockpit init``'s choices.

Pure functions over what the adapters read (milestones, issues, the clone's remotes and refs,
workflow runs). Each choice keeps what else was seen, so the release manager is told about the
near misses ("also seen: 10 'v2.5' (closed)") instead of having one picked silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cockpit.domain.github import ItemKind, Milestone, MilestoneItem
from cockpit.domain.release import RC_NUMBER, VERSION_PART
from cockpit.profile import load_profile
from cockpit.services.title_forms import matches_form
from cockpit.services.workflow_names import NameWarning, check_names

TRACKER_LABEL = load_profile().text("titles.tracker_label")
TRACKER_TITLES = load_profile().strings("titles.tracker")
# As GitHub reports them (case-sensitive there): pytorch/pytorch's lint workflow is "Lint". A run's own
# spelling is what a config gets; the usual names are matched ignoring case.
USUAL_REQUIRED = load_profile().strings("ci.required_workflows")
USUAL_BINARY = load_profile().strings("ci.binary_build_workflows")
_BINARY_WORDS = re.compile(r"binar|wheel|manywheel|build", re.IGNORECASE)


def version_spellings(version: str) -> tuple[str, ...]:
    """How a title may name release ``X.Y.Z``, best first: ``X.Y.Z``, then ``X.Y`` for a ``.0`` release."""
    major, minor, patch = version.split(".")
    return (version, f"{major}.{minor}") if patch == "0" else (version,)


def _rank(title_version: str | None, version: str) -> int | None:
    """0 for the full version, 1 for ``X.Y`` of an ``X.Y.0`` release, None for another release."""
    if title_version is None:
        return None
    spellings = version_spellings(version)
    return spellings.index(title_version) if title_version in spellings else None


# "2.5.0", "v2.5.0", "V2.5", "v.2.5.0": a release's milestone is titled by its version alone
_MILESTONE_TITLE = re.compile(r"^\s*v?\.?\s*(\d+\.\d+(?:\.\d+)?)\s*$", re.IGNORECASE)
# "[v2.5.0] Release Tracker", "[v.2.5.0] Release Tracker", "[2.5.0] Release Tracker", "v2.5.0 Release Tracker"
_TRACKER_TITLE = re.compile(
    r"^\s*(\[)?\s*v?\.?\s*(\d+\.\d+(?:\.\d+)?)\s*(?(1)\])\s*[-:]?\s*release\s+tracker\s*$", re.IGNORECASE
)


def milestone_version(title: str) -> str | None:
    """The version a milestone title names (``"v2.5.0"`` -> ``"2.5.0"``), or None for any other title."""
    m = _MILESTONE_TITLE.match(title)
    return m.group(1) if m else None


def tracker_version(title: str) -> str | None:
    """The version a release tracker's title names (``"[v.2.5.0] Release Tracker"`` -> ``"2.5.0"``), or None."""
    m = _TRACKER_TITLE.match(title)
    return m.group(2) if m else None


@dataclass(frozen=True)
class MilestoneChoice:
    """The milestone of the release (None when no title names it) and the other candidates seen."""

    chosen: Milestone | None
    others: tuple[Milestone, ...] = ()


def choose_milestone(version: str, milestones: Iterable[Milestone]) -> MilestoneChoice:
    """The milestone titled for ``version``: the exact title first, then ``vX.Y.Z``, then ``X.Y``.

    Among equals, an open milestone beats a closed one and the newest (highest number) wins.
    """
    ranked = []
    for m in milestones:
        rank = _rank(milestone_version(m.title), version)
        if rank is not None:
            exact = 0 if m.title.strip() == version else 1
            ranked.append(((rank, exact, m.state != "open", -m.number), m))
    ranked.sort(key=lambda pair: pair[0])
    found = [m for _, m in ranked]
    return MilestoneChoice(found[0], tuple(found[1:])) if found else MilestoneChoice(None)


@dataclass(frozen=True)
class TrackerChoice:
    """The release tracker issue (None when no title names it) and the other candidates seen."""

    chosen: MilestoneItem | None
    others: tuple[MilestoneItem, ...] = ()


def choose_tracker(
    version: str, issues: Iterable[MilestoneItem], forms: Sequence[str] = TRACKER_TITLES
) -> TrackerChoice:
    """The issue titled as ``version``'s release tracker, case-insensitive, in any real spelling, or in one
    of ``forms`` (``[release] tracker_titles``: ``[v.{version}] Release Tracker``).

    Preferred: labelled ``release tracker``, naming the full version, open, newest. Pull requests
    (the issues list mixes them in) are never trackers.
    """
    ranked, seen = [], set()
    for issue in issues:
        if issue.kind is not ItemKind.ISSUE or issue.number in seen:
            continue
        seen.add(issue.number)
        rank = _rank(tracker_version(issue.title), version)
        if rank is None and matches_form(issue.title, forms, version):
            rank = 0
        if rank is not None:
            labelled = any(label.strip().lower() == TRACKER_LABEL for label in issue.labels)
            ranked.append(((not labelled, rank, not issue.state.is_open, -issue.number), issue))
    ranked.sort(key=lambda pair: pair[0])
    found = [i for _, i in ranked]
    return TrackerChoice(found[0], tuple(found[1:])) if found else TrackerChoice(None)


def names_repository(url: str, repository: str) -> bool:
    """Whether a remote URL points at ``repository`` (``https://HOST/o/r(.git)``, ``git@HOST:o/r``, ``ssh://``)."""
    path = re.sub(r"^[a-z+]+://[^/]+/|^[^/:@]+@[^:]+:", "", url.strip(), flags=re.IGNORECASE)
    return path.removesuffix("/").removesuffix(".git").lower() == repository.lower()


def repository_of(url: str) -> str | None:
    """``owner/name`` a remote URL names (``https://HOST/o/r(.git)``, ``git@HOST:o/r``, ``ssh://``), or
    None for a URL that names no GitHub-shaped repository (a local path, a bare host)."""
    if not re.match(r"^[a-z+]+://[^/]+/|^[^/:@]+@[^:]+:", url.strip(), flags=re.IGNORECASE):
        return None
    path = re.sub(r"^[a-z+]+://[^/]+/|^[^/:@]+@[^:]+:", "", url.strip(), flags=re.IGNORECASE)
    path = path.removesuffix("/").removesuffix(".git")
    return path if re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", path) else None


def version_in_flight(tags: Iterable[str]) -> str | None:
    """The newest release ``X.Y.Z`` with an RC tag ``vX.Y.Z-rcN`` and no final tag ``vX.Y.Z`` yet, or None."""
    names = set(tags)
    candidates = {
        m.group(1)
        for t in names
        if (m := re.match(rf"^v({VERSION_PART}\.{VERSION_PART}\.{VERSION_PART})-rc{RC_NUMBER}$", t))
    }
    open_ = [v for v in candidates if f"v{v}" not in names]
    return max(open_, key=lambda v: tuple(int(p) for p in v.split("."))) if open_ else None


@dataclass(frozen=True)
class RemoteChoice:
    """The remote to read the release branch from, why, and the other remotes carrying it."""

    name: str | None
    why: str
    others: tuple[str, ...] = ()


def choose_remote(repository: str, branch: str, remotes: Mapping[str, str], carrying: Iterable[str]) -> RemoteChoice:
    """Among the remotes whose remote-tracking refs hold ``branch``, the one whose URL names the repository.

    Then ``upstream`` (a fork's clone calls the real repository so), then ``origin``, then by name.
    With no remote carrying it, the remote naming the repository, else ``origin``, is chosen with a
    reason saying the branch was not seen there.
    """
    carriers = sorted(set(carrying) & set(remotes))

    def preference(name: str) -> tuple[bool, bool, bool, str]:
        return (not names_repository(remotes[name], repository), name != "upstream", name != "origin", name)

    if carriers:
        best = min(carriers, key=preference)
        why = f"{best}/{branch} exists"
        if names_repository(remotes[best], repository):
            why += f" and {best} is {remotes[best]}"
        return RemoteChoice(best, why, tuple(n for n in carriers if n != best))
    if not remotes:
        return RemoteChoice(None, "the clone has no remote")
    best = min(remotes, key=preference)
    if names_repository(remotes[best], repository) or best == "origin":
        return RemoteChoice(best, f"no remote has {branch} yet; {best} is {remotes[best]}")
    return RemoteChoice(None, f"no remote has {branch} and none is {repository}")


def choose_main(remote_head: str | None, existing: Iterable[str]) -> tuple[str | None, str]:
    """The trunk's name and why: the remote's HEAD, else ``main`` or ``master``, whichever exists."""
    if remote_head:
        return remote_head, "the remote's HEAD points at it"
    names = set(existing)
    for name in ("main", "master"):
        if name in names:
            return name, "the branch exists"
    return None, "neither main nor master exists"


def rc_tags(version: str, tags: Iterable[str]) -> list[str]:
    """The release candidate tags ``vX.Y.Z-rcN`` of ``version``, in candidate order (rc2 before rc10)."""
    pattern = re.compile(rf"^v{re.escape(version)}-rc{RC_NUMBER}$")
    found = [(int(m.group(1)), t) for t in tags if (m := pattern.match(t))]
    return [t for _, t in sorted(found)]


@dataclass(frozen=True)
class Workflows:
    """The workflows seen on the release branch (by name) and the config they suggest."""

    on_branch: tuple[str, ...]
    required: tuple[str, ...]
    binary: str = ""
    binaries: tuple[str, ...] = ()  # the profile's binary-build workflows that ran on the RC tag (or exist)
    unmatched: tuple[NameWarning, ...] = ()  # the usual required names the repository has no workflow for


def suggest_workflows(on_branch: Sequence[str], on_rc_tag: Sequence[str] = (), listed: Sequence[str] = ()) -> Workflows:
    """``required``: the usual ``pull``/``trunk``/``Lint`` that ran on the branch or that the repository's
    workflow list (``listed``) has, matched ignoring case and spelt as GitHub spells them (a run's spelling
    first), else every branch workflow. ``unmatched``: the usual names matching none of them, each with
    its near match.

    ``binary``: the one workflow that ran on the RC tag but not on the branch and is named like a build.
    ``binaries``: the known binary-build workflows (``linux-binary-manywheel`` and siblings) that ran on
    the RC tag, as the runs spell them, in the profile's order; before any RC tag run, those the
    workflow list has.
    """
    names = tuple(sorted({n for n in on_branch if n}))
    by_fold = {n.casefold(): n for n in listed if n} | {n.casefold(): n for n in names}
    usual = tuple(by_fold[u.casefold()] for u in USUAL_REQUIRED if u.casefold() in by_fold)
    builds = [n for n in dict.fromkeys(on_rc_tag) if n and n not in names and _BINARY_WORDS.search(n)]
    source = {n.casefold(): n for n in (on_rc_tag if any(on_rc_tag) else listed) if n}
    binaries = tuple(source[b.casefold()] for b in USUAL_BINARY if b.casefold() in source)  # the profile's order
    seen = set(by_fold.values())
    unmatched = tuple(check_names(USUAL_REQUIRED, seen)) if seen else ()
    unmatched = tuple(w for w in unmatched if w.near is None or w.near.casefold() != w.configured.casefold())
    return Workflows(names, usual or names, builds[0] if len(builds) == 1 else "", binaries, unmatched)
