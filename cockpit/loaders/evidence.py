"""The checklist's evidence steps: read each configured step's evidence through the ports, judge it.

Few requests: one list call per step (the validation workflow's runs and the chosen run's jobs, one
search per issue or PR, one contents read), the milestone list shared with the other panes, and one
comments list per closed milestone issue (bounded by ``max_issues``; conditional requests make a
refresh cost 304s). A step whose evidence cannot be read is UNKNOWN with the reason, never green.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cockpit.config import pytorch
from cockpit.config.evidence import fill
from cockpit.domain.evidence import EVIDENCE_GATES, EvidenceReport
from cockpit.domain.gates import Gate
from cockpit.errors import CockpitError, GitHubUnanswered
from cockpit.services import evidence as judge
from cockpit.services import evidence_release_day as day
from cockpit.services.evidence_steps import how_to_automate
from cockpit.services.title_forms import described, matches_form, search_words

if TYPE_CHECKING:
    from cockpit.config.evidence import (
        ColabEvidence,
        DocsEvidence,
        PullEvidence,
        TritonEvidence,
        ValidateBinariesEvidence,
        ValidationCommentsEvidence,
        ValidationIssueEvidence,
    )
    from cockpit.domain.github import MilestoneItem, PullRequest
    from cockpit.ports import Ports

RUNS_READ = 30  # the validation workflow's newest runs looked at
NOT_FROM_GITHUB = frozenset({"triton_pin_release"})  # read from the clone and PyPI: asked even when GitHub is silent


class _Reading:
    """One load: the ports, the placeholders, and the release day (asked once, when a step needs it)."""

    def __init__(self, ports: Ports) -> None:
        self.ports = ports
        rel = ports.config.release
        self.values = {"version": rel.version, "version_short": ".".join(rel.version.split(".")[:2]), "channel": ""}
        self._released: bool | None = None
        self.comment_reads = 0

    def text(self, template: str, channel: str = "") -> str:
        return fill(template, {**self.values, "channel": channel})

    @property
    def released(self) -> bool:
        """Release day has come: the schedule's release date passed, or PyPI has the version."""
        if self._released is None:
            self._released = _released(self.ports)
        return self._released


def _released(ports: Ports) -> bool:
    from datetime import date

    st, today = ports.config.storage, ports.clock().date()
    try:
        if st.release_date and date.fromisoformat(st.release_date) <= today:
            return True
    except ValueError:
        pass
    if ports.pypi is None or not st.packages:
        return False
    try:
        return ports.config.release.version in ports.pypi.versions(st.packages[0])
    except CockpitError:
        return False  # not known to be out: the release-day steps stay on their before-release rule


def load_evidence(ports: Ports) -> EvidenceReport:
    """Each configured evidence step's gate; the others listed as manual with the config that would judge them."""
    cfg = ports.config.evidence
    reading = _Reading(ports)
    readers: dict[str, Callable[[_Reading, Any], Gate]] = {
        "validate_binaries": _validate_binaries,
        "validation_comments": _validation_comments,
        "validation_issue": _validation_issue,
        "docs_build_entry": _docs,
        "release_matrix_pr": _pull_step("release_matrix_pr"),
        "published_versions_pr": _pull_step("published_versions_pr"),
        "triton_pin_release": _triton,
        "colab_issue": _colab,
    }
    gates, manual = [], []
    before = _counts(ports)
    silent = ""  # once GitHub has not answered one step, the others are not asked (each would wait as long)
    for name in EVIDENCE_GATES:
        step = getattr(cfg, name)
        if step is None:
            manual.append((name, how_to_automate(name)))
            continue
        if silent and name not in NOT_FROM_GITHUB:
            gates.append(judge.unknown(name, f"not asked: GitHub stopped answering ({silent})"))
            continue
        try:
            gates.append(readers[name](reading, step))
        except GitHubUnanswered as exc:
            silent = str(exc)
            gates.append(judge.unknown(name, silent))
        except CockpitError as exc:
            gates.append(judge.unknown(name, str(exc)))
    after = _counts(ports)
    return EvidenceReport(
        tuple(gates),
        tuple(manual),
        requests=after[0] - before[0],
        not_modified=after[1] - before[1],
        comment_reads=reading.comment_reads,
    )


def _counts(ports: Ports) -> tuple[int, int]:
    try:
        return ports.github.thread_request_counts()
    except CockpitError:
        return 0, 0


def _validate_binaries(r: _Reading, cfg: ValidateBinariesEvidence) -> Gate:
    gh, git, version = r.ports.github, r.ports.git, r.values["version"]
    from cockpit.services.validate_runs import validation_runs

    # The workflow sets no run-name: its runs are the file's, found by event and ref (the profile's).
    ref = r.text(cfg.branch) or pytorch.VALIDATE_BINARIES_REF
    listed = gh.workflow_file_runs(cfg.repository, cfg.workflow, branch=ref, limit=RUNS_READ)
    found = validation_runs(
        listed, event=pytorch.VALIDATE_BINARIES_EVENT, ref=ref, channel=r.text(cfg.channel), version=version
    )
    runs = list(found.runs)
    run = runs[0] if runs else None
    jobs = gh.run_jobs(cfg.repository, run.id) if run is not None else []
    rc = judge.final_rc(git.tags(), version)
    tagged = git.tag_dates().get(rc) if rc else None
    verdict = judge.validate_binaries_gate(
        runs, jobs, workflow=f"{cfg.repository} {cfg.workflow}", title="", rc_tag=rc, rc_tagged_at=tagged
    )
    return replace(verdict, details=(*verdict.details, *found.notes))


def _validation_comments(r: _Reading, cfg: ValidationCommentsEvidence) -> Gate:
    from cockpit.loaders.milestone import MILESTONE_REUSE_S, fetch_milestone

    _milestone, items = fetch_milestone(r.ports, reuse_within=MILESTONE_REUSE_S)
    issues = judge.issues_to_validate(items, r.ports.config.skip_labels)
    read = issues[: cfg.max_issues]
    before = r.ports.github.thread_request_counts()
    comments = {i.number: r.ports.github.issue_comments(r.ports.repository, i.number) for i in read}
    after = r.ports.github.thread_request_counts()
    r.comment_reads += len(read)
    return judge.validation_comments_gate(
        issues,
        comments,
        phrase=r.ports.config.validation.phrase_for(r.ports.config.release.version),  # the phrase the actions write
        unread=len(issues) - len(read),
        cost=(after[0] - before[0], after[1] - before[1]),
    )


def _search_words(pattern: str) -> str:
    """The literal parts of a title pattern as quoted search phrases (the pattern itself filters after)."""
    parts = [p.strip().replace('"', " ") for p in pattern.split("*")]
    return " ".join(f'"{p}"' for p in parts if p.strip())


def _search(r: _Reading, repo: str, kind: str, pattern: str) -> list[MilestoneItem]:
    return r.ports.github.search_issues(repo, f"is:{kind} in:title {_search_words(pattern)}".strip(), limit=30)


def _search_forms(r: _Reading, repo: str, kind: str, forms: tuple[str, ...]) -> list[MilestoneItem]:
    """One title search per form (the release team uses several), each item once, kept if a form matches."""
    version = r.values["version"]
    found: dict[int, MilestoneItem] = {}
    for form in forms:
        query = f"is:{kind} in:title {search_words(form, version)}".strip()
        for item in r.ports.github.search_issues(repo, query, limit=30):
            if matches_form(item.title, forms, version):
                found.setdefault(item.number, item)
    return list(found.values())


def _validation_issue(r: _Reading, cfg: ValidationIssueEvidence) -> Gate:
    repo, version = cfg.repository or r.ports.repository, r.values["version"]
    found = _search_forms(r, repo, "issue", cfg.title)
    return judge.validation_issue_gate(found, repository=repo, title=cfg.title, version=version)


def _docs(r: _Reading, cfg: DocsEvidence) -> Gate:
    gh, path, ref = r.ports.github, r.text(cfg.path), r.text(cfg.ref)
    found = gh.repo_file(cfg.repository, path, ref)
    if found is None and not gh.repository_exists(cfg.repository):
        return judge.unknown("docs_build_entry", f"{cfg.repository} not found, or the token cannot see it (404)")
    return judge.docs_entry_gate(found, repository=cfg.repository, path=path, ref=ref)


def _pull_step(name: str) -> Callable[[_Reading, PullEvidence], Gate]:
    def read(r: _Reading, cfg: PullEvidence) -> Gate:
        gh = r.ports.github
        pull: PullRequest | None = None
        if cfg.number is not None:
            pull, where = gh.pull(cfg.repository, cfg.number), f"{cfg.repository}#{cfg.number}"
        else:
            where = f"no PR in {cfg.repository} titled like {described(cfg.title, r.values['version'])}"
            found = _search_forms(r, cfg.repository, "pr", cfg.title)
            newest = max(found, key=lambda i: i.number, default=None)
            pull = gh.pull(cfg.repository, newest.number) if newest is not None else None
        checks = gh.check_runs(cfg.repository, pull.head_sha) if pull is not None and pull.head_sha else []
        return day.release_pr_gate(name, pull, checks, where=where, release_day=r.released)

    return read


def _triton(r: _Reading, cfg: TritonEvidence) -> Gate:
    git, conf = r.ports.git, r.ports.config
    branch = conf.release.branch
    ref = next((x for x in (f"{conf.git.remote}/{branch}", branch) if git.rev_parse(x)), None)
    if ref is None:
        return judge.unknown("triton_pin_release", f"the clone has no {branch} (fetch it) to read {cfg.pin_path}")
    text = git.file_at(ref, cfg.pin_path)
    pin = day.pinned_commit(text)
    # The release needs both files: the pin and the version it is released as.
    version_path = cfg.version_path
    version_text = git.file_at(ref, version_path)
    version = day.triton_version_named(version_text) or (day.triton_version_for(pin, cfg.versions) if pin else None)
    pypi = r.ports.pypi
    published = pypi.release_files(cfg.package, version) if (pypi is not None and version) else None
    return day.triton_gate(
        pin_text=text,
        path=cfg.pin_path,
        branch=branch,
        versions=cfg.versions,
        package=cfg.package,
        published=published,
        asked=pypi is not None,
        version_text=version_text,
        version_path=version_path,
    )


def _colab(r: _Reading, cfg: ColabEvidence) -> Gate:
    title = r.text(cfg.title)
    found = _search(r, cfg.repository, "issue", title)
    return day.colab_gate(found, repository=cfg.repository, title=title, released=r.released)
