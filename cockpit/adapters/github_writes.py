"""What the GitHub adapter does to GitHub: comment, edit, delete, move between milestones, take a
label off, re-run failed jobs, open an issue or a pull request, merge. Each is one request through the transport's
door, so a read-only session refuses every one of them before anything is sent (``ReadOnlyError``)."""

from __future__ import annotations

from urllib.parse import quote

from cockpit.adapters import github_parse as parse
from cockpit.adapters.github_rest import GitHubRest, repo_path
from cockpit.domain.github import IssueComment, MilestoneItem, PullRequest
from cockpit.errors import GitHubError


class GitHubWrites(GitHubRest):
    """Mutations of the GitHub client (see ``GitHubClient``)."""

    def create_comment(self, repo: str, number: int, body: str) -> IssueComment:
        """Post a comment on issue or PR #number; GitHub answers with it."""
        what = f"comment on #{number} in {repo}"
        data, _ = self._t.request("POST", f"{repo_path(repo)}/issues/{int(number)}/comments", what, body={"body": body})
        return self._parsed(lambda: parse.comment_from(data), what)

    def edit_comment(self, repo: str, comment_id: int, body: str) -> IssueComment:
        """Replace the body of a comment; GitHub answers with it."""
        what = f"edit comment {comment_id} in {repo}"
        data, _ = self._t.request(
            "PATCH", f"{repo_path(repo)}/issues/comments/{int(comment_id)}", what, body={"body": body}
        )
        return self._parsed(lambda: parse.comment_from(data), what)

    def delete_comment(self, repo: str, comment_id: int) -> None:
        """Delete a comment."""
        self._t.request(
            "DELETE", f"{repo_path(repo)}/issues/comments/{int(comment_id)}", f"delete comment {comment_id} in {repo}"
        )

    def set_milestone(self, repo: str, number: int, milestone_number: int | None) -> None:
        """Put #number in the milestone, or take it out with None."""
        verb = (
            f"move #{number} to milestone {milestone_number}"
            if milestone_number
            else f"remove #{number} from its milestone"
        )
        self._t.request(
            "PATCH",
            f"{repo_path(repo)}/issues/{int(number)}",
            f"{verb} in {repo}",
            body={"milestone": milestone_number},
        )

    def remove_label(self, repo: str, number: int, label: str) -> None:
        """Take ``label`` off issue or PR #number (GitHub answers with the labels left)."""
        self._t.request(
            "DELETE",
            f"{repo_path(repo)}/issues/{int(number)}/labels/{quote(label, safe='')}",
            f"remove the label {label!r} from #{number} in {repo}",
        )

    def rerun_failed_jobs(self, repo: str, run_id: int) -> None:
        """Re-run the failed jobs of a workflow run (a new attempt of the run)."""
        self._t.request(
            "POST",
            f"{repo_path(repo)}/actions/runs/{int(run_id)}/rerun-failed-jobs",
            f"re-run the failed jobs of run {run_id} in {repo}",
        )

    def create_issue(self, repo: str, title: str, body: str, *, labels: tuple[str, ...] = ()) -> MilestoneItem:
        """Open an issue (with ``labels``, when given); GitHub answers with it (its number and URL)."""
        what = f"open the issue {title!r} in {repo}"
        sent: dict[str, object] = {"title": title, "body": body}
        if labels:
            sent["labels"] = list(labels)
        data, _ = self._t.request("POST", f"{repo_path(repo)}/issues", what, body=sent)
        return self._parsed(lambda: parse.item_from(data, repo), what)

    def create_pull(self, repo: str, *, title: str, body: str, head: str, base: str) -> PullRequest:
        """Open a PR of ``head`` (``owner:branch`` for a fork's branch) onto ``base``; GitHub answers with it."""
        what = f"open a pull request of {head} onto {base} in {repo}"
        sent = {"title": title, "body": body, "head": head, "base": base}
        data, _ = self._t.request("POST", f"{repo_path(repo)}/pulls", what, body=sent)
        return self._parsed(lambda: parse.pull_from(data, repo), what)

    def edit_issue_body(self, repo: str, number: int, body: str) -> MilestoneItem:
        """Replace the body of issue #number; GitHub answers with the issue."""
        what = f"edit the body of #{number} in {repo}"
        data, _ = self._t.request("PATCH", f"{repo_path(repo)}/issues/{int(number)}", what, body={"body": body})
        return self._parsed(lambda: parse.item_from(data, repo), what)

    def merge_pull(self, repo: str, number: int, *, sha: str, method: str) -> str:
        """Merge PR #number only if its head is still ``sha``; the merge commit's sha.

        GitHub answers 409 when the head moved (someone pushed since it was judged) and 405 when it
        will not merge (conflicts, protection); both raise ``GitHubError`` saying so, nothing merged.
        """
        what = f"merge #{number} of {repo} at {sha[:12]}"
        try:
            data, _ = self._t.request(
                "PUT",
                f"{repo_path(repo)}/pulls/{int(number)}/merge",
                what,
                body={"sha": sha, "merge_method": method},
            )
        except GitHubError as exc:
            if getattr(exc, "status", None) == 409:
                error = GitHubError(
                    f"#{number} was pushed to after it was judged: its head is no longer {sha[:12]}, so GitHub "
                    f"refused the merge (409) and nothing was merged. Review the new head and try again."
                )
                error.status = 409  # type: ignore[attr-defined]
                raise error from None
            raise
        merged = data.get("sha") if isinstance(data, dict) else None
        if not isinstance(merged, str) or data.get("merged") is not True:
            raise GitHubError(f"{what}: GitHub answered without a merge commit ({str(data)[:80]})")
        return merged
