"""Context accounting: provider usage for everything up to the last good reply, estimates after."""

from __future__ import annotations

from tau_agent.content import ImageContent, TextContent, ToolCall
from tau_agent.messages import (
    AssistantMessage,
    CompactionSummaryMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tau_agent.tools import ToolSpec
from tau_coding.session.compaction.context_usage import (
    IMAGE_TOKENS,
    context_usage,
    estimate_message_tokens,
    last_usage_index,
)


def _reply(tokens: int, *, stop: str = "stop", timestamp: int = 1_000) -> AssistantMessage:
    return AssistantMessage(
        [TextContent("ok")],
        usage=Usage(input=tokens - 10, output=10),
        stop_reason=stop,
        timestamp=timestamp,  # type: ignore[arg-type]
    )


def test_reported_usage_covers_everything_before_and_only_the_tail_is_estimated() -> None:
    tail = UserMessage("x" * 400)
    usage = context_usage([UserMessage("a" * 40_000), _reply(5_000), tail], 100_000)
    assert usage.tokens == 5_000 + estimate_message_tokens(tail)
    assert usage.estimated == estimate_message_tokens(tail) == 104
    assert usage.window == 100_000 and abs(usage.percent - 5.104) < 1e-9


def test_failed_and_aborted_replies_are_not_trusted() -> None:
    messages = [UserMessage("hi"), _reply(5_000), UserMessage("again"), _reply(9_999, stop="error")]
    assert last_usage_index(messages) == 1
    messages.append(_reply(7_000, stop="aborted"))
    assert last_usage_index(messages) == 1


def test_usage_from_before_the_latest_compaction_is_never_used() -> None:
    kept = _reply(150_000, timestamp=1_000)
    messages = [CompactionSummaryMessage("summary", 150_000, timestamp=2_000), UserMessage("q"), kept]
    assert last_usage_index(messages) == -1
    usage = context_usage(messages, 200_000)
    assert usage.tokens < 1_000 and usage.estimated == usage.tokens
    after = _reply(3_000, timestamp=3_000)
    assert last_usage_index([*messages, UserMessage("n"), after]) == 4
    assert last_usage_index([*messages, UserMessage("n"), after], trust_from=5) == -1


def test_without_usage_the_system_prompt_and_tools_are_counted_once() -> None:
    tool = ToolSpec("read", "Read a file", {"type": "object"})
    bare = context_usage([UserMessage("hello")], 1_000)
    full = context_usage([UserMessage("hello")], 1_000, system_prompt="s" * 400, tools=[tool])
    assert full.tokens - bare.tokens == 100 + 1 + 3 + 5


def test_images_cost_a_fixed_amount_and_tool_calls_count_their_arguments() -> None:
    image = ImageContent("A" * 1_000_000, "image/png")
    result = ToolResultMessage("c", "read", [image])
    assert estimate_message_tokens(result) == 4 + IMAGE_TOKENS
    small = AssistantMessage([ToolCall("c", "write", {"content": ""})])
    big = AssistantMessage([ToolCall("c", "write", {"content": "y" * 4_000})])
    assert estimate_message_tokens(big) - estimate_message_tokens(small) == 1_000
