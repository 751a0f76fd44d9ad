"""The viewer's promise, at the GitHub adapter: in a read-only session no request other than GET/HEAD
leaves the process, whatever method is called and however the request is made, and the refusal is
made in one place, the door of ``cockpit.adapters.github_http``."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import httpx
import pytest

from cockpit.adapters import github_writes
from cockpit.adapters.github import GitHubClient
from cockpit.adapters.github_rest import GitHubRest
from cockpit.errors import CockpitError, ReadOnlyError
from cockpit.sandbox.github_server import GitHubEmulator
from tests.fixtures_world import BRANCH, RELEASE_HEAD, REPO, tiny_world

ADAPTERS = Path(__file__).resolve().parents[2] / "cockpit" / "adapters"
ARGUMENTS = {  # a plausible value for each parameter name of the client's methods
    "repo": REPO,
    "ref": BRANCH,
    "branch": BRANCH,
    "sha": RELEASE_HEAD,
    "path": "README.md",
    "workflow": "trunk.yml",
    "method": "merge",
    "label": "release tracker",
    "query": "is:issue",
    "title": "Hello",
    "body": "hello",
    "number_or_title": 1,
    "milestone_number": 2,
    "limit": 3,
}


@pytest.fixture
def gh():
    with GitHubEmulator(tiny_world()) as emulator:
        yield emulator


def public_methods() -> dict[str, object]:
    return {
        name: member
        for name, member in inspect.getmembers(GitHubClient, inspect.isfunction)
        if not name.startswith("_") and name != "close"
    }


def call_with_plausible_arguments(client: GitHubClient, name: str) -> None:
    method = getattr(client, name)
    arguments = {}
    for parameter in inspect.signature(method).parameters.values():
        if parameter.default is not inspect.Parameter.empty and parameter.name not in ARGUMENTS:
            continue
        arguments[parameter.name] = ARGUMENTS.get(parameter.name, 1)
    method(**arguments)


def test_every_method_of_the_client_sends_only_reads_in_a_read_only_session(gh):
    """A new write that found a way around the door would show here as a POST/PATCH/PUT/DELETE in
    the emulator's log; a new write placed outside ``github_writes`` shows as an unexpected refusal."""
    viewer = GitHubClient(gh.base_url, None, read_only=True, timeout=5, retries=0)
    refused = set()
    try:
        for name in public_methods():
            try:
                call_with_plausible_arguments(viewer, name)
            except ReadOnlyError:
                refused.add(name)
            except CockpitError:
                pass  # a read GitHub answered with an error is still a read
    finally:
        viewer.close()
    writes = {n for n, m in vars(github_writes.GitHubWrites).items() if inspect.isfunction(m) and not n.startswith("_")}
    assert writes and refused == writes
    sent = {entry["method"] for entry in gh.log()}
    assert sent <= {"GET", "HEAD"} and "GET" in sent


def test_the_door_refuses_a_write_sent_straight_through_the_http_client(gh):
    viewer = GitHubClient(gh.base_url, None, read_only=True)
    url = f"{gh.base_url}/repos/{REPO}/issues/1/comments"
    try:
        for verb in ("POST", "PATCH", "PUT", "DELETE", "OPTIONS"):
            with pytest.raises(ReadOnlyError, match=f"refused to send {verb} /repos/{REPO}/issues/1/comments"):
                viewer._t.http.request(verb, url, json={"body": "x"})
        with pytest.raises(ReadOnlyError, match="refused to comment"):
            viewer._t.request("POST", f"/repos/{REPO}/issues/1/comments", "comment", body={"body": "x"})
    finally:
        viewer.close()
    assert gh.log() == [] and viewer.request_count == 0


def test_the_door_stands_before_any_proxy_the_environment_names(gh, monkeypatch):
    """httpx mounts a proxy from the environment as its own transport: the door is in front of it."""
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    viewer = GitHubClient(gh.base_url, None, read_only=True, timeout=2, retries=0)
    try:
        with pytest.raises(ReadOnlyError):
            viewer.create_comment(REPO, 1, "hello")
    finally:
        viewer.close()
    assert gh.log() == []


def calls(path: Path) -> list[str]:
    """Every ``httpx.<name>(...)`` called in a module, by name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if isinstance(target, ast.Name) and target.id == "httpx":
                found.append(node.func.attr)
    return found


def test_the_github_adapter_builds_one_http_client_and_sends_only_through_it():
    """The door holds because there is no other way out: one ``httpx.Client``, built in
    ``github_http.open_client`` with the door as its request hook; no module-level httpx request."""
    senders = {"request", "get", "post", "put", "patch", "delete", "head", "options", "stream", "AsyncClient"}
    built = {}
    for path in sorted(ADAPTERS.glob("github*.py")):
        names = calls(path)
        assert not senders & set(names), f"{path.name} sends around the door: {sorted(senders & set(names))}"
        if "Client" in names:
            built[path.name] = names.count("Client")
    assert built == {"github_http.py": 1}
    source = inspect.getsource(GitHubRest.__init__)
    assert "Transport(" in source


def test_the_github_adapter_uses_neither_pygithub_nor_requests():
    """GitHub's REST API through httpx's public API only: no library internals to replace."""
    for path in sorted(ADAPTERS.glob("github*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        roots = {name.split(".")[0] for name in imported}
        assert not roots & {"github", "requests", "urllib3"}, f"{path.name} imports {sorted(roots)}"
        assert "_Requester" not in path.read_text(encoding="utf-8"), path.name


def test_a_read_only_session_still_reads_and_counts(gh):
    viewer = GitHubClient(gh.base_url, None, read_only=True)
    try:
        assert viewer.issue(REPO, 2).title
        assert viewer.milestone_items(REPO, 1)
        assert viewer.milestone_items(REPO, 1)
    finally:
        viewer.close()
    assert [(e["method"], e["status"]) for e in gh.log()] == [("GET", 200), ("GET", 200), ("GET", 304)]
    assert viewer.request_count == 3 and isinstance(viewer._t.http, httpx.Client)
