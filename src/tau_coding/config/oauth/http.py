"""The few HTTP calls a login makes (standard library only: logins run before any session).

Every failure is an ``OAuthHttpError`` carrying the status and the server's OAuth ``error``
code when the body has one, so callers can tell a refused or revoked grant from a network fault.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

TIMEOUT = 30.0


class OAuthHttpError(Exception):
    """An OAuth endpoint answered with an error or could not be reached; ``str`` is one line."""

    def __init__(self, message: str, *, status: int | None = None, error: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.error = error


def request_json(
    url: str,
    *,
    form: Mapping[str, str] | None = None,
    json_body: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    accept_error_body: bool = False,
) -> dict[str, Any]:
    """POST ``form`` or ``json_body`` (GET when neither) and return the JSON object answered.

    With ``accept_error_body`` a 4xx answer whose body is a JSON object is returned instead of
    raised (the device flow reads ``authorization_pending`` that way).
    """
    sent = {"accept": "application/json", **(headers or {})}
    data: bytes | None = None
    if form is not None:
        data = urllib.parse.urlencode(dict(form)).encode()
        sent["content-type"] = "application/x-www-form-urlencoded"
    elif json_body is not None:
        data = json.dumps(dict(json_body)).encode()
        sent["content-type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=sent, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            body = response.read()
            status = int(response.status)
    except urllib.error.HTTPError as exc:
        body, status = exc.read(), exc.code
        parsed = _object(body)
        if accept_error_body and parsed is not None and status < 500:
            return parsed
        error = str(parsed.get("error")) if parsed and isinstance(parsed.get("error"), str) else None
        detail = _detail(parsed) if parsed else body[:200].decode("utf-8", "replace").strip()
        raise OAuthHttpError(f"{_host(url)} answered {status}: {detail}", status=status, error=error) from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise OAuthHttpError(f"cannot reach {_host(url)}: {reason}") from exc
    parsed = _object(body)
    if parsed is None:
        raise OAuthHttpError(f"{_host(url)} answered {status} without a JSON object", status=status)
    return parsed


def _object(body: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _detail(parsed: Mapping[str, Any]) -> str:
    error = parsed.get("error")
    if isinstance(error, Mapping):  # Anthropic's {"error": {"type", "message"}}
        error = error.get("message") or error.get("type")
    described = parsed.get("error_description") or parsed.get("message")
    text = ": ".join(str(part) for part in (error, described) if part)
    return " ".join((text or json.dumps(parsed)[:200]).split())


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc or url
