"""The emulator's endpoints for the checklist's evidence: a workflow's runs by its file, and the contents API.

``GET /repos/{o}/{r}/actions/workflows/{workflow_id}/runs`` (``workflow_id`` the file name, such as
``validate-binaries.yml``, or the workflow's number) lists that workflow's runs newest first, with the
same filters and shape as the repository's run list. ``GET /repos/{o}/{r}/contents/{path}?ref=`` answers
a file as GitHub's ``content-file`` (base64 content) and 404 ``Not Found`` for a path or ref it lacks.
"""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from cockpit.sandbox import github_render as render
from cockpit.sandbox.github_objects import Urls, stable_id
from cockpit.sandbox.github_render_ci import CommitFacts
from cockpit.sandbox.github_state import RepoState
from cockpit.sandbox.http_base import Request, Response

if TYPE_CHECKING:
    from cockpit.sandbox.github_host import EmulatorHost


def _workflow_file(run: Any) -> str:
    return run.path or f".github/workflows/{run.name}.yml"


def content_json(u: Urls, ref: str, path: str, text: str) -> dict[str, Any]:
    """GitHub's ``content-file``: a file of the repository at ``ref``, its bytes in base64."""
    raw = text.encode("utf-8")
    sha = hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest()  # git's blob id, as GitHub gives it
    api = f"{u.repo}/contents/{quote(path)}?ref={quote(ref, safe='')}"
    html = f"{u.web}/blob/{quote(ref, safe='')}/{quote(path)}"
    git = f"{u.repo}/git/blobs/{sha}"
    return {
        "type": "file",
        "encoding": "base64",
        "size": len(raw),
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "content": base64.encodebytes(raw).decode("ascii"),
        "sha": sha,
        "url": api,
        "git_url": git,
        "html_url": html,
        "download_url": f"https://raw.githubusercontent.com/{u.full_name}/{quote(ref, safe='')}/{quote(path)}",
        "_links": {"self": api, "git": git, "html": html},
    }


def list_workflow_runs_of(gh: EmulatorHost, request: Request, state: RepoState, workflow: str) -> Response:
    """One workflow's runs, newest first; 404 when the repository has no such workflow."""
    runs = [
        r
        for r in state.runs.values()
        if _workflow_file(r).rsplit("/", 1)[-1] == workflow
        or str(stable_id(state.repo.full_name, "workflow", r.name)) == workflow
    ]
    if not runs:
        return gh.error(404, "Not Found")
    q = request.query
    status = q.get("status")
    chosen = [
        r
        for r in sorted(runs, key=lambda r: (r.created_at, r.id), reverse=True)
        if (not q.get("branch") or r.head_branch == q["branch"])
        and (not q.get("event") or r.event == q["event"])
        and (not q.get("head_sha") or r.head_sha == q["head_sha"])
        and (not status or status in (r.status, r.conclusion))
    ]
    urls = gh.urls(state)
    return gh.paged(
        request,
        chosen,
        lambda r: render.run_json(urls, r, CommitFacts.of(r.head_sha, None, r.created_at)),
        wrap="workflow_runs",
    )


def get_content(gh: EmulatorHost, request: Request, state: RepoState, path: str) -> Response:
    """A file at ``ref`` (default: the default branch); 404 for a path or ref the repository lacks."""
    ref = request.query.get("ref") or state.repo.default_branch
    text = state.repo.files.get(ref, {}).get(path.strip("/"))
    if text is None:
        return gh.error(404, "Not Found")
    return Response.json(content_json(gh.urls(state), ref, path.strip("/"), text))
