"""Credentials: order of resolution, key commands, and auth.json written safely."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from tau_coding.config.auth import AuthError, AuthStore, KeyResolver, missing_key_message, resolve_api_key


def test_order_is_cli_then_auth_file_then_env_then_models_json(tmp_path: Path) -> None:
    auth = AuthStore(tmp_path / "auth.json")
    env = {"OPENAI_API_KEY": "from-env"}
    resolver = KeyResolver(env)
    assert (
        resolve_api_key("openai", cli_key=None, auth=auth, resolver=resolver, models_json_key="lit")
        == "from-env"
    )
    assert resolve_api_key("openai", cli_key="cli", auth=auth, resolver=resolver) == "cli"
    auth.set_api_key("openai", "stored")
    assert resolve_api_key("openai", cli_key=None, auth=AuthStore(auth.path), resolver=resolver) == "stored"
    empty = KeyResolver({})
    assert resolve_api_key("local", cli_key=None, auth=auth, resolver=empty, models_json_key="lit") == "lit"
    assert resolve_api_key("local", cli_key=None, auth=auth, resolver=empty) is None


def test_auth_file_is_private_and_keeps_other_entries(tmp_path: Path) -> None:
    path = tmp_path / "home" / "auth.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"anthropic": {"type": "oauth", "refresh": "r"}}))
    AuthStore(path).set_api_key("openai", "sk-1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = json.loads(path.read_text())
    assert data == {
        "anthropic": {"type": "oauth", "refresh": "r"},
        "openai": {"type": "api_key", "key": "sk-1"},
    }
    assert [p.name for p in path.parent.iterdir()] == ["auth.json"]  # no temp file left behind


def test_key_values_may_name_an_env_var_or_a_command(tmp_path: Path) -> None:
    resolver = KeyResolver({"MY_KEY": "from-var"})
    assert resolver.resolve("MY_KEY") == "from-var"
    assert resolver.resolve("sk-literal-123") == "sk-literal-123"
    marker = tmp_path / "ran"
    command = f"!echo secret && echo x >> {marker}"
    assert resolver.resolve(command) == "secret"
    assert resolver.resolve(command) == "secret"
    assert marker.read_text().count("x") == 1  # the command ran once for the process


def test_failing_key_command_is_a_clear_error() -> None:
    with pytest.raises(AuthError, match=r"key command failed \(exit 3\): echo nope >&2; exit 3: nope"):
        KeyResolver({}).resolve("!echo nope >&2; exit 3")


def test_malformed_auth_file_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    path.write_text("{oops")
    with pytest.raises(AuthError, match="invalid JSON at line 1 column 2"):
        AuthStore(path).api_key("openai")


def test_missing_key_message_says_how_to_fix_it() -> None:
    assert "set OPENAI_API_KEY" in missing_key_message("openai")
    assert "models.json" in missing_key_message("my-local")
