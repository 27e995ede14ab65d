from __future__ import annotations

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AssistantMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
)
from tau_agent.session.state import INTERRUPTED_RESULT, ModelRef, SessionState

TS = "2025-01-01T00:00:00.000Z"


def msg(eid: str, parent: str | None, message: object) -> MessageEntry:
    return MessageEntry(id=eid, parent_id=parent, timestamp=TS, message=message)  # type: ignore[arg-type]


def reply(text: str, *calls: ToolCall, model: str = "m1") -> AssistantMessage:
    return AssistantMessage(
        [TextContent(text), *calls], provider="p", model=model, stop_reason="toolUse" if calls else "stop"
    )


def texts(state: SessionState) -> list[str]:
    out = []
    for m in state.messages:
        if isinstance(m, UserMessage):
            out.append(f"user:{m.content}")
        elif isinstance(m, AssistantMessage):
            out.append(f"assistant:{m.text}")
        elif isinstance(m, ToolResultMessage):
            out.append(f"result:{m.tool_call_id}")
        elif isinstance(m, CompactionSummaryMessage | BranchSummaryMessage):
            out.append(f"{m.role}:{m.summary}")
        elif isinstance(m, CustomMessage):
            out.append(f"custom:{m.content}")
    return out


def test_replay_follows_the_active_branch_only() -> None:
    entries: list[SessionEntry] = [
        msg("1", None, UserMessage("hi")),
        msg("2", "1", reply("hello")),
        msg("3", "2", UserMessage("left")),
        msg("4", "2", UserMessage("right")),
        msg("5", "4", reply("went right")),
    ]
    state = SessionState.from_entries(entries)
    assert state.leaf_id == "5"
    assert texts(state) == ["user:hi", "assistant:hello", "user:right", "assistant:went right"]
    assert state.message_entry_ids == ["1", "2", "4", "5"]
    assert texts(SessionState.from_entries(entries, "3")) == ["user:hi", "assistant:hello", "user:left"]
    assert SessionState.from_entries(entries, None).messages == []


def test_compaction_replaces_what_it_summarises() -> None:
    entries: list[SessionEntry] = [
        msg("1", None, UserMessage("old question")),
        msg("2", "1", reply("old answer")),
        msg("3", "2", UserMessage("kept question")),
        msg("4", "3", reply("kept answer")),
        CompactionEntry(
            id="5",
            parent_id="4",
            timestamp=TS,
            summary="they talked",
            first_kept_entry_id="3",
            tokens_before=100,
        ),
        msg("6", "5", UserMessage("new question")),
    ]
    state = SessionState.from_entries(entries)
    assert texts(state) == [
        "compactionSummary:they talked",
        "user:kept question",
        "assistant:kept answer",
        "user:new question",
    ]
    assert state.message_entry_ids == ["5", "3", "4", "6"]
    summary = state.messages[0]
    assert isinstance(summary, CompactionSummaryMessage) and summary.tokens_before == 100
    assert summary.timestamp == 1735689600000


def test_only_the_latest_compaction_on_the_path_counts() -> None:
    entries: list[SessionEntry] = [
        msg("1", None, UserMessage("a")),
        CompactionEntry(
            id="2", parent_id="1", timestamp=TS, summary="first", first_kept_entry_id="1", tokens_before=1
        ),
        msg("3", "2", UserMessage("b")),
        CompactionEntry(
            id="4", parent_id="3", timestamp=TS, summary="second", first_kept_entry_id="3", tokens_before=2
        ),
        msg("5", "4", UserMessage("c")),
    ]
    assert texts(SessionState.from_entries(entries)) == ["compactionSummary:second", "user:b", "user:c"]


def test_model_thinking_name_and_labels_are_restored() -> None:
    entries: list[SessionEntry] = [
        ModelChangeEntry(id="1", parent_id=None, timestamp=TS, provider="openai", model_id="gpt-4o"),
        ThinkingLevelChangeEntry(id="2", parent_id="1", timestamp=TS, thinking_level="high"),
        msg("3", "2", UserMessage("q")),
        msg("4", "3", reply("a", model="m2")),
        LabelEntry(id="5", parent_id="4", timestamp=TS, target_id="3", label="start"),
        LabelEntry(id="6", parent_id="5", timestamp=TS, target_id="4", label="x"),
        LabelEntry(id="7", parent_id="6", timestamp=TS, target_id="4", label=None),
        SessionInfoEntry(id="8", parent_id="7", timestamp=TS, name="  Named  "),
        CustomEntry(id="9", parent_id="8", timestamp=TS, custom_type="ext"),
    ]
    state = SessionState.from_entries(entries)
    assert state.model == ModelRef("p", "m2")  # the assistant reply came after the model change
    assert state.thinking_level == "high"
    assert state.labels == {"3": "start"}
    assert state.name == "Named"
    assert texts(state) == ["user:q", "assistant:a"]


def test_custom_messages_and_branch_summaries_reach_the_context() -> None:
    entries: list[SessionEntry] = [
        msg("1", None, UserMessage("q")),
        BranchSummaryEntry(id="2", parent_id="1", timestamp=TS, from_id="9", summary="elsewhere"),
        CustomMessageEntry(
            id="3", parent_id="2", timestamp=TS, custom_type="ext", content="note", display=False
        ),
        BranchSummaryEntry(id="4", parent_id="3", timestamp=TS, from_id="9", summary=""),
    ]
    assert texts(SessionState.from_entries(entries)) == ["user:q", "branchSummary:elsewhere", "custom:note"]


def test_dangling_tool_calls_get_error_results_right_after_their_reply() -> None:
    entries: list[SessionEntry] = [
        msg("1", None, UserMessage("go")),
        msg("2", "1", reply("two tools", ToolCall("c1", "read"), ToolCall("c2", "bash"))),
        msg("3", "2", ToolResultMessage("c1", "read", [TextContent("ok")])),
        msg("4", "3", UserMessage("hello?")),
        msg("5", "4", reply("last", ToolCall("c3", "read"))),
    ]
    state = SessionState.from_entries(entries)
    assert state.repaired_tool_calls == 2
    assert texts(state) == [
        "user:go",
        "assistant:two tools",
        "result:c1",
        "result:c2",
        "user:hello?",
        "assistant:last",
        "result:c3",
    ]
    assert state.message_entry_ids == ["1", "2", "3", None, "4", "5", None]
    synthetic = state.messages[3]
    assert isinstance(synthetic, ToolResultMessage) and synthetic.is_error
    assert synthetic.content == [TextContent(INTERRUPTED_RESULT)]
