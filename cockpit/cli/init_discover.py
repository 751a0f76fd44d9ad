"""What ``cockpit init`` finds by itself: from the clone (remote, trunk, RC tags) and from GitHub
(milestone, tracker issue, workflows). A flag given on the command line always wins.

Each value comes with the note written above its key in the config: where it was found
("found: milestone 12 '2.5.0' (open)"), that a flag gave it, or a TODO saying what to set.
GitHub is read only through ``cockpit.bootstrap.github_client`` (read-only) and the adapters.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from cockpit.services import release_discovery as rd

TRACKER_SEARCH = '"release tracker" in:title is:issue'


@dataclass(frozen=True)
class Found:
    """One value for the config and the note saying where it came from (``TODO: ...`` when it was not found)."""

    value: Any
    note: str

    @property
    def missing(self) -> bool:
        return self.note.startswith("TODO")


@dataclass
class Discovery:
    """Everything ``cockpit init`` writes that it may have found by itself."""

    remote: Found
    main: Found
    rc_tags: Found
    milestone: Found = field(default_factory=lambda: Found(None, "TODO: not looked up"))
    tracker: Found = field(default_factory=lambda: Found(None, "TODO: not looked up"))
    required: Found = field(
        default_factory=lambda: Found(
            rd.USUAL_REQUIRED, "TODO: not looked up (--offline); the usual workflows, check their names"
        )
    )
    binary: Found = field(default_factory=lambda: Found((), ""))  # [[ci]] binary_workflows
    python: Found = field(default_factory=lambda: profile_python_tags("not looked up (--offline)"))  # [storage]
    variants: Found = field(default_factory=lambda: profile_variants("not looked up (--offline)"))  # [storage]

    def summary(self) -> list[str]:
        """One line per value, as the config has it: ``milestone = 12   # found: ...``, or ``not found: ...``."""
        lines = []
        for key, found in (
            ("remote", self.remote),
            ("main", self.main),
            ("milestone", self.milestone),
            ("tracker_issue", self.tracker),
            ("required", self.required),
            ("binary_workflows", self.binary),
            ("python_tags", self.python),
            ("variants", self.variants),
            ("RC tags", self.rc_tags),
        ):
            if found.missing:
                lines.append(f"not found: {key}: {found.note.removeprefix('TODO: ')}")
            elif key == "RC tags":
                lines.append(found.note.removeprefix("found: "))
            elif found.note:
                lines.append(f"{key} = {_listed(found.value)}   # {found.note}")
        return lines


def _quote(title: str) -> str:
    return "'" + title.replace("'", "\u2019") + "'"


def discover_clone(clone: Any, args: argparse.Namespace, repository: str, branch: str, version: str) -> Discovery:
    """Remote, trunk and RC tags from the clone's own refs (no network: remote-tracking refs only)."""
    remotes = clone.remotes()
    if args.remote is not None:
        remote = Found(args.remote, f"given: --remote {args.remote}")
    else:
        carrying = [name for name in remotes if clone.ref_exists(f"refs/remotes/{name}/{branch}")]
        choice = rd.choose_remote(repository, branch, remotes, carrying)
        also = f"; also has it: {', '.join(choice.others)}" if choice.others else ""
        remote = Found(
            choice.name or "origin",
            f"found: {choice.why}{also}" if choice.name else f"TODO: {choice.why}; set the remote that has {branch}",
        )
    name = remote.value
    head = clone.remote_head(name) if name in remotes else None
    existing = [
        b
        for b in ("main", "master")
        if clone.ref_exists(f"refs/remotes/{name}/{b}") or clone.ref_exists(f"refs/heads/{b}")
    ]
    main, why = rd.choose_main(head, existing)
    main_found = (
        Found(main, f"found: {name}/HEAD is {main}" if head else f"found: {main} exists ({why})")
        if main
        else Found("main", f"TODO: {why} in the clone; set the trunk's name")
    )
    tags = rd.rc_tags(version, clone.tags())
    rc = Found(
        tags,
        f"found: RC tags {', '.join(tags)} in the clone" if tags else f"TODO: no v{version}-rcN tag in the clone yet",
    )
    return Discovery(remote=remote, main=main_found, rc_tags=rc)


def discover_github(
    github: Any, found: Discovery, args: argparse.Namespace, repository: str, branch: str, version: str
) -> None:
    """Milestone, tracker issue and workflows from GitHub, into ``found``; flags given are kept as given.

    Raises ``GitHubError`` when GitHub cannot be read (the caller says so in one line).
    """
    found.milestone = _given(args.milestone_value, "--milestone") or _milestone(github, repository, version)
    found.tracker = _given(args.tracker_value, "--tracker") or _tracker(github, repository, version)
    _workflows(github, found, repository, branch)
    found.python, found.variants = build_matrix(github)


def discover_offline(found: Discovery, args: argparse.Namespace) -> Discovery:
    """``--offline``: the milestone and tracker only as the flags give them; GitHub is not asked."""
    found.milestone = _given(args.milestone_value, "--milestone") or Found(
        None, "TODO: not looked up (--offline); set it to see the milestone pane"
    )
    found.tracker = _given(args.tracker_value, "--tracker") or Found(
        None, "TODO: not looked up (--offline); set it to see the cherry-picks pane"
    )
    return found


def _given(value: int | str | None, flag: str) -> Found | None:
    return Found(value, f"given: {flag} {value}") if value is not None else None


def _milestone(github: Any, repository: str, version: str) -> Found:
    milestones = github.milestones(repository, state="all")
    choice = rd.choose_milestone(version, milestones)
    if choice.chosen is None:
        titles = ", ".join(_quote(m.title) for m in milestones[-6:]) or "none"
        return Found(
            None,
            f"TODO: no milestone titled {version} or v{version} (open or closed) in "
            f"{repository} (it has {titles}); set it to see the milestone pane",
        )
    m = choice.chosen
    also = (
        "; also seen: " + ", ".join(f"{o.number} {_quote(o.title)} ({o.state})" for o in choice.others)
        if choice.others
        else ""
    )
    return Found(m.number, f"found: milestone {m.number} {_quote(m.title)} ({m.state}){also}")


def _tracker(github: Any, repository: str, version: str) -> Found:
    labelled = github.issues(repository, labels=rd.TRACKER_LABEL, state="all")
    choice = rd.choose_tracker(version, labelled)
    where = f"labelled '{rd.TRACKER_LABEL}'"
    if choice.chosen is None:
        choice = rd.choose_tracker(version, github.search_issues(repository, TRACKER_SEARCH))
        where = "found by title search"
    if choice.chosen is None:
        return Found(
            None,
            f"TODO: no issue titled like '[v{version}] Release Tracker' in {repository} (looked at "
            f"the issues labelled '{rd.TRACKER_LABEL}' and searched titles); set the tracker's number",
        )
    issue = choice.chosen
    also = (
        "; also seen: " + ", ".join(f"#{o.number} {_quote(o.title)} ({o.state.value})" for o in choice.others)
        if choice.others
        else ""
    )
    labelled_note = where if rd.TRACKER_LABEL in (label.lower() for label in issue.labels) else "not labelled, " + where
    return Found(
        issue.number, f"found: #{issue.number} {_quote(issue.title)} ({issue.state.value}, {labelled_note}){also}"
    )


def _workflows(github: Any, found: Discovery, repository: str, branch: str) -> None:
    """Required and binary-build workflows, as GitHub names them: from the repository's workflow list,
    the runs on the release branch and on the newest RC tag. A usual name matching none gets a note
    offering the near match."""
    listed = github.workflow_names(repository)
    on_branch = [r.name for r in github.workflow_runs(repository, branch=branch, limit=100)]
    tags = found.rc_tags.value
    on_tag = [r.name for r in github.workflow_runs(repository, branch=tags[-1], limit=100)] if tags else []
    seen = rd.suggest_workflows(on_branch, on_tag, listed)
    warned = "".join(f"; {w.message}" for w in seen.unmatched)
    _binaries(found, seen, tags[-1] if tags else "", branch, bool(on_tag))
    if not seen.on_branch and not seen.required:
        found.required = Found(
            rd.USUAL_REQUIRED,
            f"TODO: no workflow run on {branch} yet; the usual names, check them against the repository's "
            f"workflows{warned}",
        )
        return
    if not seen.on_branch:
        found.required = Found(seen.required, f"found: in the repository's workflows (no run on {branch} yet){warned}")
        return
    others = [n for n in seen.on_branch if n not in seen.required]
    note = f"found: runs on {branch} of {', '.join(seen.on_branch)}"
    if others and seen.required != seen.on_branch:
        note += f"; left out: {', '.join(others)} (add those that must pass)"
    found.required = Found(seen.required, note + warned)


def _binaries(found: Discovery, seen: rd.Workflows, tag: str, branch: str, tag_runs: bool) -> None:
    """``[[ci]] binary_workflows``: the known binary builds that ran on the RC tag (before any ran there,
    those the workflow list has), else the one build-like workflow that ran only on the tag."""
    if seen.binaries:
        where = f"ran on {tag}" if tag_runs else "in the repository's workflows"
        found.binary = Found(seen.binaries, f"found: {where}")
    elif seen.binary:
        found.binary = Found((seen.binary,), f"found: ran on {tag} and not on {branch}")
    else:
        on = f"ran on {tag}" if tag else "is in the repository (no RC tag yet)"
        found.binary = Found((), f"TODO: no workflow named like a binary build {on}; list those building the wheels")


def build_matrix(github: Any) -> tuple[Found, Found]:
    """``[storage] python_tags`` and ``[storage.variants]`` from one read of the build matrix generator (the
    repository and file ``[storage] build_matrix_repository`` and ``build_matrix_file`` default to), else the
    profile's copies with why. Another repository than the release's: its failure never stops ``init``."""
    from cockpit.config.storage import StorageConfig
    from cockpit.errors import CockpitError
    from cockpit.loaders.build_matrix import read_release_matrix, unreadable

    st = StorageConfig()
    try:
        read = read_release_matrix(github, st.build_matrix_repository, st.build_matrix_file)
    except CockpitError as exc:
        why = f"build matrix unreadable: {unreadable(exc)}"
        return profile_python_tags(why), profile_variants(why)
    return (
        Found(read.builds.tags, "found: " + read.builds.source.removeprefix("Python builds: ")),
        Found(read.indexes.indexes, "found: " + read.indexes.source.removeprefix("Variants: ")),
    )


def profile_variants(why: str) -> Found:
    """The variants of the profile's copy of the build matrix (``config.pytorch.VARIANTS``), the note naming
    the profile's entries and their source and why the file was not read."""
    from cockpit.config.pytorch import VARIANTS
    from cockpit.profile import load_profile

    source = load_profile("pytorch").get("variants.cuda").source.partition(" (")[0]
    keys = "[variants] cuda, rocm, stable_cuda, cuda_not_on_windows, cuda_aarch64, xpu"
    return Found(VARIANTS, f"the profile's copy ({keys}: {source}; [platform_tags]); {why}")


def _listed(value: Any) -> str:
    """A value as the summary line shows it: a list joined, a (variant, platforms) pair by its variant's name."""
    if not isinstance(value, list | tuple):
        return str(value)
    return ", ".join(str(v[0]) if isinstance(v, tuple) else str(v) for v in value)


def profile_python_tags(why: str) -> Found:
    """The profile's recorded release builds as tags, the note naming their source and why the file was not read."""
    from cockpit.profile import load_profile
    from cockpit.services.build_matrix import python_tags as tags_of

    recorded = load_profile("pytorch").get("python.release_builds")
    return Found(tags_of(recorded.value), f"the profile's copy ({recorded.source}); {why}")
