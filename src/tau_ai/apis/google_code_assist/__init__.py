"""The ``google-gemini-cli`` wire API: Gemini through Cloud Code Assist, as the Gemini CLI login uses it.

The same contents, tools and stream as ``google-generative-ai``, in an envelope: the request is
``{"model", "project", "request": <the Gemini request>}`` posted to
``<base>/v1internal:streamGenerateContent?alt=sse`` (base ``https://cloudcode-pa.googleapis.com``)
with the login's access token as a bearer, and every streamed event is ``{"response": <the
Gemini event>}``. The key is ``{"token": ..., "projectId": ...}`` as JSON (the login's token and
the Code Assist project found when logging in), or a bare token.
"""

from __future__ import annotations

import json
from typing import Any

from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.apis._shared import error_from_body
from tau_ai.apis.google.convert import Converter, convert_contents
from tau_ai.apis.google.convert import request_with as gemini_request
from tau_ai.apis.google.parse import GoogleParser
from tau_ai.model import Model
from tau_ai.sse import SseEvent
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, WireApi

API = "google-gemini-cli"


def split_key(api_key: str | None) -> tuple[str | None, str | None]:
    """(access token, project id) from a ``google-gemini-cli`` key."""
    if not api_key or not api_key.startswith("{"):
        return api_key, None
    try:
        data = json.loads(api_key)
    except ValueError:
        return api_key, None
    token, project = data.get("token"), data.get("projectId")
    return (token if isinstance(token, str) else None), (project if isinstance(project, str) else None)


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, contents: list[Any]
) -> HttpRequestSpec:
    token, project = split_key(api_key)
    inner = gemini_request(model, context, options, None, contents)
    body: dict[str, Any] = {"model": model.id, "request": dict(inner.body)}
    if project:
        body["project"] = project
    headers = dict(inner.headers)
    if token:
        headers["authorization"] = f"Bearer {token}"
    url = f"{model.base_url.rstrip('/')}/v1internal:streamGenerateContent?alt=sse"
    return HttpRequestSpec(url, headers, body)


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_contents(model, context))


class CodeAssistParser(GoogleParser):
    """Gemini's parser over the events inside each ``{"response": ...}`` envelope."""

    def feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        try:
            data = json.loads(event.data)
        except (ValueError, RecursionError):
            return super().feed(event)
        if isinstance(data, dict) and isinstance(data.get("response"), dict):
            event = event._replace(data=json.dumps(data["response"]))
        return super().feed(event)


WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=CodeAssistParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(lambda model, _system, frozen: Converter(model, frozen), request_with),
)

__all__ = ["API", "WIRE_API", "CodeAssistParser", "build_request", "split_key"]
