"""An MCP ``CallToolResult`` as Tau's tool result.

Text stays text; images stay images (audio, which no model input takes here, becomes a line
naming it); a resource link becomes a line with its URI; an embedded resource becomes its
text, or a line naming a binary one; ``structuredContent`` is added as JSON text when no text
block already says the same. ``isError`` makes the result a tool error. The details carry the
server and tool names (and the structured content) for the app, never for the model.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.types import (
    AudioContent,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    GetPromptResult,
    ReadResourceResult,
    ResourceLink,
    TextResourceContents,
)
from mcp.types import ImageContent as McpImage
from mcp.types import TextContent as McpText

from tau_agent.content import ImageContent, TextContent, ToolResultContent
from tau_agent.tools import AgentToolResult


def map_result(server: str, tool: str, result: CallToolResult) -> AgentToolResult:
    """Imported only once a server answered, so the SDK import here costs start-up nothing."""
    blocks: list[ToolResultContent] = []
    for block in result.content:
        blocks.append(_block(block))
    structured = result.structured_content
    if structured is not None:
        text = json.dumps(structured, ensure_ascii=False, sort_keys=True)
        texts = [b.text for b in blocks if isinstance(b, TextContent)]
        if not any(_says(text, structured) for text in texts):
            blocks.append(TextContent(text))
    if not blocks:
        blocks.append(TextContent("(no content)"))
    details = {"server": server, "tool": tool, "structuredContent": structured}
    return AgentToolResult(blocks, details, bool(result.is_error))


def _block(block: ContentBlock) -> ToolResultContent:
    if isinstance(block, McpText):
        return TextContent(block.text)
    if isinstance(block, McpImage):
        return ImageContent(block.data, block.mime_type)
    if isinstance(block, AudioContent):
        return TextContent(f"[audio {block.mime_type}, {len(block.data) * 3 // 4} bytes, not shown]")
    if isinstance(block, ResourceLink):
        title = f" ({block.description})" if block.description else ""
        mime = f" [{block.mime_type}]" if block.mime_type else ""
        return TextContent(f"Resource link: {block.name} {block.uri}{mime}{title}")
    if isinstance(block, EmbeddedResource):
        contents = block.resource
        if isinstance(contents, TextResourceContents):
            return TextContent(f"Resource {contents.uri}:\n{contents.text}")
        mime = contents.mime_type or "application/octet-stream"
        if mime.startswith("image/"):
            return ImageContent(contents.blob, mime)
        return TextContent(f"Resource {contents.uri}: {mime}, {len(contents.blob) * 3 // 4} bytes, not shown")
    return TextContent(f"[{type(block).__name__} not shown]")


def _says(text: str, structured: Any) -> bool:
    """Whether ``text`` already is the structured content: the same JSON, or the plain value an
    SDK wrapped as ``{"result": value}`` for a tool that returns a string or a number."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = text
    if parsed == structured:
        return True
    if isinstance(structured, dict) and structured.keys() == {"result"}:
        return bool(parsed == structured["result"] or text == structured["result"])
    return False


def prompt_text(result: GetPromptResult) -> str:
    """A prompt's messages as the text of one user message; an assistant part is labelled as such."""
    parts: list[str] = []
    for message in result.messages:
        block = _block(message.content)
        text = block.text if isinstance(block, TextContent) else "[image]"
        parts.append(text if message.role == "user" else f"(assistant) {text}")
    return "\n\n".join(parts)


def resource_text(result: ReadResourceResult) -> str:
    """A resource's contents as text: text parts as they are, binary parts named with their size."""
    parts = []
    for contents in result.contents:
        if isinstance(contents, TextResourceContents):
            parts.append(contents.text)
        else:
            mime = contents.mime_type or "application/octet-stream"
            parts.append(f"[{contents.uri}: {mime}, {len(contents.blob) * 3 // 4} bytes, not shown]")
    return "\n".join(parts)
