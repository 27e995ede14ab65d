"""``tau login`` then ``tau -p`` with the stored login, against a local fake authorization server
and a local model server that accepts only the login's current access token. No network."""

from __future__ import annotations

import asyncio
import json
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import RecordedRequest, ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.coding.config.oauth.conftest import browser_get, login_env
from tests.coding.config.oauth.fake_auth_server import FakeAuthServer
from tests.e2e.scripted_project import Project, Result

# provider -> (model to run, the wire API its model server speaks, the path it is asked at)
CASES = {
    "anthropic": ("anthropic/claude-sonnet-4-5", "anthropic-messages", "/v1/messages"),
    "openai-codex": ("openai-codex/gpt-5.1", "openai-responses", "/codex/responses"),
    "github-copilot": ("github-copilot/gpt-4.1", "openai-completions", "/chat/completions"),
    "google-gemini-cli": (
        "google-gemini-cli/gemini-2.5-pro",
        "google-gemini-cli",
        "/v1internal:streamGenerateContent?alt=sse",
    ),
}


class LoginProject(Project):
    auth_server: FakeAuthServer

    @property
    def auth_file(self) -> Path:
        return self.tau_home / "auth.json"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in super().env().items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        return {**env, **login_env(self.auth_server)}

    def route(self, provider: str, url: str) -> None:
        self.tau_home.mkdir(parents=True, exist_ok=True)
        (self.tau_home / "models.json").write_text(json.dumps({"providers": {provider: {"baseUrl": url}}}))

    def access_token(self, provider: str) -> str:
        return str(json.loads(self.auth_file.read_text())[provider]["access"])

    async def login(self, provider: str, *, browser: bool = True) -> Result:
        """``tau login``, doing what the user's browser would with the URL it prints."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tau_coding", "login", provider,
            cwd=self.root, env=self.env(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stdout is not None and process.stderr is not None
        lines: list[str] = []
        while line := (await asyncio.wait_for(process.stdout.readline(), 30)).decode():
            lines.append(line)
            if line.startswith("Open this URL: ") and browser:
                await asyncio.to_thread(browser_get, line.removeprefix("Open this URL: ").strip())
        err = await process.stderr.read()
        await process.wait()
        assert process.returncode is not None
        return Result(process.returncode, "".join(lines), err.decode())


@pytest.fixture
def project(tmp_path: Path) -> LoginProject:
    root = tmp_path / "project"
    root.mkdir()
    made = LoginProject(root, tmp_path / "home", "")
    made.auth_server = FakeAuthServer().__enter__()
    return made


@pytest.fixture(autouse=True)
def _stop_auth_server(project: LoginProject) -> object:
    yield
    project.auth_server.__exit__(None, None, None)


def model_server(api: str, token: Callable[[], str], text: str) -> ReplayServer:
    """Answers ``text`` to a request bearing the current token, 401 to any other."""

    def respond(request: RecordedRequest, _index: int) -> Scripted:
        if request.headers.get("authorization") != f"Bearer {token()}":
            body = b'{"error": {"type": "authentication_error", "message": "invalid bearer token"}}'
            return Scripted(401, {"content-type": "application/json"}, body)
        if api == "google-gemini-cli":  # Gemini's stream, each event in Code Assist's envelope
            lines = sse_body("google-generative-ai", ScriptedReply(text=text)).decode().split("\n")
            wrapped = [
                f"data: {json.dumps({'response': json.loads(line[6:])})}"
                if line.startswith("data: ")
                else line
                for line in lines
            ]
            return Scripted(body="\n".join(wrapped).encode())
        return Scripted(body=sse_body(api, ScriptedReply(text=text)))

    return ReplayServer(respond)


@pytest.mark.parametrize("provider", list(CASES))
async def test_login_then_a_prompt_runs_on_the_subscription(project: LoginProject, provider: str) -> None:
    model, api, path = CASES[provider]
    logged = await project.login(provider, browser=provider != "github-copilot")
    assert logged.code == 0, logged.stderr
    assert "Logged in to" in logged.stdout and "Open this URL: " in logged.stdout
    if provider == "github-copilot":
        assert "Enter the code ABCD-1234" in logged.stdout
    assert stat.S_IMODE(project.auth_file.stat().st_mode) == 0o600
    assert json.loads(project.auth_file.read_text())[provider]["type"] == "oauth"

    async with model_server(api, lambda: project.access_token(provider), "Hello, subscriber.") as srv:
        project.route(provider, srv.url)
        result = await project.tau("-p", "--model", model, "hi")
    assert (result.code, result.stdout) == (0, "Hello, subscriber.\n"), result.stderr
    sent = srv.requests[0]
    assert sent.path.endswith(path)
    if provider == "anthropic":
        assert "oauth-2025-04-20" in sent.headers["anthropic-beta"]
        assert sent.json()["system"][0]["text"] == "You are Claude Code, Anthropic's official CLI for Claude."
    elif provider == "google-gemini-cli":
        assert sent.json()["project"] == "proj-123" and sent.json()["request"]["contents"]
    elif provider == "openai-codex":
        assert sent.headers["chatgpt-account-id"] == "acct-123"
        assert "instructions" in sent.json()
    else:
        assert sent.headers["editor-version"] == "vscode/1.107.0"
        assert sent.headers["copilot-integration-id"] == "vscode-chat"


async def test_an_expired_login_is_refreshed_before_the_request(project: LoginProject) -> None:
    project.auth_server.expires_in = 0
    assert (await project.login("anthropic")).code == 0
    old = project.access_token("anthropic")
    project.auth_server.expires_in = 3600
    async with model_server("anthropic-messages", lambda: project.access_token("anthropic"), "Fresh.") as srv:
        project.route("anthropic", srv.url)
        result = await project.tau("-p", "--model", "anthropic/claude-sonnet-4-5", "hi")
    assert (result.code, result.stdout) == (0, "Fresh.\n"), result.stderr
    assert project.access_token("anthropic") != old and project.auth_server.refreshes == 1


async def test_a_revoked_login_says_to_log_in_again_and_keeps_auth_json(project: LoginProject) -> None:
    project.auth_server.expires_in = 0
    assert (await project.login("openai-codex")).code == 0
    project.auth_server.revoke_all()
    before = project.auth_file.read_bytes()
    result = await project.tau("-p", "--model", "openai-codex/gpt-5.1", "hi")
    assert result.code == 2 and result.stdout == ""
    assert result.stderr == (
        "tau: the ChatGPT Plus/Pro (Codex) login was revoked or has expired: "
        "run `tau login openai-codex` (or /login) again\n"
    )
    assert project.auth_file.read_bytes() == before


async def test_a_refused_login_fails_in_one_line_and_stores_nothing(project: LoginProject) -> None:
    project.tau_home.mkdir(parents=True)
    project.auth_file.write_text('{"openai": {"type": "api_key", "key": "sk-keep"}}\n')
    before = project.auth_file.read_bytes()
    project.auth_server.refuse = True
    result = await project.login("anthropic")
    assert result.code == 1
    assert result.stderr == "tau: Anthropic (Claude Pro/Max) login refused: access_denied: The user said no\n"
    assert project.auth_file.read_bytes() == before


async def test_logout_forgets_the_login(project: LoginProject) -> None:
    assert (await project.login("anthropic")).code == 0
    listed = await project.tau("login")
    assert "anthropic" in listed.stdout and "(logged in)" in listed.stdout
    out = await project.tau("logout", "anthropic")
    assert (out.code, out.stdout) == (0, "Logged out of anthropic\n")
    assert json.loads(project.auth_file.read_text()) == {}
    result = await project.tau("-p", "--model", "anthropic/claude-sonnet-4-5", "hi")
    assert result.code == 2 and "run `tau login anthropic`" in result.stderr
