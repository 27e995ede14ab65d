"""HttpProvider over HTTPS: every real provider is reached over TLS, through Tau's own transport.

A certificate for 127.0.0.1 is made with the openssl program; the client trusts it only when
SSL_CERT_FILE names it, as a user behind a corporate CA would set it.
"""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import pytest

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import NO_RETRY
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl program")
CONTEXT = Context("", [UserMessage("hi")])


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


async def final_of(p: HttpProvider) -> DoneEvent | ErrorEvent:
    async for event in p.stream(CONTEXT, StreamOptions()):
        if isinstance(event, DoneEvent | ErrorEvent):
            return event
    raise AssertionError("no final event")


async def test_a_trusted_https_server_streams_and_keeps_its_connection(
    certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = certificate
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    body = toy_text_stream(["sec", "ure"])
    async with ReplayServer(
        Scripted(body=body, chunk_size=7), keep_alive=True, tls=server_context(cert, key)
    ) as srv:
        assert srv.url.startswith("https://")
        p = HttpProvider(toy_model(srv.url), TOY_WIRE, api_key="k", retry=NO_RETRY)
        for _ in range(3):
            event = await final_of(p)
            assert isinstance(event, DoneEvent), event.message.error_message
            assert event.message.text == "secure"
        await p.aclose()
    assert srv.connections == 1


async def test_an_untrusted_certificate_is_refused_in_one_line(
    certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = certificate
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    async with ReplayServer(Scripted(body=toy_text_stream(["x"])), tls=server_context(cert, key)) as srv:
        p = HttpProvider(toy_model(srv.url), TOY_WIRE, api_key="k", retry=NO_RETRY)
        event = await final_of(p)
        await p.aclose()
    assert event.message.stop_reason == "error" and event.message.content == []
    text = event.message.error_message or ""
    assert "CERTIFICATE_VERIFY_FAILED" in text and "\n" not in text
    assert srv.requests == []
