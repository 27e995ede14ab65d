"""A fake authorization server and the environment that points Tau's logins at it."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from tests.coding.config.oauth.fake_auth_server import FakeAuthServer


@pytest.fixture
def auth_server() -> Iterator[FakeAuthServer]:
    with FakeAuthServer() as server:
        yield server


def login_env(server: FakeAuthServer) -> dict[str, str]:
    return {
        "TAU_ANTHROPIC_OAUTH_URL": server.url,
        "TAU_OPENAI_CODEX_OAUTH_URL": server.url,
        "TAU_GITHUB_OAUTH_URL": server.url,
        "TAU_GOOGLE_OAUTH_URL": server.url,
        "TAU_GOOGLE_CODE_ASSIST_URL": server.url,
        "TAU_OAUTH_CALLBACK_PORT": "0",
    }


def browser_get(url: str) -> None:
    """What the user's browser does: open the authorize URL and follow the redirect back."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            response.read()
    except urllib.error.HTTPError as exc:  # the callback page says the login failed: still a visit
        exc.read()
