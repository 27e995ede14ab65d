"""Where compaction cuts: safe boundaries only, the recent tail kept, split turns, carried files."""

from __future__ import annotations

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    CompactionSummaryMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_coding.session.compaction.context_usage import estimate_message_tokens
from tau_coding.session.compaction.planner import find_cut, is_safe_cut, plan_compaction


def _turn(n: int, *, results: int = 1, size: int = 400) -> list[AgentMessage]:
    calls = [ToolCall(f"c{n}_{k}", "read", {"path": f"f{n}_{k}.py"}) for k in range(results)]
    out: list[AgentMessage] = [UserMessage(f"turn {n}"), AssistantMessage(list(calls))]
    out += [ToolResultMessage(c.id, "read", [TextContent("x" * size)]) for c in calls]
    out.append(AssistantMessage([TextContent(f"done {n}")]))
    return out


def _ids(messages: list[AgentMessage]) -> list[str | None]:
    return [f"e{i}" for i in range(len(messages))]


def test_a_cut_never_lands_on_a_tool_result() -> None:
    messages: list[AgentMessage] = []
    for n in range(30):
        messages += _turn(n, results=3, size=1_000)
    ids = _ids(messages)
    for keep in range(0, 30_000, 137):
        cut = find_cut(messages, ids, 0, keep)
        if cut is not None:
            assert not isinstance(messages[cut], ToolResultMessage)
            assert is_safe_cut(messages[cut], ids[cut])


def test_the_tail_starts_at_the_first_safe_boundary_once_keep_recent_is_reached() -> None:
    messages: list[AgentMessage] = []
    for n in range(20):
        messages += _turn(n)
    plan = plan_compaction(messages, _ids(messages), keep_recent_tokens=1_000, tokens_before=9_999)
    assert plan is not None
    cut = plan.first_kept_index
    kept_tokens = sum(estimate_message_tokens(m) for m in messages[cut:])
    biggest = max(estimate_message_tokens(m) for m in messages)
    assert 1_000 - biggest <= kept_tokens < 1_000 + biggest
    assert plan.first_kept_entry_id == f"e{cut}" and plan.tokens_before == 9_999
    turn_start = max(i for i in range(cut + 1) if isinstance(messages[i], UserMessage))
    assert plan.history == messages[:turn_start] and plan.turn_prefix == messages[turn_start:cut]


def test_a_single_huge_turn_is_split_into_history_and_turn_prefix() -> None:
    messages: list[AgentMessage] = _turn(0)
    calls = [ToolCall(f"k{i}", "read", {"path": f"big{i}.py"}) for i in range(40)]
    messages.append(UserMessage("refactor everything"))
    for call in calls:
        messages.append(AssistantMessage([call]))
        messages.append(ToolResultMessage(call.id, "read", [TextContent("y" * 2_000)]))
    plan = plan_compaction(messages, _ids(messages), keep_recent_tokens=3_000, tokens_before=1)
    assert plan is not None and plan.is_split_turn
    assert plan.history == messages[:4]
    assert plan.turn_prefix[0] == messages[4] and isinstance(plan.turn_prefix[-1], ToolResultMessage)
    first_kept = messages[plan.first_kept_index]
    assert isinstance(first_kept, AssistantMessage) and first_kept.tool_calls
    assert isinstance(messages[plan.first_kept_index + 1], ToolResultMessage)  # its result stays with it
    assert "big0.py" in plan.file_ops.read and "f0_0.py" in plan.file_ops.read


def test_a_tail_of_one_replys_results_cuts_back_to_that_reply() -> None:
    call = ToolCall("only", "read", {"path": "a"})
    messages: list[AgentMessage] = [
        UserMessage("q" * 4_000),
        AssistantMessage([call]),
        ToolResultMessage("only", "read", [TextContent("z" * 40_000)]),
    ]
    cut = find_cut(messages, _ids(messages), 0, 1_000)
    assert cut == 1


def test_nothing_to_compact_when_everything_is_recent() -> None:
    messages = _turn(0)
    assert plan_compaction(messages, _ids(messages), keep_recent_tokens=100_000, tokens_before=0) is None
    summary_only: list[AgentMessage] = [CompactionSummaryMessage("s"), *_turn(1, size=100_000)]
    ids = _ids(summary_only)
    assert plan_compaction(summary_only, ids, keep_recent_tokens=10, tokens_before=0) is not None


def test_an_earlier_summary_is_updated_and_its_file_lists_are_carried() -> None:
    messages: list[AgentMessage] = [CompactionSummaryMessage("## Goal\nold")]
    for n in range(10):
        messages += _turn(n)
    details = {"e0": {"readFiles": ["old_read.py"], "modifiedFiles": ["old_mod.py"]}}
    plan = plan_compaction(
        messages, _ids(messages), keep_recent_tokens=500, tokens_before=1, details_for=details.get
    )
    assert plan is not None
    assert plan.previous_summary == "## Goal\nold"
    assert not any(isinstance(m, CompactionSummaryMessage) for m in plan.history)
    assert plan.file_ops.to_details()["modifiedFiles"] == ["old_mod.py"]
    assert "old_read.py" in plan.file_ops.to_details()["readFiles"]


def test_synthetic_results_without_entries_are_never_cut_points() -> None:
    assert not is_safe_cut(UserMessage("x"), None)
    assert not is_safe_cut(CompactionSummaryMessage("s"), "e0")
    assert is_safe_cut(AssistantMessage([]), "e1")


def test_a_turn_already_split_by_an_earlier_compaction_is_folded_into_its_summary() -> None:
    """Found in a long run: each compaction inside one turn of many tool calls added another
    "beginning of the current turn" section to the summary instead of updating it."""
    summary = "## Goal\nrefactor\n\n---\n\n## Beginning of the current turn\n\nread big0..big9"
    messages: list[AgentMessage] = [CompactionSummaryMessage(summary)]
    for i in range(10, 50):  # the same turn goes on: its user message is in the summary
        call = ToolCall(f"k{i}", "read", {"path": f"big{i}.py"})
        messages += [AssistantMessage([call]), ToolResultMessage(call.id, "read", [TextContent("y" * 2_000)])]
    plan = plan_compaction(messages, _ids(messages), keep_recent_tokens=3_000, tokens_before=1)
    assert plan is not None and not plan.is_split_turn
    assert plan.previous_summary == summary
    assert plan.history == messages[1 : plan.first_kept_index]
