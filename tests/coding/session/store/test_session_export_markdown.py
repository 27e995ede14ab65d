from __future__ import annotations

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, BashExecutionMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.session.store.export_markdown import fence, session_markdown


def test_markdown_has_the_active_path_in_order_with_tools_fenced() -> None:
    header = SessionHeader(id="sid", timestamp="2025-01-01T00:00:00.000Z", cwd="/p")
    log = SessionLog(InMemorySessionStorage(header))
    log.append_message(UserMessage([TextContent("Show me the file"), ImageContent("AA", "image/png")]))
    log.append_message(
        AssistantMessage(
            [ThinkingContent("hmm\nok"), TextContent("Reading."), ToolCall("c", "read", {"path": "a.md"})],
            provider="openai",
            model="gpt-4o",
            stop_reason="toolUse",
        )
    )
    log.append_message(ToolResultMessage("c", "read", [TextContent("```python\nx = 1\n```\n")]))
    abandoned = log.append_message(UserMessage("abandoned branch"))
    log.navigate(abandoned.parent_id)
    log.append_message(BashExecutionMessage("ls", "a.md\n", 0))
    log.set_name("File tour")
    text = session_markdown(header, log.state())
    assert text.startswith("# File tour\n")
    assert "- Model: openai/gpt-4o, thinking off" in text
    assert (
        text.index("## User")
        < text.index("## Assistant (openai/gpt-4o)")
        < text.index("## Tool result: read")
    )
    assert "*[image: image/png]*" in text and "> hmm\n> ok" in text
    assert "````\n```python\nx = 1\n```\n````" in text  # the fence outgrows the content's own
    assert "## Command: `ls`" in text
    assert "abandoned branch" not in text


def test_fence_is_longer_than_any_backtick_run_inside() -> None:
    assert fence("plain") == "```\nplain\n```"
    assert fence("a ````` b", "md").startswith("``````md\n")
