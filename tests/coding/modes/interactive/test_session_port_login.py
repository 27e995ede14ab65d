"""/login's subscription logins through the TUI's port, against a local fake authorization server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.coding.config.oauth.conftest import browser_get, login_env
from tests.coding.config.oauth.fake_auth_server import FakeAuthServer
from tests.coding.tui.session_helpers import Rig


@pytest.fixture
def auth(monkeypatch: pytest.MonkeyPatch) -> object:
    with FakeAuthServer() as server:
        for name, value in login_env(server).items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("DISPLAY", raising=False)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        yield server


async def test_a_subscription_login_shows_the_url_then_stores_the_tokens(
    tmp_path: Path, auth: object
) -> None:
    rig = Rig(tmp_path)
    assert [(name, on) for name, _, on in rig.port.subscription_logins()] == [
        ("anthropic", False),
        ("openai-codex", False),
        ("github-copilot", False),
        ("google-gemini-cli", False),
    ]
    shown: list[str] = []

    def show(line: str) -> None:
        shown.append(line)
        if "Open: " in line:  # the user's browser follows the link
            asyncio.get_running_loop().run_in_executor(None, browser_get, line.split("Open: ", 1)[1])

    result = await rig.port.subscription_login("anthropic", show)
    assert not result.is_error and result.message.startswith("Logged in to Anthropic (Claude Pro/Max).")
    assert json.loads(rig.auth_file.read_text())["anthropic"]["type"] == "oauth"
    assert ("anthropic", True) in [(name, on) for name, _, on in rig.port.subscription_logins()]
    assert not rig.port.logout("anthropic").is_error
    assert json.loads(rig.auth_file.read_text()) == {}


async def test_a_refused_subscription_login_is_one_line(tmp_path: Path, auth: FakeAuthServer) -> None:
    auth.refuse = True
    rig = Rig(tmp_path)

    def show(line: str) -> None:
        if "Open: " in line:
            asyncio.get_running_loop().run_in_executor(None, browser_get, line.split("Open: ", 1)[1])

    result = await rig.port.subscription_login("openai-codex", show)
    assert result.is_error and result.message == (
        "ChatGPT Plus/Pro (Codex) login refused: access_denied: The user said no"
    )
    assert not rig.auth_file.exists()


async def test_leaving_during_a_login_cancels_it(tmp_path: Path, auth: object) -> None:
    rig = Rig(tmp_path)
    task = asyncio.ensure_future(rig.port.subscription_login("anthropic", lambda _line: None))
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    assert not rig.auth_file.exists()
