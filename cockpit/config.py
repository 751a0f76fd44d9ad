"""``cockpit.toml``: one release described in one file, validated strictly.

Every error names the file, the key and what was expected, in one line. Every text value is made
inert as it is read (``cockpit.domain.text``): a config is outside text like any other.
"""

from __future__ import annotations

import builtins  # _Table has a method named str: annotations after it name the type as builtins.str
import re
import tomllib
from dataclasses import field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cockpit.config_evidence import EvidenceConfig
from cockpit.config_names import DEFAULT_RC_TAG_PATTERN, core_name, rc_tag_pattern
from cockpit.domain.merge_methods import DEFAULT_MERGE_METHOD, MERGE_METHODS
from cockpit.domain.record import record
from cockpit.domain.release import CITarget, Release, is_valid_version
from cockpit.domain.text import inert
from cockpit.domain.validation import VALIDATION_COMMENT, ValidationSettings
from cockpit.errors import ConfigError

if TYPE_CHECKING:  # a patch release's schedule, and other repositories, are read only when the config has them
    from cockpit.config_repos import RepoConfig
    from cockpit.domain.schedule import PatchSchedule

CONFIG_NAME = "cockpit.toml"


@record
class GitHubConfig:
    """``[github]``: where the GitHub API is, how long to wait for it and how to sign in."""

    api_url: str = "https://api.github.com"
    timeout_s: float = 15.0
    max_rate_limit_wait_s: float = 30.0
    retries: int = 3
    refresh_s: float = 120.0
    auth: str = "auto"  # "auto": GH_TOKEN, GITHUB_TOKEN, keyring, gh CLI; "none": anonymous (the sandbox)


@record
class GitConfig:
    """``[git]``: the local clone and how the release branch's own commits are told apart."""

    clone: Path
    remote: str = "origin"
    cut: str = ""  # overrides orig/<branch> and the merge-base
    release_only_patterns: tuple[str, ...] = (
        r"^(Bump|Update) version",
        r"^\[release[^\]]*\] ",
        r"ci_commit_pins",
        r"^Pin ",
    )


@record
class StorageConfig:
    """``[storage]``: where the release candidates' wheels are staged and what is expected there."""

    index_url: str = ""  # base of the PEP 503 indexes: <index_url>/whl/test/<pkg>/
    pypi_url: str = ""  # base of the PyPI JSON API: <pypi_url>/pypi/<pkg>/json
    packages: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ()
    python_tags: tuple[str, ...] = ()  # empty: derived from the support policy
    free_threaded: bool = False
    size_limit_mb: float = 1000.0
    size_warn_mb: float = 850.0
    release_date: str = ""  # ISO date, for the support policy
    variants: tuple[tuple[str, tuple[str, ...]], ...] = ()  # [storage.variants]: sub-index -> its platforms
    staging_channel: str = ""  # the channel PyPI's wheels are staged in: <index_url>/whl/<channel>/<pkg>/
    staging_platforms: tuple[str, ...] = ()  # platforms staged for PyPI; empty: every platform of the indexes

    @property
    def indexes(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Where wheels are expected: ``("", platforms)`` for the plain ``<base>/whl/test/<pkg>/``
        when ``platforms`` is set, then each ``(variant, platforms)`` of ``[storage.variants]``."""
        plain = (("", self.platforms),) if self.platforms else ()
        return plain + self.variants


@record
class Config:
    """One release, as ``cockpit.toml`` describes it (validated: see ``load_config``)."""

    path: Path
    release: Release
    github: GitHubConfig
    git: GitConfig
    ci: tuple[CITarget, ...] = ()
    storage: StorageConfig = field(default_factory=StorageConfig)
    skip_labels: tuple[str, ...] = ("release-feature-request",)
    validation_comment: str = VALIDATION_COMMENT
    stale_days: float = 7.0
    checklist_template: Path | None = None
    state_path: Path | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    theme: str = ""
    schedule: PatchSchedule | None = None  # [schedule]: a patch release's phases and deadline
    final_rc_date: date | None = None  # [release] final_rc_date: the target the burn-down marks
    validation: ValidationSettings = field(default_factory=ValidationSettings)  # [evidence] validation_*
    merge_method: str = DEFAULT_MERGE_METHOD  # [release] merge_method: how a release-branch PR is merged
    evidence: EvidenceConfig = field(default_factory=EvidenceConfig)  # [evidence]: steps that judge themselves
    core_name: str = ""  # [release] name: the core's short name in gates and filters; empty: its repository's
    rc_tag_pattern: str = DEFAULT_RC_TAG_PATTERN  # [release] rc_tag_pattern
    repos: tuple[RepoConfig, ...] = ()  # [[repo]]: the domain libraries released with the core

    @property
    def resolved_state_path(self) -> Path:
        return self.state_path or self.path.with_name("cockpit-state.toml")

    @property
    def core(self) -> RepoConfig:
        """The core repository, as ``[release]``, ``[git]`` and ``[storage]`` describe it."""
        from cockpit.config_repos import RepoConfig

        name = self.core_name or self.release.repository.split("/")[-1].lower()
        git = self.git
        return RepoConfig(
            name, self.release, git.clone, git.remote, git.cut, self.rc_tag_pattern, self.storage.packages, core=True
        )

    @property
    def repositories(self) -> tuple[RepoConfig, ...]:
        """Every repository of the release, the core first."""
        return (self.core, *self.repos)

    def repo_named(self, name: str) -> RepoConfig:
        """The repository called ``name``; a ConfigError listing the configured names otherwise."""
        from cockpit.config_repos import unknown_repo

        for repo in self.repositories:
            if repo.name == name:
                return repo
        raise unknown_repo([r.name for r in self.repositories], name)

    def for_repo(self, name: str) -> Config:
        """This config as a single-repository release of ``name`` (the core: this config itself), so
        every loader judges one domain library exactly as it judges the core."""
        repo = self.repo_named(name)
        if repo.core:
            return self
        from dataclasses import replace

        return replace(
            self,
            release=repo.release,
            git=replace(self.git, clone=repo.clone, remote=repo.remote, cut=repo.cut),
            storage=replace(self.storage, packages=repo.packages),
            ci=tuple(t for t in self.ci if t.repository == repo.repository),
            schedule=None,
            final_rc_date=None,
            core_name=repo.name,
            rc_tag_pattern=repo.rc_tag_pattern,
            repos=(),
        )


class _Table:
    """A TOML table with typed getters whose errors name the file and the dotted key."""

    def __init__(self, path: Path, prefix: str, data: dict[str, Any]) -> None:
        self.path, self.prefix, self.data = path, prefix, data

    def _key(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def fail(self, key: str, expected: str, got: Any = None) -> ConfigError:
        got_text = "" if got is None else f", got {type(got).__name__} {got!r}"
        return ConfigError(inert(f"{self.path}: key '{self._key(key)}': expected {expected}{got_text}"))

    def get(
        self, key: str, kind: type | tuple[type, ...], expected: str, default: Any = ..., *, required: bool = False
    ) -> Any:
        if key not in self.data:
            if required or default is ...:
                raise ConfigError(f"{self.path}: missing key '{self._key(key)}': expected {expected}")
            return default
        value = self.data[key]
        if isinstance(value, bool) and kind is not bool and not (isinstance(kind, tuple) and bool in kind):
            raise self.fail(key, expected, value)
        if not isinstance(value, kind):
            raise self.fail(key, expected, value)
        return value

    def str(self, key: str, default: Any = ..., *, nonempty: bool = True, multiline: bool = False) -> str:
        value = inert(self.get(key, str, "a string", default), multiline=multiline)
        if nonempty and default is ... and not value.strip():
            raise self.fail(key, "a non-empty string", value)
        return value

    def num(self, key: builtins.str, default: Any = ..., *, minimum: float = 0.0) -> float:
        value = float(self.get(key, (int, float), "a number", default))
        if value < minimum:
            raise self.fail(key, f"a number >= {minimum:g}", value)
        return value

    def strs(self, key: builtins.str, default: Any = ...) -> tuple[builtins.str, ...]:
        value = self.get(key, list, "a list of strings", default)
        if not all(isinstance(v, str) for v in value):
            raise self.fail(key, "a list of strings", value)
        return tuple(inert(v) for v in value)

    def table(self, key: builtins.str, *, required: bool = False) -> _Table:
        value = self.get(key, dict, "a table", {} if not required else ..., required=required)
        return _Table(self.path, self._key(key), value)

    def tables(self, key: builtins.str) -> list[_Table]:
        value = self.get(key, list, "an array of tables ([[...]])", [])
        out = []
        for i, entry in enumerate(value):
            if not isinstance(entry, dict):
                raise self.fail(f"{key}[{i}]", "a table", entry)
            out.append(_Table(self.path, f"{self._key(key)}[{i}]", entry))
        return out


def _repository(t: _Table, key: str, default: Any = ...) -> str:
    value = t.str(key, default)
    if value.count("/") != 1 or not all(value.split("/")):
        raise t.fail(key, "'owner/name'", value)
    return value


_VARIANT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def _variants(t: _Table) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``[storage.variants]``: each accelerator sub-index (``cu126 = ["manylinux_2_28_x86_64", ...]``)."""
    variants = []
    for name in t.data:
        if not _VARIANT.match(name):
            raise t.fail(
                name, "a variant name such as cu126, cpu, rocm6.3 or xpu (letters, digits, '.', '-', '_')", name
            )
        if isinstance(t.data[name], dict):
            dotted = f"{name}.{next(iter(t.data[name]), '')}"
            raise t.fail(name, f'a list of platform tags; a name with a dot must be quoted: "{dotted}" = [...]')
        platforms = t.strs(name)
        if not platforms or not all(p.strip() for p in platforms):
            raise t.fail(
                name,
                'a non-empty list of platform tags such as ["manylinux_2_28_x86_64", "win_amd64"]',
                list(platforms),
            )
        variants.append((name, platforms))
    return tuple(variants)


def load_config(path: Path) -> Config:
    """Read and validate ``path``; raise ConfigError naming the file and key on any problem."""
    path = Path(path).expanduser()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: no such file. Write one with 'cockpit init', or try 'cockpit demo' for a sandbox release"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_config(path, data)


def parse_config(path: Path, data: dict[str, Any]) -> Config:
    """Validate an already-parsed TOML document."""
    root = _Table(path, "", data)
    base = path.parent

    rel = root.table("release", required=True)
    version = rel.str("version")
    if not is_valid_version(version):
        raise rel.fail("version", "a release version like '2.5.0'", version)
    repository = _repository(rel, "repository")
    milestone = rel.get("milestone", (int, str), "a milestone number or title", None)
    milestone = inert(milestone) if isinstance(milestone, str) else milestone
    tracker = rel.get("tracker_issue", int, "an issue number", None)
    release = Release(
        version=version,
        repository=repository,
        branch=rel.str("branch", f"release/{version.rsplit('.', 1)[0]}"),
        main=rel.str("main", "main"),
        milestone=milestone,
        tracker_issue=tracker,
    )

    gh = root.table("github")
    github = GitHubConfig(
        api_url=gh.str("api_url", GitHubConfig.api_url).rstrip("/"),
        timeout_s=gh.num("timeout", GitHubConfig.timeout_s, minimum=0.1),
        max_rate_limit_wait_s=gh.num("max_rate_limit_wait", GitHubConfig.max_rate_limit_wait_s),
        retries=int(gh.num("retries", GitHubConfig.retries)),
        refresh_s=gh.num("refresh_interval", GitHubConfig.refresh_s, minimum=5),
        auth=gh.str("auth", "auto"),
    )
    if github.auth not in ("auto", "none"):
        raise gh.fail("auth", "'auto' or 'none'", github.auth)

    gt = root.table("git", required=True)
    clone = Path(gt.str("clone")).expanduser()
    git = GitConfig(
        clone=clone if clone.is_absolute() else base / clone,
        remote=gt.str("remote", "origin"),
        cut=gt.str("cut", "", nonempty=False),
        release_only_patterns=gt.strs("release_only_patterns", GitConfig.release_only_patterns),
    )

    ci = []
    for t in root.tables("ci"):
        ci.append(
            CITarget(
                repository=_repository(t, "repository"),
                branch=t.str("branch", release.branch),
                required_workflows=t.strs("required", ("pull", "trunk", "lint")),
                binary_workflow=t.str("binary_workflow", "", nonempty=False),
                unstable_jobs=t.strs("unstable_jobs", ()),
            )
        )

    st = root.table("storage")
    storage = StorageConfig(
        index_url=st.str("index_url", "", nonempty=False).rstrip("/"),
        pypi_url=st.str("pypi_url", "", nonempty=False).rstrip("/"),
        packages=st.strs("packages", ()),
        platforms=st.strs("platforms", ()),
        python_tags=st.strs("python_tags", ()),
        free_threaded=st.get("free_threaded", bool, "true or false", False),
        size_limit_mb=st.num("size_limit_mb", StorageConfig.size_limit_mb, minimum=1),
        size_warn_mb=st.num("size_warn_mb", StorageConfig.size_warn_mb, minimum=1),
        release_date=st.str("release_date", "", nonempty=False),
        variants=_variants(st.table("variants")),
        staging_channel=st.str("staging_channel", "", nonempty=False).strip("/"),
        staging_platforms=st.strs("staging_platforms", ()),
    )

    ui = root.table("ui")
    km = root.table("keymap")
    for key, value in km.data.items():
        if not isinstance(value, str):
            raise km.fail(key, "a key string such as 'ctrl+r' (or \"\" to unbind)", value)
    template = root.table("checklist").str("template", "", nonempty=False)
    name, pattern = core_name(rel, repository), rc_tag_pattern(rel)
    state = root.table("state").str("path", "", nonempty=False)
    return Config(
        path=path,
        release=release,
        github=github,
        git=git,
        ci=tuple(ci),
        storage=storage,
        skip_labels=rel.strs("skip_labels", ("release-feature-request",)),
        validation_comment=rel.str("validation_comment", Config.validation_comment, multiline=True),
        stale_days=ui.num("stale_days", 7.0),
        checklist_template=(base / template) if template else None,
        state_path=(base / state) if state else None,
        keymap={inert(key): inert(value) for key, value in km.data.items()},
        theme=ui.str("theme", "", nonempty=False),
        schedule=parse_schedule(root.table("schedule")) if "schedule" in data else None,
        final_rc_date=_optional_date(rel, "final_rc_date"),
        validation=_validation(root.table("evidence"), rel, version),
        merge_method=_merge_method(rel),
        evidence=_evidence(root.table("evidence")) if "evidence" in data else EvidenceConfig(),
        core_name=name,
        rc_tag_pattern=pattern,
        repos=_repos(root, name, release, git, pattern, base) if "repo" in data else (),
    )


def _repos(
    root: _Table, name: str, release: Release, git: GitConfig, pattern: str, base: Path
) -> tuple[RepoConfig, ...]:
    """``[[repo]]``, read (and its module imported) only when the config has it: most releases are one repository."""
    from cockpit.config_repos import RepoConfig, repos_from

    core = RepoConfig(name, release, git.clone, git.remote, git.cut, pattern, core=True)
    return repos_from(root, core, base)


def _merge_method(rel: _Table) -> str:
    method = rel.str("merge_method", DEFAULT_MERGE_METHOD)
    if method not in MERGE_METHODS:
        raise rel.fail("merge_method", " or ".join(repr(m) for m in MERGE_METHODS), method)
    return method


def _validation(ev: _Table, rel: _Table, version: str) -> ValidationSettings:
    """``[evidence.validation_issue]`` ``new_title`` and ``repository``, ``[evidence.validation_comments]``
    ``phrase``; the posted ``[release] validation_comment`` must contain the phrase (else it would be posted
    twice)."""
    from cockpit.config_validation import validation_settings

    return validation_settings(ev, rel, version, repository=_repository)


def _evidence(t: _Table) -> EvidenceConfig:
    from cockpit.config_evidence import evidence_from

    return evidence_from(t)


def _optional_date(t: _Table, key: str) -> date | None:
    """An ISO day (``"2026-12-10"`` or a TOML date), None when absent; a time or anything else fails."""
    expected = 'an ISO date like "2026-12-10"'
    value: Any = t.get(key, (str, date), expected, None)
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, datetime):
        raise t.fail(key, expected + " (a day, not a time)", value.isoformat())
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise t.fail(key, expected, value) from None


def parse_schedule(t: _Table) -> PatchSchedule:
    """``[schedule]``: each phase a table of ISO ``start``/``end`` dates, the ``cherry_pick_deadline``,
    ``qualifying_labels`` and ``triage_label``."""
    from cockpit.config_schedule import schedule_from

    return schedule_from(t)
