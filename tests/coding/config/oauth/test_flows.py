"""Each login flow, end to end against a local fake authorization server."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tau_ai.apis.openai_codex import account_id
from tau_coding.config.oauth.flows import (
    LoginError,
    LoginHooks,
    LoginPrompt,
    RevokedLoginError,
    login,
    refresh,
)
from tau_coding.config.oauth.providers import login_providers
from tests.coding.config.oauth.conftest import browser_get, login_env
from tests.coding.config.oauth.fake_auth_server import FakeAuthServer


def _hooks(shown: list[LoginPrompt], *, browser: bool = True) -> LoginHooks:
    return LoginHooks(show=shown.append, open_url=browser_get if browser else lambda _url: None, timeout=10)


def _login(server: FakeAuthServer, provider: str, **kw: Any) -> tuple[dict[str, Any], list[LoginPrompt]]:
    env = login_env(server)
    shown: list[LoginPrompt] = []
    return login(login_providers(env)[provider], _hooks(shown, **kw), env), shown


def test_anthropic_login_exchanges_the_code_with_the_pkce_verifier(auth_server: FakeAuthServer) -> None:
    entry, shown = _login(auth_server, "anthropic")
    assert entry["type"] == "oauth" and entry["access"].startswith("sk-ant-oat01-")
    assert entry["refresh"].startswith("refresh-") and entry["expires"] > 0
    assert (
        shown[0].url.startswith(f"{auth_server.url}/oauth/authorize?") and "code_challenge=" in shown[0].url
    )
    sent = auth_server.token_requests[-1]
    assert (
        sent["grant_type"] == "authorization_code"
        and sent["client_id"] == "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
    )
    assert sent["code_verifier"] and "state" in sent  # Anthropic's token endpoint takes JSON with state


def test_chatgpt_login_keeps_the_account_id_from_the_token(auth_server: FakeAuthServer) -> None:
    auth_server.account = "acct-xyz"
    entry, _ = _login(auth_server, "openai-codex")
    assert entry["accountId"] == "acct-xyz" == account_id(entry["access"])
    assert auth_server.token_requests[-1]["client_id"] == "app_EMoamEEZ73f0CkXaXp7hrann"


def test_a_refused_authorization_says_so_in_one_line(auth_server: FakeAuthServer) -> None:
    auth_server.refuse = True
    with pytest.raises(
        LoginError, match=r"^Anthropic \(Claude Pro/Max\) login refused: access_denied"
    ) as err:
        _login(auth_server, "anthropic")
    assert "\n" not in str(err.value)
    assert auth_server.token_requests == []


def test_a_login_nobody_completes_times_out_and_can_be_cancelled(auth_server: FakeAuthServer) -> None:
    env = login_env(auth_server)
    cancelled = threading.Event()
    hooks = LoginHooks(show=lambda _p: cancelled.set(), cancelled=cancelled, timeout=10)
    with pytest.raises(LoginError, match="login cancelled"):
        login(login_providers(env)["openai-codex"], hooks, env)
    with pytest.raises(LoginError, match="login timed out"):
        login(login_providers(env)["openai-codex"], LoginHooks(show=lambda _p: None, timeout=0.3), env)


def test_copilot_device_login_polls_until_authorized_then_gets_a_copilot_token(
    auth_server: FakeAuthServer,
) -> None:
    auth_server.pending_polls = 3
    entry, shown = _login(auth_server, "github-copilot", browser=False)
    assert shown[0].user_code == "ABCD-1234" and "ABCD-1234" in shown[0].instructions
    assert entry["refresh"].startswith("gho_github-") and "proxy-ep=" in entry["access"]
    assert auth_server._polls == 4


def test_copilot_device_login_refused_says_why(auth_server: FakeAuthServer) -> None:
    auth_server.refuse = True
    with pytest.raises(LoginError, match=r"GitHub Copilot login refused: access_denied: The user said no"):
        _login(auth_server, "github-copilot", browser=False)


def test_gemini_cli_login_finds_the_code_assist_project(auth_server: FakeAuthServer) -> None:
    entry, shown = _login(auth_server, "google-gemini-cli")
    assert entry["access"].startswith("ya29.") and entry["projectId"] == "proj-123"
    assert "access_type=offline" in shown[0].url
    assert auth_server.token_requests[-1]["client_secret"] == "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"


def test_gemini_cli_login_onboards_an_account_without_a_project(auth_server: FakeAuthServer) -> None:
    auth_server.gemini_project = None
    entry, _ = _login(auth_server, "google-gemini-cli")
    assert entry["projectId"] == "proj-free" and auth_server._polls == 2


@pytest.mark.parametrize("provider", ["anthropic", "openai-codex", "github-copilot", "google-gemini-cli"])
def test_refresh_renews_and_a_revoked_grant_asks_to_log_in_again(
    auth_server: FakeAuthServer, provider: str
) -> None:
    entry, _ = _login(auth_server, provider, browser=provider != "github-copilot")
    spec = login_providers(login_env(auth_server))[provider]
    renewed = refresh(spec, entry)
    assert renewed["access"] != entry["access"] and auth_server.refreshes == 1
    auth_server.revoke_all()
    with pytest.raises(RevokedLoginError, match=rf"run `tau login {provider}` \(or /login\) again$"):
        refresh(spec, renewed)
