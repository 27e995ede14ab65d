"""Running a login (authorization code + PKCE, or device code) and refreshing its tokens.

Blocking calls, meant for a worker thread or the CLI. The browser is a seam (``open_url``):
the CLI passes ``webbrowser.open``, tests perform the browser's GET themselves. Every failure
is a ``LoginError`` whose message is one line saying why; nothing here writes a file.
"""

from __future__ import annotations

import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tau_coding.config.oauth.http import OAuthHttpError, request_json
from tau_coding.config.oauth.loopback import CallbackServer
from tau_coding.config.oauth.pkce import Pkce
from tau_coding.config.oauth.providers import LoginProvider, callback_port

EXPIRY_MARGIN_MS = 5 * 60 * 1000  # stored expiry is early by this much, as Pi stores it
LOGIN_TIMEOUT = 300.0
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


class LoginError(Exception):
    """A login or refresh failed; ``str`` is one line for the user."""


class RevokedLoginError(LoginError):
    """The stored refresh token is no longer accepted: the user must log in again."""


@dataclass(frozen=True, slots=True)
class LoginPrompt:
    """What the user must do: open ``url`` (and, for a device code, enter ``user_code``)."""

    url: str
    instructions: str
    user_code: str | None = None


@dataclass(frozen=True, slots=True)
class LoginHooks:
    """How a flow talks to its caller: ``show`` the prompt, ``progress`` lines, ``open_url``."""

    show: Callable[[LoginPrompt], object]
    progress: Callable[[str], object] = lambda _line: None
    open_url: Callable[[str], object] = lambda _url: None
    cancelled: threading.Event | None = None
    timeout: float = LOGIN_TIMEOUT


def now_ms() -> int:
    return int(time.time() * 1000)


def login(provider: LoginProvider, hooks: LoginHooks, environ: Mapping[str, str]) -> dict[str, Any]:
    """Run ``provider``'s login; returns the auth.json entry (``{"type": "oauth", ...}``)."""
    try:
        if provider.flow == "device":
            return _device_login(provider, hooks)
        return _pkce_login(provider, hooks, environ)
    except OAuthHttpError as exc:
        raise LoginError(f"{provider.name} login failed: {exc}") from exc


def refresh(provider: LoginProvider, entry: Mapping[str, Any]) -> dict[str, Any]:
    """New tokens for a stored entry; RevokedLoginError when the grant is no longer valid."""
    token = entry.get("refresh")
    if not isinstance(token, str) or not token:
        raise RevokedLoginError(_again(provider, "has no refresh token"))
    try:
        if provider.exchange_url:
            return _copilot_token(provider, token, entry)
        data = _token_request(provider, {"grant_type": "refresh_token", "refresh_token": token})
    except OAuthHttpError as exc:
        if exc.error == "invalid_grant" or exc.status in (401, 403):
            raise RevokedLoginError(_again(provider, "was revoked or has expired")) from exc
        raise LoginError(f"cannot refresh the {provider.name} login: {exc}") from exc
    return _entry(provider, data, previous_refresh=token)


def _again(provider: LoginProvider, what: str) -> str:
    return f"the {provider.name} login {what}: run `tau login {provider.id}` (or /login) again"


def _pkce_login(provider: LoginProvider, hooks: LoginHooks, environ: Mapping[str, str]) -> dict[str, Any]:
    pkce = Pkce.new()
    cancelled = hooks.cancelled or threading.Event()
    try:
        server = CallbackServer(callback_port(provider, environ), provider.callback_path, pkce.state)
    except OSError as exc:
        port = callback_port(provider, environ)
        raise LoginError(
            f"{provider.name} login needs port {port} on 127.0.0.1: {exc.strerror or exc}"
        ) from exc
    with server:
        redirect = provider.redirect_uri(server.port)
        query = {
            **provider.extra_authorize,
            "response_type": "code",
            "client_id": provider.client_id,
            "redirect_uri": redirect,
            "scope": provider.scopes,
            "code_challenge": pkce.challenge,
            "code_challenge_method": "S256",
            "state": pkce.state,
        }
        url = f"{provider.authorize_url}?{urllib.parse.urlencode(query)}"
        hooks.show(LoginPrompt(url, "Complete the login in your browser."))
        hooks.open_url(url)
        callback = server.wait(hooks.timeout, cancelled)
    if callback is None:
        raise LoginError(f"{provider.name} login " + ("cancelled" if cancelled.is_set() else "timed out"))
    if callback.error or not callback.code:
        raise LoginError(f"{provider.name} login refused: {callback.error}")
    hooks.progress("Exchanging the authorization code for tokens…")
    body = {"grant_type": "authorization_code", "code": callback.code, "redirect_uri": redirect}
    body["code_verifier"] = pkce.verifier
    if provider.token_format == "json":
        body["state"] = pkce.state
    entry = _entry(provider, _token_request(provider, body))
    if provider.project_url:
        from tau_coding.config.oauth.code_assist import ProjectError, discover_project

        hooks.progress("Finding your Cloud Code Assist project…")
        try:
            entry["projectId"] = discover_project(
                provider.project_url, entry["access"], environ, hooks.progress
            )
        except ProjectError as exc:
            raise LoginError(f"{provider.name} login: {exc}") from exc
    return entry


def _token_request(provider: LoginProvider, fields: Mapping[str, str]) -> dict[str, Any]:
    body = {**fields, "client_id": provider.client_id}
    if provider.client_secret:
        body["client_secret"] = provider.client_secret
    if provider.token_format == "json":
        return request_json(provider.token_url, json_body=body)
    return request_json(provider.token_url, form=body)


def _entry(provider: LoginProvider, data: Mapping[str, Any], previous_refresh: str = "") -> dict[str, Any]:
    access, expires_in = data.get("access_token"), data.get("expires_in")
    refresh_token = data.get("refresh_token") or previous_refresh
    if (
        not isinstance(access, str)
        or not isinstance(refresh_token, str)
        or not isinstance(expires_in, int | float)
    ):
        raise LoginError(
            f"{provider.name} token endpoint answered without access_token/refresh_token/expires_in"
        )
    entry: dict[str, Any] = {
        "type": "oauth",
        "refresh": refresh_token,
        "access": access,
        "expires": now_ms() + int(expires_in * 1000) - EXPIRY_MARGIN_MS,
    }
    if provider.id == "openai-codex":
        from tau_ai.apis.openai_codex import account_id

        account = account_id(access)
        if account is None:
            raise LoginError("ChatGPT login: the access token names no ChatGPT account")
        entry["accountId"] = account
    return entry


def _device_login(provider: LoginProvider, hooks: LoginHooks) -> dict[str, Any]:
    cancelled = hooks.cancelled or threading.Event()
    device = request_json(
        provider.authorize_url,
        form={"client_id": provider.client_id, "scope": provider.scopes},
        headers={"user-agent": provider.headers.get("User-Agent", "tau")},
    )
    code, user_code, uri = device.get("device_code"), device.get("user_code"), device.get("verification_uri")
    if not (isinstance(code, str) and isinstance(user_code, str) and isinstance(uri, str)):
        raise LoginError(f"{provider.name} device-code answer lacks device_code/user_code/verification_uri")
    interval = float(device.get("interval") or 5)
    deadline = time.monotonic() + min(float(device.get("expires_in") or hooks.timeout), hooks.timeout)
    hooks.show(LoginPrompt(uri, f"Enter the code {user_code} at {uri}", user_code))
    hooks.open_url(uri)
    while time.monotonic() < deadline:
        if cancelled.wait(interval):
            raise LoginError(f"{provider.name} login cancelled")
        answer = request_json(
            provider.token_url,
            form={"client_id": provider.client_id, "device_code": code, "grant_type": DEVICE_GRANT},
            headers={"user-agent": provider.headers.get("User-Agent", "tau")},
            accept_error_body=True,
        )
        token = answer.get("access_token")
        if isinstance(token, str) and token:
            hooks.progress("Authorized; fetching a Copilot token…")
            return _copilot_token(provider, token, {})
        error = answer.get("error")
        if error == "authorization_pending":
            continue
        if error == "slow_down":
            interval = float(answer.get("interval") or interval + 5)
            continue
        described = answer.get("error_description")
        raise LoginError(f"{provider.name} login refused: {error}" + (f": {described}" if described else ""))
    raise LoginError(f"{provider.name} login timed out: the device code expired")


def _copilot_token(provider: LoginProvider, github_token: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    data = request_json(
        provider.exchange_url, headers={"authorization": f"Bearer {github_token}", **provider.headers}
    )
    token, expires_at = data.get("token"), data.get("expires_at")
    if not isinstance(token, str) or not isinstance(expires_at, int | float):
        raise LoginError(f"{provider.name} token answer lacks token/expires_at")
    out: dict[str, Any] = {
        "type": "oauth",
        "refresh": github_token,
        "access": token,
        "expires": int(expires_at * 1000) - EXPIRY_MARGIN_MS,
    }
    if entry.get("enterpriseUrl"):
        out["enterpriseUrl"] = entry["enterpriseUrl"]
    return out
