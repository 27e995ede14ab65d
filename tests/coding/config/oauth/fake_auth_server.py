"""A local OAuth 2.0 authorization server for tests: real HTTP on 127.0.0.1, no network.

It serves the endpoints Tau's logins use, at the paths the real providers use, so one server
stands in for Anthropic (``/oauth/authorize``, ``/v1/oauth/token``), OpenAI
(``/oauth/authorize``, ``/oauth/token``) and GitHub (``/login/device/code``,
``/login/oauth/access_token``, ``/copilot_internal/v2/token``) and Google (``/o/oauth2/v2/auth``,
``/token``, Cloud Code Assist's ``/v1internal:loadCodeAssist`` and ``:onboardUser``). It checks what a real one
checks: the client id, the PKCE verifier against the challenge, the redirect URI, the refresh
token; and it can refuse (``access_denied``), keep a device code pending, revoke a refresh
token (``invalid_grant``) and issue tokens that are already expired.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def jwt_with_account(account: str, n: int) -> str:
    """An unsigned JWT carrying a ChatGPT account id, as OpenAI's access tokens do."""

    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": account}, "n": n}
    return f"{part({'alg': 'none'})}.{part(claims)}.sig"


@dataclass
class FakeAuthServer:
    """``with FakeAuthServer() as auth: ...`` then point ``TAU_*_OAUTH_URL`` at ``auth.url``."""

    refuse: bool = False  # the user says no: authorize and device polling answer access_denied
    pending_polls: int = 2  # device polls answered authorization_pending before success
    expires_in: int = 3600  # lifetime of issued access tokens (0 or less: already expired)
    token_delay: float = 0.0  # seconds the token endpoint takes (to overlap two refreshes)
    account: str = "acct-123"
    gemini_project: str | None = "proj-123"  # None: the account has none and is onboarded
    refreshes: int = 0
    token_requests: list[dict[str, Any]] = field(default_factory=list)
    revoked: set[str] = field(default_factory=set)
    issued_access: list[str] = field(default_factory=list)
    _codes: dict[str, tuple[str, str]] = field(default_factory=dict)
    _refresh_tokens: set[str] = field(default_factory=set)
    _github_tokens: set[str] = field(default_factory=set)
    _seen_github: set[str] = field(default_factory=set)
    _polls: int = 0
    _counter: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> FakeAuthServer:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                fake._get(self)

            def do_POST(self) -> None:
                fake._post(self)

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def revoke_all(self) -> None:
        self.revoked |= self._refresh_tokens | self._github_tokens

    # --- endpoints

    def _get(self, h: BaseHTTPRequestHandler) -> None:
        url = urllib.parse.urlsplit(h.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        if url.path in ("/oauth/authorize", "/o/oauth2/v2/auth"):
            self._authorize(h, query)
        elif url.path == "/copilot_internal/v2/token":
            token = h.headers.get("authorization", "").removeprefix("Bearer ")
            if token not in self._github_tokens or token in self.revoked:
                _send(h, 401, {"message": "Bad credentials"})
            elif h.headers.get("editor-version") is None:
                _send(h, 400, {"message": "missing Editor-Version"})
            else:
                with self._lock:
                    self.refreshes += 1 if token in self._seen_github else 0
                    self._seen_github.add(token)
                    access = f"tid=t{next(self._counter)};exp=1;proxy-ep=proxy.individual.example;sku=x"
                    self.issued_access.append(access)
                _send(h, 200, {"token": access, "expires_at": int(time.time()) + self.expires_in})
        else:
            _send(h, 404, {"error": "not_found"})

    def _authorize(self, h: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
        redirect = query.get("redirect_uri", "")
        if query.get("code_challenge_method") != "S256" or not query.get("client_id") or not redirect:
            _send(h, 400, {"error": "invalid_request"})
            return
        if self.refuse:
            params = {
                "error": "access_denied",
                "error_description": "The user said no",
                "state": query["state"],
            }
        else:
            code = f"code-{next(self._counter)}"
            self._codes[code] = (query["code_challenge"], redirect)
            params = {"code": code, "state": query.get("state", "")}
        h.send_response(302)
        h.send_header("location", f"{redirect}?{urllib.parse.urlencode(params)}")
        h.send_header("content-length", "0")
        h.end_headers()

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        raw = h.rfile.read(int(h.headers.get("content-length") or 0)).decode()
        if "json" in (h.headers.get("content-type") or ""):
            body = json.loads(raw)
        else:
            body = {k: v[0] for k, v in urllib.parse.parse_qs(raw).items()}
        path = urllib.parse.urlsplit(h.path).path
        if path in ("/oauth/token", "/v1/oauth/token", "/token"):
            self.token_requests.append(body)
            time.sleep(self.token_delay)
            if path == "/token" and body.get("client_secret") != "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":
                _send(h, 401, {"error": "invalid_client"})
                return
            status, answer = self._token(body, openai=path == "/oauth/token", google=path == "/token")
            _send(h, status, answer)
        elif path.startswith("/v1internal:"):
            if not h.headers.get("authorization", "").startswith("Bearer ya29."):
                _send(h, 401, {"error": {"message": "no token"}})
            elif path == "/v1internal:loadCodeAssist" and self.gemini_project:
                _send(
                    h,
                    200,
                    {"cloudaicompanionProject": self.gemini_project, "currentTier": {"id": "free-tier"}},
                )
            elif path == "/v1internal:loadCodeAssist":
                _send(h, 200, {"allowedTiers": [{"id": "free-tier", "isDefault": True}]})
            else:
                self._polls += 1
                done = self._polls > 1
                answer = {
                    "done": done,
                    **({"response": {"cloudaicompanionProject": {"id": "proj-free"}}} if done else {}),
                }
                _send(h, 200, answer)
        elif path == "/login/device/code":
            device = {"device_code": "dev-1", "user_code": "ABCD-1234", "interval": 0.05, "expires_in": 30}
            _send(h, 200, {**device, "verification_uri": f"{self.url}/login/device"})
        elif path == "/login/oauth/access_token":
            _send(h, 200, self._device_poll(body))
        else:
            _send(h, 404, {"error": "not_found"})

    def _token(
        self, body: dict[str, Any], *, openai: bool, google: bool = False
    ) -> tuple[int, dict[str, Any]]:
        grant = body.get("grant_type")
        with self._lock:
            if grant == "authorization_code":
                challenge, redirect = self._codes.pop(str(body.get("code")), ("", ""))
                verifier = str(body.get("code_verifier", ""))
                digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=")
                if not challenge or digest.decode() != challenge or body.get("redirect_uri") != redirect:
                    return 400, {"error": "invalid_grant", "error_description": "bad code or verifier"}
            elif grant == "refresh_token":
                token = str(body.get("refresh_token"))
                if token not in self._refresh_tokens or token in self.revoked:
                    return 400, {"error": "invalid_grant", "error_description": "refresh token revoked"}
                self._refresh_tokens.discard(token)  # rotated: the old one is spent
                self.refreshes += 1
            else:
                return 400, {"error": "unsupported_grant_type"}
            n = next(self._counter)
            access = jwt_with_account(self.account, n) if openai else f"sk-ant-oat01-access-{n}"
            if google:
                access = f"ya29.access-{n}"
            self.issued_access.append(access)
            answer = {"access_token": access, "expires_in": self.expires_in}
            if google and grant == "refresh_token":  # Google keeps the refresh token it gave
                self._refresh_tokens.add(str(body.get("refresh_token")))
                return 200, answer
            refresh = f"refresh-{n}"
            self._refresh_tokens.add(refresh)
        return 200, {**answer, "refresh_token": refresh}

    def _device_poll(self, body: dict[str, Any]) -> dict[str, Any]:
        if body.get("device_code") != "dev-1" or body.get("grant_type") != (
            "urn:ietf:params:oauth:grant-type:device_code"
        ):
            return {"error": "bad_verification_code"}
        with self._lock:
            self._polls += 1
            if self.refuse:
                return {"error": "access_denied", "error_description": "The user said no"}
            if self._polls <= self.pending_polls:
                return {"error": "authorization_pending"}
            token = f"gho_github-{next(self._counter)}"
            self._github_tokens.add(token)
        return {"access_token": token, "token_type": "bearer", "scope": "read:user"}


def _send(h: BaseHTTPRequestHandler, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    h.send_response(status)
    h.send_header("content-type", "application/json")
    h.send_header("content-length", str(len(data)))
    h.end_headers()
    h.wfile.write(data)
