"""The fault catalogue: every fault has a response in every API, and cuts land where named."""

from __future__ import annotations

import json

import pytest

from tau_ai.testing.faults import ARGS_MARK, CONTENT_MARK, FAULTS, expected, fault_request, fault_response
from tau_ai.testing.scripted_streams import APIS, ScriptedCall, ScriptedReply, sse_body

REPLY = ScriptedReply(text="Let me look.", calls=[ScriptedCall("call_1", "read", {"path": "config.py"})])


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("fault", FAULTS)
def test_every_fault_has_a_response_in_every_api(api: str, fault: str) -> None:
    response = fault_response(api, fault, sse_body(api, REPLY))
    if response.status >= 400 or response.headers.get("content-type") == "application/json":
        assert json.loads(response.body)


@pytest.mark.parametrize("api", APIS)
def test_cuts_land_before_the_text_after_it_and_inside_the_arguments(api: str) -> None:
    body = sse_body(api, REPLY)

    def sent(fault: str) -> bytes:
        response = fault_response(api, fault, body)
        assert response.cut_after is not None
        return body[: response.cut_after]

    assert CONTENT_MARK not in sent("cut-before-content")
    after = sent("cut-after-content")
    assert CONTENT_MARK in after and ARGS_MARK not in after
    inside = sent("cut-in-tool-args")
    assert ARGS_MARK[:3] in inside[-len(ARGS_MARK) :] and not inside.endswith(ARGS_MARK)


@pytest.mark.parametrize("api", APIS)
def test_the_stream_faults_keep_the_text_and_then_fail(api: str) -> None:
    body = sse_body(api, REPLY)
    overloaded = fault_response(api, "overloaded-in-stream", body).body
    assert CONTENT_MARK in overloaded and ARGS_MARK not in overloaded and b"verloaded" in overloaded
    malformed = fault_response(api, "malformed-chunk", body).body
    assert malformed.index(b'{"choices": [{"delta": {"content": "Hel') < malformed.index(CONTENT_MARK)
    stall = fault_response(api, "stall", body)
    assert stall.stall_after is not None and CONTENT_MARK in body[: stall.stall_after]


def test_only_401_and_overflows_are_not_answered_after_a_plain_retry() -> None:
    assert {f: expected(f) for f in FAULTS if expected(f) != "answer"} == {
        "http-401": "auth-error",
        "context-overflow": "overflow",
        "context-overflow-after-tool": "compacted",
    }
    assert [f for f in FAULTS if fault_request(f) != 0] == ["context-overflow-after-tool"]
