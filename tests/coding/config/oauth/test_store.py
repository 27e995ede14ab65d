"""Logins in auth.json: kept private, refreshed before expiry, once across processes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tau_coding.config.auth import AuthError, AuthStore, KeyResolver, resolve_api_key
from tau_coding.config.oauth.flows import LoginHooks, login, now_ms
from tau_coding.config.oauth.providers import login_providers
from tau_coding.config.oauth.store import (
    LoginStoreError,
    fresh_entry,
    logged_in,
    remove_login,
    save_login,
)
from tests.coding.config.oauth.conftest import browser_get, login_env
from tests.coding.config.oauth.fake_auth_server import FakeAuthServer


def _logged_in(server: FakeAuthServer, path: Path, provider: str = "anthropic") -> dict[str, object]:
    env = login_env(server)
    hooks = LoginHooks(show=lambda _p: None, open_url=browser_get, timeout=10)
    entry = login(login_providers(env)[provider], hooks, env)
    save_login(path, provider, entry)
    return entry


def test_a_login_is_saved_beside_other_credentials_with_mode_0600(
    auth_server: FakeAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "auth.json"
    path.write_text(json.dumps({"openai": {"type": "api_key", "key": "sk-x"}}))
    entry = _logged_in(auth_server, path)
    data = json.loads(path.read_text())
    assert data["openai"] == {"type": "api_key", "key": "sk-x"} and data["anthropic"] == entry
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert logged_in(path) == ["anthropic"]
    assert remove_login(path, "anthropic") and not remove_login(path, "anthropic")
    assert json.loads(path.read_text()) == {"openai": {"type": "api_key", "key": "sk-x"}}


def test_a_fresh_token_is_used_as_it_is(auth_server: FakeAuthServer, tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    entry = _logged_in(auth_server, path)
    key = resolve_api_key("anthropic", cli_key=None, auth=AuthStore(path), resolver=KeyResolver({}))
    assert key == entry["access"] and auth_server.refreshes == 0


def test_a_token_about_to_expire_is_refreshed_and_stored(auth_server: FakeAuthServer, tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    auth_server.expires_in = 330  # stored 5 min early, so it is inside the one-minute margin
    old = _logged_in(auth_server, path)
    auth_server.expires_in = 3600
    key = resolve_api_key(
        "anthropic", cli_key=None, auth=AuthStore(path), resolver=KeyResolver(login_env(auth_server))
    )
    stored = json.loads(path.read_text())["anthropic"]
    assert key == stored["access"] != old["access"] and auth_server.refreshes == 1
    assert stored["refresh"] != old["refresh"] and stored["expires"] > now_ms() + 50 * 60 * 1000


def test_a_revoked_login_is_one_line_and_leaves_auth_json_as_it_was(
    auth_server: FakeAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "auth.json"
    auth_server.expires_in = 0
    _logged_in(auth_server, path)
    before = path.read_bytes()
    auth_server.revoke_all()
    with pytest.raises(AuthError) as err:
        resolve_api_key(
            "anthropic", cli_key=None, auth=AuthStore(path), resolver=KeyResolver(login_env(auth_server))
        )
    assert str(err.value) == (
        "the Anthropic (Claude Pro/Max) login was revoked or has expired: run `tau login anthropic` (or /login) again"
    )
    assert path.read_bytes() == before


def test_an_unreachable_token_endpoint_keeps_the_login(auth_server: FakeAuthServer, tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    auth_server.expires_in = 0
    _logged_in(auth_server, path)
    before = path.read_bytes()
    env = {**login_env(auth_server), "TAU_ANTHROPIC_OAUTH_URL": "http://127.0.0.1:9"}
    with pytest.raises(
        LoginStoreError, match=r"^cannot refresh the Anthropic \(Claude Pro/Max\) login: cannot reach"
    ):
        fresh_entry(path, "anthropic", env)
    assert path.read_bytes() == before


_REFRESH_IN_A_CHILD = """
import json, sys
from pathlib import Path
from tau_coding.config.oauth.store import fresh_entry
print(fresh_entry(Path(sys.argv[1]), "anthropic", json.loads(sys.argv[2]))["access"])
"""


def test_two_processes_refreshing_at_once_make_one_refresh_request(
    auth_server: FakeAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "auth.json"
    auth_server.expires_in = 0
    _logged_in(auth_server, path)
    auth_server.expires_in, auth_server.token_delay = 3600, 0.5  # the refresh is slow: both wait
    env = json.dumps(login_env(auth_server))
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _REFRESH_IN_A_CHILD, str(path), env],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ},
        )
        for _ in range(2)
    ]
    outputs = [child.communicate(timeout=30) for child in children]
    assert [child.returncode for child in children] == [0, 0], outputs
    assert auth_server.refreshes == 1
    assert outputs[0][0] == outputs[1][0] == json.loads(path.read_text())["anthropic"]["access"] + "\n"
