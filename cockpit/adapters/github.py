"""The GitHub adapter: what the cockpit reads from and does to GitHub, in domain dataclasses.

Every method raises only ``GitHubError`` (``RateLimited`` when the budget is gone and waiting
would take longer than ``max_rate_limit_wait``) or ``ReadOnlyError`` (a mutation in a read-only
session; nothing is sent). Lists are read 100 a page by following ``Link`` headers, with
conditional requests, so a refresh with nothing changed costs only 304s. Works against
github.com, GitHub Enterprise (``https://HOST/api/v3``) and the sandbox emulator.

The client is GitHub's documented REST API over httpx (``github_transport``), in parts by what
they do: the release's items here (milestones, issues, pull requests, comments, files), CI in
``github_ci``, every mutation in ``github_writes``; what they share in ``github_rest``.
"""

from __future__ import annotations

from functools import partial
from urllib.parse import quote

from cockpit.adapters import github_parse as parse
from cockpit.adapters.github_ci import GitHubCI
from cockpit.adapters.github_rest import repo_path
from cockpit.adapters.github_writes import GitHubWrites
from cockpit.domain.evidence import RepoFile
from cockpit.domain.github import IssueComment, Milestone, MilestoneItem, PullRequest
from cockpit.domain.merging import Review
from cockpit.errors import GitHubError


class GitHubClient(GitHubCI, GitHubWrites):
    """A GitHub REST client for one API URL. Thread-safe enough for the UI's workers.

    ``GitHubClient(api_url, token, timeout=15, retries=3, max_rate_limit_wait=30, read_only=False)``.
    """

    def repository_exists(self, repo: str) -> bool:
        """True when the repository exists and the token can see it; False on 404."""
        what = f"look up {repo}"
        try:
            self._get(repo_path(repo), what)
        except GitHubError as exc:
            if getattr(exc, "status", None) == 404:
                return False
            raise
        return True

    def milestone(self, repo: str, number_or_title: int | str) -> Milestone:
        """The milestone by number, or by title among open AND closed milestones."""
        key = str(number_or_title).strip()
        if key.isdigit():
            what = f"read milestone {key} of {repo}"
            return self._parsed(
                lambda: parse.milestone_from(self._get(f"{repo_path(repo)}/milestones/{key}", what)), what
            )
        milestones = self.milestones(repo)
        for exact in (True, False):
            for m in milestones:
                if m.title == key if exact else m.title.strip().lower().lstrip("v") == key.lower().lstrip("v"):
                    return m
        titles = ", ".join(repr(m.title) for m in milestones[:8]) or "none"
        raise GitHubError(f"{repo} has no milestone titled {key!r} (open or closed); it has {titles}")

    def milestones(self, repo: str, *, state: str = "all") -> list[Milestone]:
        """Every milestone, open and closed by default (GitHub's own default lists only open ones)."""
        what = f"list the milestones of {repo}"
        rows = self._pages(f"{repo_path(repo)}/milestones", what, state=state)
        return [self._parsed(partial(parse.milestone_from, r), what) for r in rows]

    def issues(
        self,
        repo: str,
        *,
        labels: str | None = None,
        state: str = "all",
        newest_first: bool = True,
        limit: int | None = None,
    ) -> list[MilestoneItem]:
        """Issues (and the PRs GitHub mixes in), optionally only those carrying every label of ``labels``.

        ``labels`` is GitHub's comma-separated list; newest first by default; at most ``limit``.
        """
        what = f"list the issues of {repo}" + (f" labelled {labels!r}" if labels else "")
        rows = self._pages(
            f"{repo_path(repo)}/issues",
            what,
            limit=limit,
            labels=labels,
            state=state,
            sort="created",
            direction="desc" if newest_first else "asc",
        )
        return [self._parsed(partial(parse.item_from, r, repo), what) for r in rows]

    def search_issues(self, repo: str, query: str, *, limit: int = 300) -> list[MilestoneItem]:
        """Issues and PRs of ``repo`` matching a search ``query`` (GitHub's issue search syntax), best first."""
        what = f"search the issues of {repo_path(repo).removeprefix('/repos/')} for {query!r}"
        rows = self._pages("/search/issues", what, wrap="items", limit=limit, q=f"repo:{repo} {query}")
        return [self._parsed(partial(parse.item_from, r, repo), what) for r in rows]

    def milestone_items(self, repo: str, number: int) -> list[MilestoneItem]:
        """Every issue and PR of the milestone, open and closed, in one paged list call."""
        what = f"list the items of milestone {number} in {repo}"
        rows = self._pages(f"{repo_path(repo)}/issues", what, milestone=str(number), state="all")
        return [self._parsed(partial(parse.item_from, r, repo), what) for r in rows]

    def issue(self, repo: str, number: int) -> MilestoneItem:
        """Issue or PR #number as an item of the issues list (a transferred issue is followed)."""
        what = f"read issue #{number} of {repo}"
        return self._parsed(
            lambda: parse.item_from(self._get(f"{repo_path(repo)}/issues/{int(number)}", what), repo), what
        )

    def issue_comments(self, repo: str, number: int) -> list[IssueComment]:
        """Every comment of issue or PR #number, oldest first."""
        what = f"read the comments of #{number} in {repo}"
        rows = self._pages(f"{repo_path(repo)}/issues/{int(number)}/comments", what)
        return [self._parsed(partial(parse.comment_from, r), what) for r in rows]

    def comment(self, repo: str, comment_id: int) -> IssueComment:
        """One issue comment as it is now (body and ``updated_at``), read without the ETag cache's help."""
        what = f"read comment {comment_id} in {repo}"
        data, _ = self._t.request("GET", f"{repo_path(repo)}/issues/comments/{int(comment_id)}", what, fresh=True)
        return self._parsed(lambda: parse.comment_from(data), what)

    def pull(self, repo: str, number: int) -> PullRequest:
        """Pull request #number."""
        what = f"read pull request #{number} of {repo}"
        return self._parsed(
            lambda: parse.pull_from(self._get(f"{repo_path(repo)}/pulls/{int(number)}", what), repo), what
        )

    def pulls(self, repo: str, *, base: str | None = None, state: str = "all") -> list[PullRequest]:
        """Pull requests, optionally only those aimed at ``base`` (e.g. the release branch)."""
        what = f"list pull requests of {repo}" + (f" onto {base}" if base else "")
        rows = self._pages(f"{repo_path(repo)}/pulls", what, base=base, state=state)
        return [self._parsed(partial(parse.pull_from, r, repo), what) for r in rows]

    def pull_reviews(self, repo: str, number: int) -> list[Review]:
        """Every review of PR #number, oldest first."""
        what = f"read the reviews of #{number} in {repo}"
        rows = self._pages(f"{repo_path(repo)}/pulls/{int(number)}/reviews", what)
        return [self._parsed(partial(parse.review_from, r), what) for r in rows]

    def repo_file(self, repo: str, path: str, ref: str) -> RepoFile | None:
        """The file at ``path`` on ``ref`` (contents API); None when GitHub answers 404 for it.

        GitHub answers 404 as well for a repository the token cannot see: callers that must tell the
        two apart ask ``repository_exists``.
        """
        what = f"read {path} at {ref} in {repo}"
        try:
            data = self._get(f"{repo_path(repo)}/contents/{quote(path.strip('/'))}", what, ref=ref)
        except GitHubError as exc:
            if getattr(exc, "status", None) == 404:
                return None
            raise
        return self._parsed(lambda: parse.file_from(data, repo, ref), what)

    def authenticated_user(self) -> str:
        """The login of the token's user (``GET /user``)."""
        what = "ask GitHub whose token this is"
        return self._parsed(lambda: parse.login_of(self._get("/user", what)), what)
