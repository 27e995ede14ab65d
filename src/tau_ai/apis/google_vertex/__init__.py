"""The ``google-vertex`` wire API: Gemini through Google Cloud's Vertex AI.

The body and stream are Gemini's (``tau_ai.apis.google``); Vertex differs in the URL and the
credentials, both taken from the model (the app fills them in, ``tau_coding.config.vertex``):

* ``{base}/v1/projects/{vertexProject}/locations/{vertexLocation}/publishers/google/models/{id}
  :streamGenerateContent?alt=sse``, where ``{location}`` in the base URL is the location and the
  ``global`` location uses ``https://aiplatform.googleapis.com``; without a project (an API key
  in Vertex's express mode) the path starts at ``/v1/publishers/``;
* an access token passed as ``"Bearer <token>"`` goes in ``Authorization``; anything else is an
  API key, sent in ``x-goog-api-key``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._shared import endpoint, error_from_body
from tau_ai.apis.google.convert import Converter, convert_contents, request_with
from tau_ai.apis.google.parse import GoogleParser
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, WireApi

API = "google-vertex"
BEARER = "Bearer "
GLOBAL_HOST = "https://aiplatform.googleapis.com"


def vertex_url(model: Model, publisher: str, method: str) -> str:
    """The Vertex AI URL of ``method`` (``streamGenerateContent?alt=sse``, ``streamRawPredict``)."""
    location = str(model.compat.get("vertexLocation") or "global")
    project = str(model.compat.get("vertexProject") or "")
    base = model.base_url
    if location == "global" and "{location}-" in base:
        base = GLOBAL_HOST
    base = base.replace("{location}", location)
    scope = f"projects/{project}/locations/{location}/" if project else ""
    return endpoint(base, f"{scope}publishers/{publisher}/models/{model.id}:{method}", "v1")


def vertex_auth(headers: dict[str, str], api_key: str | None) -> dict[str, str]:
    """``headers`` with Vertex's credentials: a bearer token, or an API key."""
    if api_key and api_key.startswith(BEARER):
        headers["authorization"] = api_key
    elif api_key:
        headers["x-goog-api-key"] = api_key
    return headers


def _request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, contents: list[Any]
) -> HttpRequestSpec:
    spec = request_with(model, context, options, None, contents)
    url = vertex_url(model, "google", "streamGenerateContent?alt=sse")
    return replace(spec, url=url, headers=vertex_auth(dict(spec.headers), api_key))


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return _request_with(model, context, options, api_key, convert_contents(model, context))


def _parser(model: Model) -> GoogleParser:
    return GoogleParser(model, API)


WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=_parser,
    error_message=error_from_body,
    incremental=IncrementalRequests(lambda model, system, frozen: Converter(model, frozen), _request_with),
)

__all__ = ["API", "WIRE_API", "build_request", "vertex_auth", "vertex_url"]
