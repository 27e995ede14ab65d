"""A catalogue of the ways a provider fails, in each wire API's own shapes, for fault suites.

``FAULTS`` names every fault; ``fault_response(api, fault, body)`` turns the healthy streamed
``body`` of a reply into the response a failing server would send instead: an HTTP error with
the API's error JSON, an error event inside the stream after some text, a connection cut at a
given point (before any content, after the text, inside a tool call's arguments), a stall, a
malformed chunk, an error JSON under HTTP 200, an authentication failure or a context-window
overflow. ``fault_request(fault)`` says which request it hits, ``expected(fault)`` how a run
that meets the fault once must end.

Cut points are found in ``body`` by content: a reply used with the cut faults must carry text
(``CONTENT_MARK`` is searched for the end of the first text event) and, for
``cut-in-tool-args``, a tool call whose arguments contain ``ARGS_MARK``.
"""

from __future__ import annotations

import json
from typing import Literal

from tau_ai.eventstream import encode_event, encode_exception
from tau_ai.testing.replay_server import Scripted

JSON_HEADERS = {"content-type": "application/json"}

FAULTS: tuple[str, ...] = (
    "http-429-retry-after",
    "http-500",
    "http-502",
    "http-503",
    "http-529-overloaded",
    "overloaded-in-stream",
    "error-json-under-200",
    "cut-before-content",
    "cut-after-content",
    "cut-in-tool-args",
    "stall",
    "malformed-chunk",
    "http-401",
    "context-overflow",
    "context-overflow-after-tool",
)

Outcome = Literal["answer", "auth-error", "overflow", "compacted"]
"""``answer``: retried, the answer printed, exit 0. ``auth-error``: exit 1 with one line, no
retry. ``overflow`` (nothing to compact yet): compacted then answered, or exit 1 with one clear
line. ``compacted``: the history was summarised, then the answer printed, exit 0."""

CONTENT_MARK = b"Let me look."
ARGS_MARK = b"config.py"

_OVERLOADED = "Overloaded"
_NOT_JSON = b'{"choices": [{"delta": {"content": "Hel'
BEDROCK = "bedrock-converse-stream"

_OVERFLOW_BODIES: dict[str, object] = {
    "openai-completions": {
        "error": {
            "message": "This model's maximum context length is 8192 tokens. However, your messages "
            "resulted in 9100 tokens.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    },
    "openai-responses": {
        "error": {
            "message": "Your input exceeds the context window of this model. Please adjust your input.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    },
    "azure-openai-responses": {
        "error": {
            "message": "Your input exceeds the context window of this model. Please adjust your input.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    },
    "anthropic-messages": {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 208310 tokens > 200000 maximum",
        },
    },
    "google-generative-ai": {
        "error": {
            "code": 400,
            "message": "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
            "status": "INVALID_ARGUMENT",
        }
    },
    "google-vertex": {
        "error": {
            "code": 400,
            "message": "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
            "status": "INVALID_ARGUMENT",
        }
    },
    "anthropic-vertex": {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 208310 tokens > 200000 maximum",
        },
    },
    "bedrock-converse-stream": {"message": "Input is too long for requested model."},
    "mistral-conversations": {
        "object": "error",
        "message": "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 "
        "maximum context length",
        "type": "invalid_request_error",
        "code": 3051,
    },
}


def expected(fault: str) -> Outcome:
    """How a run that meets ``fault`` once (and then a healthy server) must end."""
    if fault == "http-401":
        return "auth-error"
    if fault == "context-overflow":
        return "overflow"
    if fault == "context-overflow-after-tool":
        return "compacted"
    return "answer"


def fault_request(fault: str) -> int:
    """Which request (0-based) the fault hits: the first, or for ``context-overflow-after-tool``
    the second (the one carrying the tool result, when there is history to compact)."""
    return 1 if fault == "context-overflow-after-tool" else 0


def error_json(api: str, message: str, kind: str = "overloaded_error", code: int = 529) -> bytes:
    """The JSON error body ``api``'s server sends with an HTTP error."""
    body: object
    if api in ("anthropic-messages", "anthropic-vertex"):
        body = {"type": "error", "error": {"type": kind, "message": message}}
    elif api in ("google-generative-ai", "google-vertex"):
        body = {"error": {"code": code, "message": message, "status": "UNAVAILABLE"}}
    elif api == "mistral-conversations":
        body = {"object": "error", "message": message, "type": kind, "code": code}
    elif api == BEDROCK:  # AWS names the error's type in a header, x-amzn-ErrorType
        body = {"message": message}
    else:
        body = {"error": {"message": message, "type": kind, "code": kind}}
    return json.dumps(body).encode()


def stream_error_event(api: str) -> bytes:
    """An "overloaded" error event as ``api``'s server sends it inside a stream."""
    if api == BEDROCK:
        return encode_exception("serviceUnavailableException", b'{"message":"The model is overloaded."}')
    if api in ("anthropic-messages", "anthropic-vertex"):
        data = {"type": "error", "error": {"type": "overloaded_error", "message": _OVERLOADED}}
        return b"event: error\ndata: " + json.dumps(data).encode() + b"\n\n"
    if api in ("openai-responses", "azure-openai-responses"):
        failed = {
            "type": "error",
            "code": "server_error",
            "message": "The server is overloaded",
            "param": None,
        }
        return b"event: error\ndata: " + json.dumps(failed).encode() + b"\n\n"
    if api in ("google-generative-ai", "google-vertex"):
        gemini = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
        return b"data: " + json.dumps(gemini).encode() + b"\r\n\r\n"
    data = {"error": {"message": _OVERLOADED, "type": "overloaded_error", "code": 529}}
    return b"data: " + json.dumps(data).encode() + b"\n\n"


def _message_end(body: bytes, at: int) -> int:
    """The offset just past the event stream message (Bedrock) that contains byte ``at``."""
    end = 0
    while end <= at:
        end += int.from_bytes(body[end : end + 4], "big")
    return end


def _event_end(body: bytes, at: int) -> int:
    """The offset just past the SSE event, or Bedrock's binary message, that contains byte ``at``."""
    if body[:1] == b"\x00":  # an event stream's first byte: lengths stay under 16 MiB
        return _message_end(body, at)
    ends = [i + len(sep) for sep in (b"\n\n", b"\r\n\r\n") if (i := body.find(sep, at)) >= 0]
    if not ends:
        raise ValueError("no event boundary after the mark")
    return min(ends)


def _after_text(body: bytes) -> int:
    at = body.find(CONTENT_MARK)
    if at < 0:
        raise ValueError("the reply has no text to cut after")
    return _event_end(body, at)


def _malformed(api: str, body: bytes) -> bytes:
    """``body`` with a chunk that is not JSON before any content (after the first event, which
    opens the message, except in Gemini's stream, whose first event already carries text)."""
    if api == BEDROCK:
        first = _event_end(body, 0)
        return body[:first] + encode_event("contentBlockDelta", _NOT_JSON) + body[first:]
    gemini = api in ("google-generative-ai", "google-vertex")
    first = 0 if gemini else _event_end(body, 0)
    sep = b"\r\n\r\n" if gemini else b"\n\n"
    name = {
        "anthropic-messages": b"content_block_delta",
        "anthropic-vertex": b"content_block_delta",
        "openai-responses": b"response.output_text.delta",
        "azure-openai-responses": b"response.output_text.delta",
    }
    head = b"event: " + name[api] + sep[: len(sep) // 2] if api in name else b""
    return body[:first] + head + b"data: " + _NOT_JSON + sep + body[first:]


def fault_response(api: str, fault: str, body: bytes) -> Scripted:
    """The response a server meeting ``fault`` sends in place of the healthy ``body``."""
    status = {"http-500": 500, "http-502": 502, "http-503": 503}
    if fault in status:
        message = {500: "Internal server error", 502: "Bad gateway", 503: "Service unavailable"}
        code = status[fault]
        return Scripted(code, JSON_HEADERS, error_json(api, message[code], "api_error", code))
    if fault == "http-429-retry-after":
        headers = {**JSON_HEADERS, "retry-after": "1"}
        return Scripted(429, headers, error_json(api, "Rate limit reached", "rate_limit_error", 429))
    if fault == "http-529-overloaded":
        return Scripted(529, JSON_HEADERS, error_json(api, _OVERLOADED))
    if fault == "error-json-under-200":
        return Scripted(200, JSON_HEADERS, error_json(api, _OVERLOADED), chunked=False)
    if fault == "http-401":
        return Scripted(401, JSON_HEADERS, error_json(api, "Invalid API key", "authentication_error", 401))
    if fault in ("context-overflow", "context-overflow-after-tool"):
        return Scripted(400, JSON_HEADERS, json.dumps(_OVERFLOW_BODIES[api]).encode())
    if fault == "overloaded-in-stream":
        cut = _after_text(body)
        return Scripted(body=body[:cut] + stream_error_event(api))
    if fault == "cut-before-content":  # Gemini's first event already carries text: cut inside it
        first = 10 if api in ("google-generative-ai", "google-vertex") else _event_end(body, 0)
        return Scripted(body=body, cut_after=first)
    if fault == "cut-after-content":
        return Scripted(body=body, cut_after=_after_text(body))
    if fault == "cut-in-tool-args":
        at = body.find(ARGS_MARK)
        if at < 0:
            raise ValueError("the reply has no tool call to cut")
        return Scripted(body=body, cut_after=at + len(ARGS_MARK) // 2)
    if fault == "stall":
        return Scripted(body=body, stall_after=_after_text(body))
    if fault == "malformed-chunk":
        return Scripted(body=_malformed(api, body))
    raise ValueError(f"unknown fault {fault!r}")
