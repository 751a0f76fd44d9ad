"""Where the GitHub token comes from: GH_TOKEN, GITHUB_TOKEN, the keyring, the gh CLI's login.

The value is returned to the caller and never printed, logged or stored; ``TokenInfo.source``
names where it came from so ``cockpit auth status`` can say so without showing it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

KEYRING_SERVICE = "release-cockpit"


@dataclass(frozen=True)
class TokenInfo:
    source: str  # "GH_TOKEN", "GITHUB_TOKEN", "keyring", "gh CLI", or "none"
    token: str | None = field(default=None, repr=False)
    note: str = ""  # why a source was unavailable, e.g. no keyring backend


def host_of(api_url: str) -> str:
    """``https://api.github.com`` -> ``github.com``; Enterprise hosts are kept as they are."""
    host = urlparse(api_url).hostname or api_url
    return "github.com" if host == "api.github.com" else host


def _from_keyring(host: str) -> tuple[str | None, str]:
    try:
        import keyring
        from keyring.errors import KeyringError, NoKeyringError
    except ImportError:  # pragma: no cover - keyring is a dependency
        return None, "the keyring package is not installed"
    try:
        return keyring.get_password(KEYRING_SERVICE, host), ""
    except NoKeyringError:
        return None, "no keyring backend on this machine (set GH_TOKEN instead)"
    except (KeyringError, RuntimeError, OSError) as exc:
        return None, f"keyring unavailable: {type(exc).__name__}"


def _from_gh_cli(host: str) -> str | None:
    """The gh CLI keeps ``oauth_token`` in hosts.yml unless it uses the system keyring."""
    config_dir = os.environ.get("GH_CONFIG_DIR") or Path.home() / ".config" / "gh"
    try:
        text = (Path(config_dir) / "hosts.yml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    in_host = False
    for line in text.splitlines():
        if line and not line[0].isspace():
            in_host = line.rstrip(":").strip().strip("'\"") == host
        elif in_host:
            m = re.match(r"\s+oauth_token:\s*['\"]?([^'\"\s]+)", line)
            if m:
                return m.group(1)
    return None


def resolve_token(api_url: str, *, use_keyring: bool = True) -> TokenInfo:
    """Find a token in the documented order; ``TokenInfo(source="none")`` when there is none."""
    for var in ("GH_TOKEN", "GITHUB_TOKEN"):
        value = os.environ.get(var, "").strip()
        if value:
            return TokenInfo(var, value)
    host = host_of(api_url)
    note = ""
    if use_keyring:
        stored, note = _from_keyring(host)
        if stored:
            return TokenInfo("keyring", stored)
    from_cli = _from_gh_cli(host)
    if from_cli:
        return TokenInfo("gh CLI", from_cli)
    return TokenInfo("none", None, note)


def store_token(api_url: str, token: str) -> None:
    """Keep ``token`` in the system keyring; ``CockpitError`` says what to do when there is none."""
    from cockpit.errors import CockpitError

    try:
        import keyring
        from keyring.errors import KeyringError, NoKeyringError
    except ImportError:  # pragma: no cover
        raise CockpitError("the keyring package is not installed; set GH_TOKEN instead", title="Auth") from None
    try:
        keyring.set_password(KEYRING_SERVICE, host_of(api_url), token)
    except NoKeyringError:
        raise CockpitError(
            "no keyring backend on this machine (normal on a headless server): export GH_TOKEN=<token> "
            "in the shell that runs the cockpit, or log in with the gh CLI",
            title="Auth",
        ) from None
    except (KeyringError, RuntimeError, OSError) as exc:
        raise CockpitError(
            f"the keyring refused the token ({type(exc).__name__}); set GH_TOKEN instead", title="Auth"
        ) from None


def forget_token(api_url: str) -> bool:
    """Remove the keyring entry; False when there was none (or no keyring)."""
    try:
        import keyring
        from keyring.errors import KeyringError, PasswordDeleteError
    except ImportError:  # pragma: no cover
        return False
    try:
        keyring.delete_password(KEYRING_SERVICE, host_of(api_url))
        return True
    except (PasswordDeleteError, KeyringError, RuntimeError, OSError):
        return False
