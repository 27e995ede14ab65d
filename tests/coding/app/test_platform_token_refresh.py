"""A long session keeps its cloud sign-in valid: one process, several requests, short-lived
tokens from a local token endpoint, a model server that accepts only the newest token."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, ModelProvider, StreamOptions
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_ai.model import Model
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tau_coding.app.wiring import http_providers
from tau_coding.config.azure import API as AZURE
from tau_coding.config.azure import azure_model, entra_token
from tau_coding.config.cloud_token import MARGIN, Token
from tau_coding.config.platform_keys import PlatformKeys
from tau_coding.config.vertex import vertex_model, vertex_token
from tau_coding.session.reply_retry import RetrySettings

LIFETIME = MARGIN + 1  # seconds: a token is due for renewal one second after it is issued
UNAUTHORIZED = Scripted(401, {"content-type": "application/json"}, b'{"error":{"message":"token expired"}}')


class TokenEndpoint:
    """Issues ``tok-1``, ``tok-2``, ... as an OAuth token endpoint does; remembers the newest."""

    def __init__(self) -> None:
        self.issued: list[str] = []

    def respond(self, request: RecordedRequest, index: int) -> Scripted:
        self.issued.append(f"tok-{index + 1}")
        body = {"access_token": self.issued[-1], "token_type": "Bearer", "expires_in": LIFETIME}
        return Scripted(
            headers={"content-type": "application/json"}, body=json.dumps(body).encode(), chunked=False
        )


def fetcher(url: str) -> Token:
    with urllib.request.urlopen(urllib.request.Request(url, data=b"grant_type=client_credentials")) as answer:
        data = json.load(answer)
    return Token(data["access_token"], time.time() + data["expires_in"])


async def _ask(provider: ModelProvider) -> DoneEvent | ErrorEvent:
    last = None
    async for event in provider.stream(Context("", [UserMessage("hi")]), StreamOptions()):
        last = event
    assert isinstance(last, DoneEvent | ErrorEvent)
    return last


async def test_an_entra_token_is_renewed_before_expiry_and_after_a_401() -> None:
    tokens = TokenEndpoint()
    body = sse_body(AZURE, ScriptedReply(text="ok"))
    revoked: set[str] = set()

    def model_server(request: RecordedRequest, index: int) -> Scripted:
        bearer = request.headers.get("authorization", "")
        if not tokens.issued or bearer != f"Bearer {tokens.issued[-1]}" or bearer in revoked:
            return UNAUTHORIZED
        return Scripted(body=body)

    with ReplayServerThread(tokens.respond) as token_server, ReplayServerThread(model_server) as server:
        environ = {"AZURE_OPENAI_BASE_URL": f"{server.url}/openai/v1"}
        keys = PlatformKeys(environ, {AZURE: lambda env: entra_token(env, lambda: fetcher(token_server.url))})
        make = http_providers(RetrySettings(), None, keys.key, keys.invalidate)
        model = azure_model(Model("gpt-5", AZURE, AZURE, ""), environ)
        provider = make(model, keys.key(AZURE))
        assert (await _ask(provider)).message.text == "ok"  # tok-1
        assert (await _ask(provider)).message.text == "ok"  # tok-1 again: still fresh
        time.sleep(1.1)
        assert (await _ask(provider)).message.text == "ok"  # renewed before the request: tok-2
        revoked.add("Bearer tok-2")  # the server stops accepting it early
        assert (await _ask(provider)).message.text == "ok"  # 401, renewed, sent again: tok-3
        seen = [r.headers["authorization"] for r in server.requests]
    assert seen == ["Bearer tok-1", "Bearer tok-1", "Bearer tok-2", "Bearer tok-2", "Bearer tok-3"]
    assert tokens.issued == ["tok-1", "tok-2", "tok-3"]


async def test_a_second_401_is_final_and_said_in_one_line() -> None:
    tokens = TokenEndpoint()
    with ReplayServerThread(tokens.respond) as token_server, ReplayServerThread(UNAUTHORIZED) as server:
        environ = {"AZURE_OPENAI_BASE_URL": f"{server.url}/openai/v1"}
        keys = PlatformKeys(environ, {AZURE: lambda env: entra_token(env, lambda: fetcher(token_server.url))})
        make = http_providers(RetrySettings(), None, keys.key, keys.invalidate)
        provider = make(azure_model(Model("gpt-5", AZURE, AZURE, ""), environ), keys.key(AZURE))
        end = await _ask(provider)
        assert len(server.requests) == 2
    assert isinstance(end, ErrorEvent) and end.message.error_message == "HTTP 401: token expired"
    assert tokens.issued == ["tok-1", "tok-2"]


async def test_gclouds_token_file_is_read_again_for_each_request(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("ya29.first\n")
    body = sse_body("google-vertex", ScriptedReply(text="ok"))
    with ReplayServerThread(Scripted(body=body)) as server:
        environ = {
            "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE": str(token_file),
            "GOOGLE_CLOUD_PROJECT": "p",
            "GOOGLE_CLOUD_LOCATION": "us-central1",
        }
        keys = PlatformKeys(environ, {"google-vertex": vertex_token})
        make = http_providers(RetrySettings(), None, keys.key, keys.invalidate)
        model = vertex_model(Model("gemini-2.5-flash", "google-vertex", "google-vertex", server.url), environ)
        provider = make(model, keys.key("google-vertex"))
        await _ask(provider)
        token_file.write_text("ya29.second\n")  # gcloud refreshed it
        await _ask(provider)
        seen = [r.headers["authorization"] for r in server.requests]
    assert seen == ["Bearer ya29.first", "Bearer ya29.second"]
