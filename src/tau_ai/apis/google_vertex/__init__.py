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

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._shared import endpoint, error_from_body
from tau_ai.apis.google.convert import Converter, convert_contents, request_with
from tau_ai.apis.google.parse import GoogleParser
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, MessageConverter, WireApi, WireParser

RequestWith = Callable[[Model, Context, StreamOptions, "str | None", list[Any]], HttpRequestSpec]

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


def vertex_wire_api(
    name: str,
    request_with: RequestWith,
    convert: Callable[[Model, Context], list[Any]],
    new_converter: Callable[[Model, bool], MessageConverter],
    new_parser: Callable[[Model, str], WireParser],
) -> WireApi:
    """A Vertex AI wire API: ``request_with(model, context, options, api_key, converted)`` makes
    the request of what ``convert`` (or a ``new_converter(model, frozen)``) converted; replies are
    read by ``new_parser(model, name)``; errors are the publisher's own words."""

    def build_request(
        model: Model, context: Context, options: StreamOptions, api_key: str | None
    ) -> HttpRequestSpec:
        return request_with(model, context, options, api_key, convert(model, context))

    return WireApi(
        name=name,
        build_request=build_request,
        new_parser=lambda model: new_parser(model, name),
        error_message=error_from_body,
        incremental=IncrementalRequests(
            lambda model, _system, frozen: new_converter(model, frozen), request_with
        ),
    )


WIRE_API = vertex_wire_api(API, _request_with, convert_contents, Converter, GoogleParser)
build_request = WIRE_API.build_request

__all__ = ["API", "WIRE_API", "build_request", "vertex_auth", "vertex_url", "vertex_wire_api"]
