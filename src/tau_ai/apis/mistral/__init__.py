"""The ``mistral-conversations`` wire API: Mistral's streaming chat completions."""

from __future__ import annotations

from tau_ai.apis._shared import error_from_body
from tau_ai.apis.mistral.convert import Converter, build_request, mistral_id, request_with
from tau_ai.apis.mistral.parse import API, MistralParser
from tau_ai.wire_api import IncrementalRequests, WireApi

WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=MistralParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(
        lambda model, system, frozen: Converter(model, system, frozen), request_with
    ),
)

__all__ = ["WIRE_API", "MistralParser", "build_request", "mistral_id"]
