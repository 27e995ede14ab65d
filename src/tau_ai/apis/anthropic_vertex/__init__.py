"""The ``anthropic-vertex`` wire API: Anthropic's Claude models through Google Cloud's Vertex AI.

The body and stream are Anthropic's Messages (``tau_ai.apis.anthropic_messages``) with Vertex's
changes: the model is named by the URL (``…/publishers/anthropic/models/{id}:streamRawPredict``,
built as for ``google-vertex``), not the body, the body carries ``anthropic_version:
vertex-2023-10-16`` instead of the header, and credentials are Vertex's (a bearer token).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tau_agent.provider import Context, StreamOptions
from tau_ai.apis.anthropic_messages.convert import Converter, convert_messages, request_with
from tau_ai.apis.anthropic_messages.parse import AnthropicParser
from tau_ai.apis.google_vertex import vertex_auth, vertex_url, vertex_wire_api
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec

API = "anthropic-vertex"
VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16"


def _request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, messages: list[Any]
) -> HttpRequestSpec:
    spec = request_with(model, context, options, None, messages)
    body = {k: v for k, v in spec.body.items() if k != "model"}
    body["anthropic_version"] = VERTEX_ANTHROPIC_VERSION
    headers = {k: v for k, v in spec.headers.items() if k != "anthropic-version"}
    url = vertex_url(model, "anthropic", "streamRawPredict")
    return replace(spec, url=url, headers=vertex_auth(headers, api_key), body=body)


WIRE_API = vertex_wire_api(API, _request_with, convert_messages, Converter, AnthropicParser)
build_request = WIRE_API.build_request

__all__ = ["API", "VERTEX_ANTHROPIC_VERSION", "WIRE_API", "build_request"]
