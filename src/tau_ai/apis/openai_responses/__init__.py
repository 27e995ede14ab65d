"""The ``openai-responses`` wire API: OpenAI's Responses endpoint, stateless with encrypted reasoning."""

from __future__ import annotations

from tau_ai.apis._shared import error_from_body
from tau_ai.apis.openai_responses.convert import Converter, build_request, request_with
from tau_ai.apis.openai_responses.parse import API, ResponsesParser
from tau_ai.wire_api import IncrementalRequests, WireApi

WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=ResponsesParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(
        lambda model, system, frozen: Converter(model, system, frozen), request_with
    ),
)

__all__ = ["WIRE_API", "ResponsesParser", "build_request"]
