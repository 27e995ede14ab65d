"""The ``google-generative-ai`` wire API: Gemini's streamGenerateContent with SSE."""

from __future__ import annotations

from tau_ai.apis._shared import error_from_body
from tau_ai.apis.google.convert import build_request
from tau_ai.apis.google.parse import API, GoogleParser
from tau_ai.wire_api import WireApi

WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=GoogleParser,
    error_message=error_from_body,
)

__all__ = ["WIRE_API", "GoogleParser", "build_request"]
