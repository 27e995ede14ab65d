"""HTML for one session entry, for the HTML export: messages, tool calls, outputs, summaries.

Everything the session holds is escaped; assistant text is rendered as CommonMark with raw
HTML disabled, so no session content can inject markup or scripts into the page, and a
Markdown image becomes a link (opening an export contacts no host). Code
(fences, tool arguments, files the ``read`` tool returned) is highlighted with Pygments
into static spans styled by the page's own stylesheet.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import JsonLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall, text_of
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
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
from tau_agent.wire import WireError, message_from_dict

HIGHLIGHT_LIMIT = 200_000  # characters; longer outputs are shown plain
OPEN_OUTPUT_LINES = 12  # tool outputs up to this many lines start expanded
_FORMATTER: HtmlFormatter[str] = HtmlFormatter(cssclass="hl", nowrap=True)


def highlight_css() -> str:
    formatter: HtmlFormatter[str] = HtmlFormatter(style="friendly")
    return str(formatter.get_style_defs(".hl"))  # type: ignore[no-untyped-call]


def _code(text: str, lexer: Lexer | None) -> str:
    if lexer is None or len(text) > HIGHLIGHT_LIMIT:
        return f'<pre class="hl">{escape(text)}</pre>'
    return f'<pre class="hl">{highlight(text, lexer, _FORMATTER)}</pre>'


def _fence_highlighter(code: str, lang: str, _attrs: Any) -> str:
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    return _code(code, lexer)


_MARKDOWN = MarkdownIt("commonmark", {"html": False, "highlight": _fence_highlighter})


def _image_as_link(renderer: Any, tokens: Any, index: int, options: Any, env: Any) -> str:
    """A Markdown image becomes a link to it: opening the page loads nothing from anywhere."""
    token = tokens[index]
    alt = "".join(child.content for child in token.children or ()) or "image"
    src = str(token.attrGet("src") or "")
    return f'<a class="image-link" href="{escape(src)}" rel="noopener noreferrer">[image: {escape(alt)}]</a>'


_MARKDOWN.add_render_rule("image", _image_as_link)


def markdown(text: str) -> str:
    return str(_MARKDOWN.render(text))


def _plain(text: str) -> str:
    return f'<div class="plain">{escape(text)}</div>'


def _blocks(content: str | list[TextContent | ImageContent]) -> str:
    if isinstance(content, str):
        return _plain(content)
    out = []
    for block in content:
        if isinstance(block, TextContent):
            out.append(_plain(block.text))
        else:
            out.append(
                f'<img alt="attached image" src="data:{escape(block.mime_type)};base64,{escape(block.data)}">'
            )
    return "".join(out)


def _output(title: str, text: str, lexer: Lexer | None = None, error: bool = False) -> str:
    lines = text.rstrip("\n").count("\n") + 1
    state = " open" if lines <= OPEN_OUTPUT_LINES else ""
    css = "output error" if error else "output"
    summary = f"{escape(title)} <span class=dim>({lines} line{'s' if lines != 1 else ''})</span>"
    return f'<details class="{css}"{state}><summary>{summary}</summary>{_code(text, lexer)}</details>'


def _file_lexer(call: ToolCall | None) -> Lexer | None:
    path = call.arguments.get("path") if call is not None and call.name == "read" else None
    if not isinstance(path, str):
        return None
    try:
        return get_lexer_for_filename(path)
    except ClassNotFound:
        return None


def render_message(message: AgentMessage, calls: dict[str, ToolCall]) -> tuple[str, str]:
    """(css kind, inner HTML). ``calls`` maps tool call ids seen so far to their calls."""
    if isinstance(message, UserMessage):
        return "user", _blocks(message.content)
    if isinstance(message, AssistantMessage):
        parts = []
        for block in message.content:
            if isinstance(block, TextContent):
                parts.append(markdown(block.text))
            elif isinstance(block, ThinkingContent):
                if block.thinking:
                    parts.append(
                        f'<details class="thinking"><summary>thinking</summary>{_plain(block.thinking)}</details>'
                    )
            elif isinstance(block, ToolCall):
                calls[block.id] = block
                args = json.dumps(block.arguments, indent=2, ensure_ascii=False)
                parts.append(
                    f'<div class="toolcall"><b>{escape(block.name)}</b>{_code(args, JsonLexer())}</div>'
                )
        if message.error_message:
            parts.append(
                f'<div class="error">{escape(message.stop_reason)}: {escape(message.error_message)}</div>'
            )
        return "assistant", "".join(parts)
    if isinstance(message, ToolResultMessage):
        text = text_of(message.content, image="[image]", sep="\n")
        lexer = _file_lexer(calls.get(message.tool_call_id))
        return "tool", _output(f"{message.tool_name} result", text, lexer, message.is_error)
    if isinstance(message, BashExecutionMessage):
        return "bash", _output(f"$ {message.command}", message.output or "(no output)")
    if isinstance(message, CustomMessage):
        return "note", _blocks(message.content)
    return "note", markdown(message.summary)


def render_entry(entry: SessionEntry, calls: dict[str, ToolCall]) -> tuple[str, str]:
    """(css kind, inner HTML) for any entry kind."""
    if isinstance(entry, MessageEntry):
        return render_message(entry.message, calls)
    if isinstance(entry, CompactionEntry):
        return "summary", f"<b>Compacted</b> ({entry.tokens_before} tokens before){markdown(entry.summary)}"
    if isinstance(entry, BranchSummaryEntry):
        return "summary", f"<b>Summary of another branch</b>{markdown(entry.summary)}"
    if isinstance(entry, CustomMessageEntry):
        return "note", f"<b>{escape(entry.custom_type)}</b>{_blocks(entry.content)}"
    if isinstance(entry, ModelChangeEntry):
        return "meta", f"model → {escape(entry.provider)}/{escape(entry.model_id)}"
    if isinstance(entry, ThinkingLevelChangeEntry):
        return "meta", f"thinking → {escape(entry.thinking_level)}"
    if isinstance(entry, LabelEntry):
        return "meta", f"label {escape(entry.label or '(cleared)')} on {escape(entry.target_id)}"
    if isinstance(entry, SessionInfoEntry):
        return "meta", f"session named {escape(entry.name or '')}"
    if isinstance(entry, CustomEntry):
        nested = _nested_transcript(entry.data)
        if nested is not None:
            return "note", f"<b>{escape(entry.custom_type)}</b>{nested}"
        return "meta", f"{escape(entry.custom_type)} data"
    return "meta", f"{escape(entry.raw_type)} entry"


def _nested_transcript(data: Any) -> str | None:
    """A custom entry whose data holds ``messages`` in the session file's format (a subagent's
    transcript, ``tau.subagent``) is shown as a collapsed transcript of its own."""
    raw = data.get("messages") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(raw, list) or not raw:
        return None
    calls: dict[str, ToolCall] = {}
    parts = []
    for item in raw:
        try:
            message = message_from_dict(item)
        except (WireError, TypeError, ValueError, KeyError):
            continue
        kind, body = render_message(message, calls)
        parts.append(f'<div class="entry {kind}"><div class="who">{escape(kind)}</div>{body}</div>')
    title = " · ".join(str(data[k]) for k in ("agent", "description", "model") if data.get(k))
    error = f'<div class="error">{escape(str(data["error"]))}</div>' if data.get("error") else ""
    summary = f"{escape(title or 'transcript')} <span class=dim>({len(parts)} messages)</span>"
    inner = "".join(parts)
    return f'<details class="transcript"><summary>{summary}</summary>{inner}</details>{error}'


__all__ = ["highlight_css", "markdown", "render_entry", "render_message"]
