"""The ``google-generative-ai`` wire API: Gemini's streamGenerateContent with SSE."""

from __future__ import annotations

from tau_ai.apis._shared import error_from_body
from tau_ai.apis.google.convert import Converter, build_request, request_with
from tau_ai.apis.google.parse import API, GoogleParser
from tau_ai.wire_api import IncrementalRequests, WireApi

WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=GoogleParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(lambda model, system, frozen: Converter(model, frozen), request_with),
)

__all__ = ["WIRE_API", "GoogleParser", "build_request"]
