"""``GET /user`` in the emulator: whose token this is, and who writes the comments a token posts.

``users`` maps a token to its login (two release managers, two tokens); a request without a known
token acts as the sandbox's own release manager (the demo runs without any token).
"""

from __future__ import annotations

from typing import Any

from cockpit.sandbox.github_objects import user_json
from cockpit.sandbox.http_base import Request, Response

SANDBOX_USER = "release-manager"


def login_for(request: Request, users: dict[str, str]) -> str:
    """The login behind the request's token; the ``x-sandbox-user`` header or the sandbox user otherwise."""
    auth = request.header("authorization")
    token = auth.split(" ", 1)[1].strip() if " " in auth else ""
    return users.get(token) or request.header("x-sandbox-user", SANDBOX_USER)


def user_answer(api: str, login: str) -> Response:
    """GitHub's "private user": the authenticated user's own profile."""
    data: dict[str, Any] = {
        **user_json(api, login),
        "name": login,
        "company": None,
        "blog": "",
        "location": None,
        "email": None,
        "hireable": None,
        "bio": None,
        "twitter_username": None,
        "public_repos": 1,
        "public_gists": 0,
        "followers": 0,
        "following": 0,
        "created_at": "2020-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "private_gists": 0,
        "total_private_repos": 0,
        "owned_private_repos": 0,
        "disk_usage": 0,
        "collaborators": 0,
        "two_factor_authentication": True,
        "plan": {"name": "free", "space": 976562499, "private_repos": 10000, "collaborators": 0},
    }
    return Response.json(data)
