"""Session events become the span tree docs/tracing.md draws, with GenAI attribute names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="tracing needs the otel extra: pip install '.[otel]'")

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tau_agent.content import TextContent
from tau_agent.events import (
    AgentEndEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from tau_agent.messages import AssistantMessage, Usage
from tau_agent.tools import AgentToolResult
from tau_coding.tracing import tracing_wanted
from tau_coding.tracing.jsonl import JsonlSpanExporter
from tau_coding.tracing.spans import SessionTracer


def _reply(stop: str, input_tokens: int, output_tokens: int) -> AssistantMessage:
    return AssistantMessage(
        content=[TextContent("x")],
        model="m-1",
        usage=Usage(input=input_tokens, output=output_tokens, cache_read=5),
        stop_reason=stop,  # type: ignore[arg-type]
        error_message="boom" if stop == "error" else None,
    )


def _feed(tracer: SessionTracer) -> None:
    result = AgentToolResult(content=[TextContent("ok")])
    stop = AssistantMessage(stop_reason="error", error_message="Agent stopped after max_turns=2")
    for event in [
        AgentStartEvent(),
        TurnStartEvent(),
        MessageStartEvent(_reply("toolUse", 100, 20)),
        MessageEndEvent(_reply("toolUse", 100, 20)),
        ToolExecutionStartEvent("c1", "read", {"path": "a"}),
        ToolExecutionStartEvent("c2", "bash", {"command": "false"}),
        ToolExecutionEndEvent("c1", "read", result, False),
        ToolExecutionEndEvent("c2", "bash", result, True),
        TurnEndEvent(_reply("toolUse", 100, 20)),
        TurnStartEvent(),
        MessageStartEvent(_reply("error", 7, 0)),
        MessageEndEvent(_reply("error", 7, 0)),
        TurnEndEvent(_reply("error", 7, 0)),
        TurnStartEvent(),  # max_turns reached: the loop's own notice, no request
        MessageStartEvent(stop),
        MessageEndEvent(stop),
        TurnEndEvent(stop),
        AgentEndEvent([]),
    ]:
        tracer.on_event(event)
    tracer.close()


def test_session_turns_requests_and_tools_nest_with_genai_attributes() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = SessionTracer(provider.get_tracer("t"), session_id="s-1", model=lambda: ("prov", "m-1"))
    _feed(tracer)
    spans = exporter.get_finished_spans()
    by_id = {s.context.span_id: s for s in spans}

    def parent(span: object) -> str | None:
        p = span.parent  # type: ignore[attr-defined]
        return by_id[p.span_id].name if p is not None else None

    tree = sorted((s.name, parent(s)) for s in spans)
    assert tree == sorted(
        [
            ("invoke_agent tau", None),
            ("turn", "invoke_agent tau"),
            ("turn", "invoke_agent tau"),
            ("turn", "invoke_agent tau"),
            ("chat m-1", "turn"),
            ("chat m-1", "turn"),
            ("execute_tool read", "turn"),
            ("execute_tool bash", "turn"),
        ]
    )
    assert len({s.context.trace_id for s in spans}) == 1
    chats = [s for s in spans if s.name == "chat m-1"]
    first, failed = chats
    assert first.attributes is not None and failed.attributes is not None
    assert first.attributes["gen_ai.request.model"] == "m-1"
    assert first.attributes["gen_ai.provider.name"] == "prov"
    assert first.attributes["gen_ai.usage.input_tokens"] == 105
    assert first.attributes["gen_ai.usage.output_tokens"] == 20
    assert tuple(first.attributes["gen_ai.response.finish_reasons"]) == ("tool_calls",)  # type: ignore[arg-type]
    assert failed.status.status_code.name == "ERROR" and failed.status.description == "boom"
    bash = next(s for s in spans if s.name == "execute_tool bash")
    assert bash.status.status_code.name == "ERROR" and bash.attributes == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "bash",
        "gen_ai.tool.call.id": "c2",
        "error.type": "tool_error",
    }
    session = next(s for s in spans if s.name == "invoke_agent tau")
    assert session.attributes is not None and session.attributes["gen_ai.conversation.id"] == "s-1"
    assert session.attributes["tau.turns"] == 3


def test_the_jsonl_exporter_writes_one_line_per_span_with_ids_and_parents(tmp_path: Path) -> None:
    path = tmp_path / "traces" / "t.jsonl"
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(JsonlSpanExporter(path)))
    _feed(SessionTracer(provider.get_tracer("t"), session_id="s", model=lambda: ("p", "m")))
    provider.shutdown()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 8
    ids = {line["span_id"] for line in lines}
    root = next(line for line in lines if line["parent_span_id"] is None)
    assert root["name"] == "invoke_agent tau"
    assert all(line["parent_span_id"] in ids for line in lines if line is not root)
    assert all(line["end_time_unix_nano"] >= line["start_time_unix_nano"] for line in lines)


def test_tracing_is_wanted_only_when_asked_for() -> None:
    assert not tracing_wanted(None, {})
    assert tracing_wanted("t.jsonl", {})
    assert tracing_wanted(None, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"})
    assert not tracing_wanted("t.jsonl", {"OTEL_SDK_DISABLED": "true"})
