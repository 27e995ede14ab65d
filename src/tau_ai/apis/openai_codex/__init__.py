"""The ``openai-codex-responses`` wire API: the Responses API as ChatGPT's Codex backend serves it.

The same items and stream as ``openai-responses``; what differs is the endpoint
(``<base>/codex/responses``, base ``https://chatgpt.com/backend-api``), the system prompt sent
as ``instructions`` rather than an input message, no ``max_output_tokens``, and the headers:
the ChatGPT login's access token as a bearer, its account id (read from the token's claims) as
``chatgpt-account-id``, ``OpenAI-Beta: responses=experimental`` and an ``originator``.
"""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from typing import Any

from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._shared import error_from_body
from tau_ai.apis.openai_responses.convert import Converter, convert_input
from tau_ai.apis.openai_responses.convert import request_with as responses_request
from tau_ai.apis.openai_responses.parse import ResponsesParser
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, WireApi

API = "openai-codex-responses"
_CLAIM = "https://api.openai.com/auth"


def account_id(access_token: str) -> str | None:
    """The ChatGPT account id in an access token's JWT claims, or None."""
    parts = access_token.split(".")
    if len(parts) != 3:
        return None
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, UnicodeDecodeError):
        return None
    auth = claims.get(_CLAIM) if isinstance(claims, dict) else None
    found = auth.get("chatgpt_account_id") if isinstance(auth, dict) else None
    return found if isinstance(found, str) else None


def codex_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    if base.endswith("/codex/responses"):
        return base
    return f"{base}/responses" if base.endswith("/codex") else f"{base}/codex/responses"


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, items: list[Any]
) -> HttpRequestSpec:
    """The Codex request, with ``items`` as the conversion of ``context.messages`` (no system item)."""
    spec = responses_request(model, context, options, api_key, items)
    body = dict(spec.body)
    body.pop("max_output_tokens", None)
    body["instructions"] = context.system_prompt or "You are a helpful assistant."
    body["include"] = ["reasoning.encrypted_content"]
    body["tool_choice"] = "auto"
    body["parallel_tool_calls"] = True
    headers = {**spec.headers, "OpenAI-Beta": "responses=experimental", "originator": "tau"}
    account = account_id(api_key or "")
    if account:
        headers["chatgpt-account-id"] = account
    if options.session_id:
        headers["session_id"] = options.session_id
    return HttpRequestSpec(codex_url(model.base_url), headers, body)


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    items = convert_input(model, replace(context, system_prompt=""))
    return request_with(model, context, options, api_key, items)


WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=ResponsesParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(
        lambda model, _system, frozen: Converter(model, "", frozen), request_with
    ),
)

__all__ = ["API", "WIRE_API", "account_id", "build_request"]
