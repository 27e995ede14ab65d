"""The ``openai-completions`` wire API: OpenAI Chat Completions and compatible hosts."""

from __future__ import annotations

from tau_ai.apis._shared import error_from_body
from tau_ai.apis.openai_completions.compat import Compat, detect_compat, resolve_compat
from tau_ai.apis.openai_completions.convert import Converter, build_request, request_with
from tau_ai.apis.openai_completions.parse import API, CompletionsParser
from tau_ai.wire_api import IncrementalRequests, WireApi

WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=CompletionsParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(
        lambda model, system, frozen: Converter(model, system, frozen), request_with
    ),
)

__all__ = ["WIRE_API", "Compat", "CompletionsParser", "build_request", "detect_compat", "resolve_compat"]
