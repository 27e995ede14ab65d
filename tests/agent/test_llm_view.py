"""``extend_llm_view`` gives, for every kind of message, what the general conversion gives."""

from __future__ import annotations

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    LlmMessage,
    ToolResultMessage,
    UserMessage,
    context_for_model,
    convert_to_llm,
    extend_llm_view,
)


def _record() -> list[AgentMessage]:
    call = ToolCall("call_1", "read", {"path": "a.py"})
    return [
        UserMessage("Fix the test.", 1),
        AssistantMessage(content=[TextContent("Reading."), call], stop_reason="toolUse", timestamp=2),
        ToolResultMessage("call_1", "read", [TextContent("print(1)")], timestamp=3),
        AssistantMessage(stop_reason="error", error_message="overloaded", timestamp=4),  # empty failure
        AssistantMessage(stop_reason="aborted", timestamp=5),  # empty failure
        AssistantMessage(content=[TextContent("half")], stop_reason="aborted", timestamp=6),  # kept
        AssistantMessage(stop_reason="stop", timestamp=7),  # empty but not a failure: kept
        BashExecutionMessage(command="ls", output="a.py", exit_code=0, timestamp=8),
        BashExecutionMessage(command="ls", output="a.py", exclude_from_context=True, timestamp=9),
        CustomMessage(custom_type="note", content="Remember the port.", timestamp=10),
        CompactionSummaryMessage(summary="Earlier work.", tokens_before=1000, timestamp=11),
        BranchSummaryMessage(summary="Another try.", from_id="abc", timestamp=12),
        UserMessage([TextContent("And then?")], 13),
    ]


def test_the_view_equals_the_general_conversion_for_every_kind() -> None:
    record = _record()
    out: list[LlmMessage] = []
    extend_llm_view(record, out)
    assert out == convert_to_llm(context_for_model(record))
    assert len(out) == len(record) - 3  # two empty failures, one excluded bash run
    assert out[0] is record[0] and out[2] is record[2]  # the LLM kinds as they are, not copies


def test_extending_in_parts_gives_the_whole_view() -> None:
    record = _record()
    whole: list[LlmMessage] = []
    extend_llm_view(record, whole)
    parts: list[LlmMessage] = []
    for start in range(0, len(record), 4):
        extend_llm_view(record[start : start + 4], parts)
    assert parts == whole
