"""``cockpit auth login|status|logout``: the token lives in the keyring, never in a file."""

from __future__ import annotations

import argparse
import getpass
import sys

from cockpit.adapters.credentials import (
    forget_token,
    host_of,
    resolve_token,
    store_token,
)
from cockpit.config import GitHubConfig, load_config


def _api_url(args: argparse.Namespace) -> str:
    if args.config is not None:
        return load_config(args.config).github.api_url
    from cockpit.cli.commands import config_path

    path = config_path(args)
    return load_config(path).github.api_url if path.exists() else GitHubConfig().api_url


def run_auth(args: argparse.Namespace) -> int:
    if args.auth_command in ("login", "logout") and getattr(args, "read_only", False):
        print(
            f"cockpit: Auth: --read-only: 'auth {args.auth_command}' changes the system keyring, so it refuses "
            f"to run read-only; run it without --read-only",
            file=sys.stderr,
        )
        return 2
    api_url = _api_url(args)
    host = host_of(api_url)
    if args.auth_command == "login":
        if not sys.stdin.isatty():
            token = sys.stdin.readline().strip()
        else:
            token = getpass.getpass(f"GitHub token for {host} (input hidden): ").strip()
        if not token:
            print("cockpit: Auth: no token given; nothing stored", file=sys.stderr)
            return 2
        store_token(api_url, token)
        print(f"token for {host} stored in the system keyring")
        return 0
    if args.auth_command == "logout":
        removed = forget_token(api_url)
        print(f"token for {host} removed from the keyring" if removed else f"no keyring entry for {host}")
        return 0
    info = resolve_token(api_url)
    if info.token:
        print(f"{host}: using a token from {info.source}")
    else:
        print(f"{host}: no token found (looked in GH_TOKEN, GITHUB_TOKEN, the keyring, the gh CLI)")
        if info.note:
            print(f"note: {info.note}")
    return 0
