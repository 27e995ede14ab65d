"""OAuth for remote MCP servers: the SDK's ``OAuthClientProvider``, a loopback callback, a token file.

A streamable-HTTP server that answers 401 starts the SDK's flow (discovery, dynamic client
registration, PKCE). Tau shows the authorization URL in one line (and opens a browser when
there is a desktop to open it on); the browser comes back to ``http://127.0.0.1:PORT/callback``,
served here for the length of the connection. Tokens and the registered client are kept per
server URL in ``TAU_HOME/mcp-auth.json`` (0600, written atomically), beside ``auth.json`` but
apart from it, so that the model providers' entries and these never share a key; later
connections reuse (and refresh) them without a browser. Imported on the MCP thread only.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mcp.client.auth import OAuthClientProvider
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

from tau_agent.atomic_write import atomic_write_bytes

CALLBACK_PATH = "/callback"
_PAGE = b"<!doctype html><title>Tau</title><p>Tau is authorized. You can close this tab.</p>\n"


class FileTokenStorage:
    """The SDK's ``TokenStorage`` over one server's entry in the token file."""

    def __init__(self, path: Path, server_url: str, redirect_uri: str) -> None:
        self.path = path
        self.key = server_url
        self.redirect_uri = redirect_uri

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # missing or unreadable: as if empty (it is rewritten whole)
            return {}
        return data if isinstance(data, dict) else {}

    def _entry(self) -> dict[str, Any]:
        entry = self._load().get(self.key)
        return entry if isinstance(entry, dict) else {}

    def _update(self, field: str, value: dict[str, Any]) -> None:
        data = self._load()
        entry = data.get(self.key)
        data[self.key] = {**(entry if isinstance(entry, dict) else {}), field: value}
        atomic_write_bytes(self.path, (json.dumps(data, indent=2) + "\n").encode(), mode=0o600)

    async def get_tokens(self) -> OAuthToken | None:
        tokens = self._entry().get("tokens")
        try:
            return OAuthToken.model_validate(tokens) if tokens else None
        except ValueError:
            return None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self._update("tokens", tokens.model_dump(mode="json", exclude_none=True))

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        client = self._entry().get("client")
        try:
            info = OAuthClientInformationFull.model_validate(client) if client else None
        except ValueError:
            return None
        # Registered for another run's callback port: register again rather than be refused.
        if info is not None and [str(u) for u in info.redirect_uris or ()] != [self.redirect_uri]:
            return None
        return info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._update("client", client_info.model_dump(mode="json", exclude_none=True))


class LoopbackCallback:
    """A one-request HTTP server on 127.0.0.1 that receives the authorization redirect."""

    def __init__(self) -> None:
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[AuthorizationCodeResult] | None = None
        self.redirect_uri = ""

    async def start(self) -> str:
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.redirect_uri = f"http://127.0.0.1:{port}{CALLBACK_PATH}"
        return self.redirect_uri

    async def wait(self) -> AuthorizationCodeResult:
        assert self._result is not None
        result = await self._result
        self._result = asyncio.get_running_loop().create_future()  # ready for a later flow
        return result

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1").split()
            target = urlsplit(request[1]) if len(request) >= 2 else urlsplit("/")
            query = {k: v[0] for k, v in parse_qs(target.query).items()}
            ok = target.path == CALLBACK_PATH and "code" in query
            writer.write(
                (b"HTTP/1.1 200 OK\r\n" if ok else b"HTTP/1.1 400 Bad Request\r\n")
                + b"Content-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n"
                + (_PAGE if ok else b"Not an authorization callback.\n")
            )
            await writer.drain()
            if target.path == CALLBACK_PATH and self._result is not None and not self._result.done():
                if ok:
                    self._result.set_result(
                        AuthorizationCodeResult(
                            code=query["code"], state=query.get("state"), iss=query.get("iss")
                        )
                    )
                else:
                    error = query.get("error_description") or query.get("error") or "no code"
                    self._result.set_exception(PermissionError(f"authorization refused: {error}"))
        except (OSError, TimeoutError, UnicodeDecodeError):
            pass
        finally:
            writer.close()


async def oauth_provider(
    server_url: str, callback: LoopbackCallback, token_file: Path, open_url: Callable[[str], object]
) -> OAuthClientProvider:
    """The SDK's OAuth client for ``server_url``; ``callback`` must be started (and later closed)."""

    async def redirect(url: str) -> None:
        open_url(url)

    metadata = OAuthClientMetadata.model_validate(
        {
            "client_name": "Tau",
            "redirect_uris": [callback.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",  # a public client: PKCE, no secret
        }
    )
    storage = FileTokenStorage(token_file, server_url, callback.redirect_uri)
    return OAuthClientProvider(server_url, metadata, storage, redirect, callback.wait)
