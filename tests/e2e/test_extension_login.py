"""An extension's own provider login (``examples/extensions/sso_provider.py``): ``tau login``
lists and runs it against a local fake authorization server, and ``tau -p`` then sends the
stored access token to the provider's local model server. No network."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.coding.config.oauth.fake_auth_server import FakeAuthServer
from tests.e2e.test_login_end_to_end import LoginProject, model_server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "extensions" / "sso_provider.py"


class CorpProject(LoginProject):
    model_url = "http://127.0.0.1:9/v1"

    def env(self) -> dict[str, str]:
        return {**super().env(), "CORP_SSO_URL": self.auth_server.url, "CORP_AI_URL": self.model_url}


@pytest.fixture
def corp(tmp_path: Path) -> CorpProject:
    root = tmp_path / "project"
    root.mkdir()
    made = CorpProject(root, tmp_path / "home", "")
    made.auth_server = FakeAuthServer().__enter__()
    (made.tau_home / "extensions").mkdir(parents=True)
    shutil.copy(EXAMPLE, made.tau_home / "extensions" / "sso_provider.py")
    yield made
    made.auth_server.__exit__(None, None, None)


async def test_tau_login_runs_the_extensions_login_and_the_provider_sends_its_token(
    corp: CorpProject,
) -> None:
    listed = await corp.tau("login")
    assert listed.code == 0 and "corp" in listed.stdout and "Corp AI (SSO)" in listed.stdout
    logged = await corp.login("corp")
    assert logged.code == 0, logged.stderr
    assert "Logged in to Corp AI (SSO)" in logged.stdout
    request = corp.auth_server.token_requests[0]
    assert request["client_id"] == "tau-corp-example"
    async with model_server(
        "openai-completions", lambda: corp.access_token("corp"), "Hello, colleague."
    ) as srv:
        corp.model_url = f"{srv.url}/v1"
        result = await corp.tau("-p", "--model", "corp/corp-1", "hi")
    assert (result.code, result.stdout) == (0, "Hello, colleague.\n"), result.stderr
    assert srv.requests[0].headers["authorization"] == f"Bearer {corp.access_token('corp')}"
