"""Credentials: auth.json, environment variables, ``--api-key`` and models.json keys.

Resolution order (Pi's): ``--api-key``, then auth.json (an API key, or a login's access
token, refreshed first when it is about to expire: ``config/oauth``), then the provider's environment
variable, then the key models.json gives the provider. A key value may be a literal, the
name of an environment variable, or ``!command`` whose stdout is the key (run once per
process). auth.json is written atomically with mode 0600.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes
from tau_ai.catalog import API_KEY_ENV

# The catalogue names each built-in provider's variable; these add aliases and hosts it lacks.
ENV_KEYS: dict[str, tuple[str, ...]] = {provider: (name,) for provider, name in API_KEY_ENV.items()} | {
    "google": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "zai": ("ZAI_API_KEY",),
    "together": ("TOGETHER_API_KEY",),
    "fireworks": ("FIREWORKS_API_KEY",),
    "huggingface": ("HF_TOKEN",),
}
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def credential_env_names(models_json_keys: Iterable[str | None]) -> frozenset[str]:
    """Every environment variable Tau may read a key from: the providers' own variables, and
    those that models.json keys name. Commands Tau runs do not see them (``scrubEnv``)."""
    names = {name for group in ENV_KEYS.values() for name in group}
    names.update(key for key in models_json_keys if key and _ENV_NAME.fullmatch(key))
    return frozenset(names)


class AuthError(ValueError):
    """auth.json or a key command is unusable; the message is one line."""


@dataclass
class KeyResolver:
    """Turns a configured key value into a key; ``!command`` results are cached per process."""

    environ: Mapping[str, str]
    _cache: dict[str, str] = field(default_factory=dict)

    def resolve(self, value: str) -> str | None:
        if value.startswith("!"):
            if value not in self._cache:
                self._cache[value] = self._run(value[1:])
            return self._cache[value] or None
        if _ENV_NAME.fullmatch(value):
            return self.environ.get(value) or None
        return value or None

    def resolve_header(self, value: str) -> str | None:
        """A models.json header value, resolved as Pi does: ``!command`` its output, a set
        environment variable's name its value, anything else the text itself."""
        if value.startswith("!"):
            return self.resolve(value)
        return self.environ.get(value) or value

    @staticmethod
    def _run(command: str) -> str:
        try:
            done = subprocess.run(
                command, shell=True, capture_output=True, text=True, timeout=30, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise AuthError(f"key command timed out after 30 s: {command}") from exc
        if done.returncode != 0:
            detail = (done.stderr.strip().splitlines() or [""])[-1]
            raise AuthError(f"key command failed (exit {done.returncode}): {command}: {detail}".rstrip(": "))
        return done.stdout.strip()


class AuthStore:
    """auth.json: ``{"<provider>": {"type": "api_key", "key": "..."}}`` (OAuth entries kept as they are)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            try:
                text = self.path.read_text(encoding="utf-8")
            except FileNotFoundError:
                text = ""
            except OSError as exc:
                raise AuthError(f"{self.path}: cannot read: {exc}") from exc
            except UnicodeDecodeError as exc:
                raise AuthError(f"{self.path}: not UTF-8 text (byte {exc.start})") from exc
            try:
                data = json.loads(text) if text.strip() else {}
            except json.JSONDecodeError as exc:
                raise AuthError(f"{self.path}: invalid JSON at line {exc.lineno} column {exc.colno}") from exc
            except RecursionError as exc:
                raise AuthError(f"{self.path}: invalid JSON: nested too deeply") from exc
            if not isinstance(data, dict):
                raise AuthError(f"{self.path}: must hold a JSON object")
            self._data = data
        return self._data

    def api_key(self, provider: str) -> str | None:
        """The stored key value for ``provider`` (unresolved), if any."""
        entry = self._load().get(provider)
        if (
            isinstance(entry, Mapping)
            and entry.get("type") == "api_key"
            and isinstance(entry.get("key"), str)
        ):
            return str(entry["key"])
        return None

    def has_login(self, provider: str) -> bool:
        """auth.json holds an OAuth login (``tau login``) for ``provider``."""
        entry = self._load().get(provider)
        return isinstance(entry, Mapping) and entry.get("type") == "oauth"

    def set_api_key(self, provider: str, key: str) -> None:
        data = dict(self._load())
        data[provider] = {"type": "api_key", "key": key}
        atomic_write_bytes(self.path, (json.dumps(data, indent=2) + "\n").encode(), mode=0o600)
        self._data = data

    def remove(self, provider: str) -> None:
        data = dict(self._load())
        if data.pop(provider, None) is not None:
            atomic_write_bytes(self.path, (json.dumps(data, indent=2) + "\n").encode(), mode=0o600)
        self._data = data


def resolve_api_key(
    provider: str,
    *,
    cli_key: str | None,
    auth: AuthStore,
    resolver: KeyResolver,
    models_json_key: str | None = None,
) -> str | None:
    """The key to use for ``provider``, in Pi's order; None when nothing is configured."""
    if cli_key:
        return cli_key
    stored = auth.api_key(provider)
    if stored:
        return resolver.resolve(stored)
    if auth.has_login(provider):
        from tau_coding.config.oauth.store import LoginStoreError, fresh_entry, login_key

        try:
            entry = fresh_entry(auth.path, provider, resolver.environ)
        except LoginStoreError as exc:
            raise AuthError(str(exc)) from exc
        if entry is not None:
            return login_key(entry)
    for name in ENV_KEYS.get(provider, ()):
        if resolver.environ.get(name):
            return resolver.environ[name]
    if models_json_key:
        return resolver.resolve(models_json_key)
    return None


# Providers whose credentials are not one key variable: what to set instead.
SIGN_IN_HINTS = {
    "amazon-bedrock": "set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK",
}


def missing_key_message(provider: str) -> str:
    names = ENV_KEYS.get(provider)
    how = f"set {names[0]}" if names else 'add an "apiKey" for it in models.json'
    how = SIGN_IN_HINTS.get(provider, how)
    from tau_coding.config.oauth.providers import login_providers

    if provider in login_providers({}):
        how = f"run `tau login {provider}`" + (f" or {how}" if names else "")
    return f"no API key for provider {provider!r}: {how}, pass --api-key, or store one in auth.json"
