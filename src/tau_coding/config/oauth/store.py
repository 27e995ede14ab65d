"""Logins in auth.json: ``{"<provider>": {"type": "oauth", "refresh", "access", "expires"}}``.

``expires`` is in milliseconds since the epoch (Pi's shape; Pi and Tau can share the file).
Every change is made under an exclusive lock on ``auth.json.lock`` (fcntl) by re-reading the
file, changing one entry and writing it back atomically with mode 0600, so two processes
never lose each other's entries and never refresh the same login twice. A failed refresh or
login leaves the file as it was.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes
from tau_coding.config.oauth.flows import LoginError, now_ms, refresh
from tau_coding.config.oauth.providers import login_providers

REFRESH_MARGIN_MS = 60 * 1000  # refresh this long before the stored expiry


class LoginStoreError(Exception):
    """auth.json cannot be read or a login cannot be refreshed; ``str`` is one line."""


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the exclusive lock that guards changes to ``path`` (auth.json)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def read_auth(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise LoginStoreError(f"{path}: cannot read: {exc}") from exc
    try:
        data = json.loads(text) if text.strip() else {}
    except (json.JSONDecodeError, RecursionError) as exc:
        raise LoginStoreError(f"{path}: invalid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise LoginStoreError(f"{path}: must hold a JSON object")
    return data


def _write(path: Path, data: Mapping[str, Any]) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2) + "\n").encode(), mode=0o600)


def update(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``change`` to the current auth.json under the lock and write it back."""
    with locked(path):
        data = read_auth(path)
        change(data)
        _write(path, data)


def save_login(path: Path, provider: str, entry: Mapping[str, Any]) -> None:
    update(path, lambda data: data.__setitem__(provider, dict(entry)))


def remove_login(path: Path, provider: str) -> bool:
    """Forget ``provider``'s credentials (a login or an API key); False when there were none."""
    with locked(path):
        data = read_auth(path)
        if data.pop(provider, None) is None:
            return False
        _write(path, data)
        return True


def oauth_entry(data: Mapping[str, Any], provider: str) -> dict[str, Any] | None:
    entry = data.get(provider)
    if isinstance(entry, dict) and entry.get("type") == "oauth" and isinstance(entry.get("access"), str):
        return entry
    return None


def logged_in(path: Path) -> list[str]:
    """The providers auth.json holds a login for, in file order."""
    data = read_auth(path)
    return [name for name in data if oauth_entry(data, name) is not None]


def _fresh(entry: Mapping[str, Any], now: int) -> bool:
    expires = entry.get("expires")
    return isinstance(expires, int | float) and now < expires - REFRESH_MARGIN_MS


def fresh_entry(path: Path, provider: str, environ: Mapping[str, str]) -> dict[str, Any] | None:
    """``provider``'s login with an access token valid for at least a minute, refreshing it
    (once, across processes) when it is about to expire; None when there is no login."""
    entry = oauth_entry(read_auth(path), provider)
    if entry is None or _fresh(entry, now_ms()):
        return entry
    spec = login_providers(environ).get(provider)
    if spec is None:
        return entry  # a login Tau cannot refresh (another tool's): use it as it is
    with locked(path):
        data = read_auth(path)
        entry = oauth_entry(data, provider)
        if entry is None or _fresh(entry, now_ms()):  # another process refreshed it meanwhile
            return entry
        try:
            renewed = refresh(spec, entry)
        except LoginError as exc:
            raise LoginStoreError(str(exc)) from exc
        data[provider] = {**entry, **renewed}
        _write(path, data)
        return data[provider]  # type: ignore[no-any-return]


def login_key(entry: Mapping[str, Any]) -> str:
    """The key a login gives its provider's requests: the access token, or for a login that
    also names a project (Gemini CLI) ``{"token", "projectId"}`` as JSON."""
    if isinstance(entry.get("projectId"), str):
        return json.dumps({"token": entry["access"], "projectId": entry["projectId"]})
    return str(entry["access"])
