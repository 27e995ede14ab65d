"""The ``azure-openai-responses`` wire API: OpenAI's Responses API as Azure OpenAI serves it.

The body and stream are OpenAI's Responses (``tau_ai.apis.openai_responses``); Azure differs in
three places, all taken from the model (the app fills them in from the environment,
``tau_coding.config.azure``):

* the URL: ``{base_url}/responses?api-version={compat["azureApiVersion"] or "v1"}``, where a bare
  ``https://NAME.openai.azure.com`` base gets Azure's ``/openai/v1`` path;
* the ``model`` field names the deployment: ``compat["azureDeployment"]``, else the model id;
* the key goes in an ``api-key`` header, unless it is an Entra ID token, passed as
  ``"Bearer <token>"``, which goes in ``Authorization`` as it is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._shared import endpoint, error_from_body
from tau_ai.apis.openai_responses import WIRE_API as RESPONSES
from tau_ai.apis.openai_responses.convert import Converter, request_with
from tau_ai.apis.openai_responses.parse import ResponsesParser
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, WireApi

API = "azure-openai-responses"
DEFAULT_API_VERSION = "v1"
BEARER = "Bearer "


def azure_base(base_url: str) -> str:
    """``base_url`` with Azure's ``/openai/v1`` path when it names only an Azure host."""
    parts = urlsplit(base_url.rstrip("/"))
    azure_host = (parts.hostname or "").endswith((".openai.azure.com", ".cognitiveservices.azure.com"))
    if azure_host and parts.path in ("", "/", "/openai"):
        return urlunsplit(parts._replace(path="/openai/v1"))
    return base_url.rstrip("/")


def azure_spec(model: Model, spec: HttpRequestSpec, api_key: str | None) -> HttpRequestSpec:
    """An OpenAI Responses request ``spec`` turned into Azure's (URL, deployment, auth header)."""
    version = str(model.compat.get("azureApiVersion") or DEFAULT_API_VERSION)
    url = f"{endpoint(azure_base(model.base_url), 'responses')}?{urlencode({'api-version': version})}"
    body: dict[str, Any] = {**spec.body, "model": str(model.compat.get("azureDeployment") or model.id)}
    headers = dict(spec.headers)  # built without a key: only the caller's own headers
    if api_key and api_key.startswith(BEARER):
        headers["authorization"] = api_key
    elif api_key:
        headers["api-key"] = api_key
    return replace(spec, url=url, headers=headers, body=body)


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return azure_spec(model, RESPONSES.build_request(model, context, options, None), api_key)


def _request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, items: list[Any]
) -> HttpRequestSpec:
    return azure_spec(model, request_with(model, context, options, None, items), api_key)


def _parser(model: Model) -> ResponsesParser:
    return ResponsesParser(model, API)  # its replies are Azure's, so a later request keeps their reasoning


WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=_parser,
    error_message=error_from_body,
    incremental=IncrementalRequests(
        lambda model, system, frozen: Converter(model, system, frozen), _request_with
    ),
)

__all__ = ["API", "WIRE_API", "azure_base", "azure_spec", "build_request"]
