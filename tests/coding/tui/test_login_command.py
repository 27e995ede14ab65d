"""/login <subscription> in the TUI: the URL appears as a notice, the login completes in the
background, and the result is shown; against a local fake authorization server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.coding.config.oauth.conftest import browser_get, login_env
from tests.coding.config.oauth.fake_auth_server import FakeAuthServer

from .session_helpers import Rig
from .test_app import SIZE, until
from .test_session_screens import command, errors, make_app, notices


@pytest.fixture
def auth(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAuthServer]:
    with FakeAuthServer() as server:
        for name, value in login_env(server).items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("DISPLAY", raising=False)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        yield server


def _url(app: object) -> str | None:
    shown = [n for n in notices(app) if "Open: " in n]  # type: ignore[arg-type]
    return shown[-1].split("Open: ", 1)[1] if shown else None


async def test_login_to_a_subscription_from_the_tui(tmp_path: Path, auth: FakeAuthServer) -> None:
    rig = Rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/login github-copilot")
        await until(pilot, lambda: any("Enter the code ABCD-1234" in n for n in notices(app)))
        await until(pilot, lambda: any(n.startswith("Logged in to GitHub Copilot.") for n in notices(app)))
        assert json.loads(rig.auth_file.read_text())["github-copilot"]["type"] == "oauth"
        await command(pilot, app, "/login")
        await until(pilot, lambda: any("GitHub Copilot, logged in" in n for n in notices(app)))


async def test_a_refused_tui_login_is_an_error_line(tmp_path: Path, auth: FakeAuthServer) -> None:
    auth.refuse = True
    rig = Rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/login anthropic")
        await until(pilot, lambda: _url(app) is not None)
        threading.Thread(target=browser_get, args=(_url(app),), daemon=True).start()
        await until(pilot, lambda: any("login refused: access_denied" in e for e in errors(app)))
    assert not rig.auth_file.exists()
