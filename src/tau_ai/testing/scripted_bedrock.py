"""Bedrock's ConverseStream body of a scripted reply (for ``scripted_streams.sse_body``), and the
SigV4 check a local Bedrock makes of each request (``signature_problem``)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from tau_ai.aws_sigv4 import AwsCredentials, authorization
from tau_ai.eventstream import encode_event
from tau_ai.testing.replay_server import RecordedRequest
from tau_ai.testing.scripted_reply import ScriptedReply

_AUTH = re.compile(
    r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/bedrock/aws4_request, SignedHeaders=([^,]+), Signature="
)


def converse_stream(reply: ScriptedReply) -> bytes:
    """Bedrock's ConverseStream: event stream messages (``tau_ai.eventstream``)."""

    def event(kind: str, value: dict[str, Any]) -> bytes:
        return encode_event(kind, json.dumps(value, separators=(",", ":")).encode())

    out = [event("messageStart", {"role": "assistant"})]
    index = 0
    if reply.thinking:
        reasoning = [{"text": reply.thinking}, {"signature": "scripted-signature"}]
        for delta in reasoning:
            out.append(
                event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"reasoningContent": delta}})
            )
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
        index += 1
    pieces = reply.text_pieces()
    for piece in pieces:
        out.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": piece}}))
    if pieces:
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
        index += 1
    for call in reply.calls:
        start = {"toolUse": {"toolUseId": call.id, "name": call.name}}
        out.append(event("contentBlockStart", {"contentBlockIndex": index, "start": start}))
        arguments = {"toolUse": {"input": json.dumps(call.arguments)}}
        out.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": arguments}))
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
        index += 1
    out.append(event("messageStop", {"stopReason": "tool_use" if reply.calls else "end_turn"}))
    usage = {
        "inputTokens": reply.input_tokens,
        "outputTokens": reply.output_tokens,
        "totalTokens": reply.input_tokens + reply.output_tokens,
    }
    out.append(event("metadata", {"usage": usage, "metrics": {"latencyMs": 120}}))
    return b"".join(out)


def signature_problem(request: RecordedRequest, secret: str) -> str | None:
    """What is wrong with ``request``'s SigV4 signature, recomputed as AWS does; None if right."""
    header = request.headers.get("authorization", "")
    match = _AUTH.match(header)
    if match is None:
        return f"no SigV4 authorization: {header!r}"
    key_id, _date, region, signed = match.groups()
    if request.headers.get("x-amz-content-sha256") != hashlib.sha256(request.body).hexdigest():
        return "the body hash does not match the body"
    names = signed.split(";")
    if not {"host", "x-amz-date", "x-amz-content-sha256"} <= set(names):
        return f"too little signed: {signed}"
    expected = authorization(
        AwsCredentials(key_id, secret, request.headers.get("x-amz-security-token", "")),
        method=request.method,
        url=f"http://{request.headers['host']}{request.path}",
        headers={name: request.headers[name] for name in names},
        payload_hash=request.headers["x-amz-content-sha256"],
        region=region,
        service="bedrock",
        amz_date=request.headers["x-amz-date"],
    )
    return None if expected == header else "signature mismatch"


def access_key_id(request: RecordedRequest) -> str | None:
    """The access key id ``request`` is signed with (None: not SigV4-signed)."""
    match = _AUTH.match(request.headers.get("authorization", ""))
    return match.group(1) if match else None
