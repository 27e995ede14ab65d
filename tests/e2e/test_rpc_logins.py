"""Logins over RPC: ``get_logins``, ``login`` (with its ``login_url`` event), ``logout``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tau_coding.sdk.rpc_client import RpcClient, RpcError
from tests.coding.config.oauth.conftest import browser_get, login_env
from tests.coding.config.oauth.fake_auth_server import FakeAuthServer
from tests.e2e.rpc_project import MODEL, configure_two_models, make_project
from tests.e2e.scripted_project import Project
from tests.e2e.test_login_end_to_end import model_server


def _logged_in(providers: list[dict[str, object]]) -> set[object]:
    return {p["id"] for p in providers if p["loggedIn"]}


async def _start(project: Project, auth: FakeAuthServer) -> RpcClient:
    env = {**project.env(), **login_env(auth)}
    env.pop("DISPLAY", None)
    return await RpcClient.start(["--model", MODEL], cwd=project.root, env=env)


async def _login(tau: RpcClient, provider: str) -> object:
    answer = asyncio.ensure_future(tau.request("login", provider=provider))
    shown = (await tau.wait_for("login_url"))[-1]
    assert shown["provider"] == provider and shown["instructions"]
    await asyncio.to_thread(browser_get, str(shown["url"]))
    return await asyncio.wait_for(answer, 30)


async def test_login_over_rpc_then_the_session_uses_it(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    auth_file = project.tau_home / "auth.json"
    with FakeAuthServer() as auth:
        token = lambda: json.loads((project.tau_home / "auth.json").read_text())["anthropic"]["access"]  # noqa: E731
        async with model_server("anthropic-messages", token, "Signed in.") as srv:
            configure_two_models(project, "http://127.0.0.1:9")
            models = json.loads((project.tau_home / "models.json").read_text())
            models["providers"]["anthropic"] = {"baseUrl": srv.url}
            (project.tau_home / "models.json").write_text(json.dumps(models))
            async with await _start(project, auth) as tau:
                listed = await tau.request("get_logins")
                assert {p["id"] for p in listed["providers"]} == {
                    "anthropic",
                    "openai-codex",
                    "github-copilot",
                    "google-gemini-cli",
                }
                assert _logged_in(listed["providers"]) == set()
                assert await _login(tau, "anthropic") == {"provider": "anthropic"}
                assert _logged_in((await tau.request("get_logins"))["providers"]) == {"anthropic"}
                await tau.set_model("anthropic", "claude-sonnet-4-5")
                await tau.prompt_and_wait("hi")
                assert await tau.get_last_assistant_text() == "Signed in."
                # the token expires during the session: the next request refreshes it first
                stored = json.loads(auth_file.read_text())
                stored["anthropic"]["expires"] = 0
                auth_file.write_text(json.dumps(stored))
                await tau.prompt_and_wait("again")
                assert await tau.get_last_assistant_text() == "Signed in."
                assert (
                    auth.refreshes == 1 and srv.requests[-1].headers["authorization"] == f"Bearer {token()}"
                )
                assert await tau.request("logout", provider="anthropic") == {"provider": "anthropic"}
                assert _logged_in((await tau.request("get_logins"))["providers"]) == set()
                with pytest.raises(RpcError, match="No credentials for 'anthropic'"):
                    await tau.request("logout", provider="anthropic")


async def test_a_refused_rpc_login_is_the_commands_one_line_error(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    configure_two_models(project, "http://127.0.0.1:9")
    with FakeAuthServer(refuse=True) as auth:
        async with await _start(project, auth) as tau:
            with pytest.raises(
                RpcError, match=r"^login: ChatGPT Plus/Pro \(Codex\) login refused: access_denied"
            ):
                await _login(tau, "openai-codex")
            with pytest.raises(RpcError, match="Unknown login provider 'nope'"):
                await tau.request("login", provider="nope")
    assert not (project.tau_home / "auth.json").exists()


async def test_abort_login_cancels_the_wait_for_the_browser(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    configure_two_models(project, "http://127.0.0.1:9")
    with FakeAuthServer() as auth:
        async with await _start(project, auth) as tau:
            answer = asyncio.ensure_future(tau.request("login", provider="anthropic"))
            await tau.wait_for("login_url")
            with pytest.raises(RpcError, match="A login is already running"):
                await tau.request("login", provider="openai-codex")
            await tau.request("abort_login")
            with pytest.raises(RpcError, match="login cancelled"):
                await asyncio.wait_for(answer, 30)
