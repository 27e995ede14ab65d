"""An answer's text as Rich Markdown, the one way the transcript and the scrollback render it."""

from __future__ import annotations

from rich.console import RenderableType

from tau_coding.common.escape_stripping import safe_text


def answer_markdown(source: str) -> RenderableType:
    """An answer's text as Rich Markdown, its single line breaks kept."""
    from rich.markdown import Markdown as RichMarkdown  # markdown-it and pygments: not at launch

    markdown = RichMarkdown(safe_text(source), code_theme="ansi_dark", inline_code_theme="ansi_dark")
    # A single newline is a soft break in Markdown (drawn as a space); the model's
    # answers mean it as a line break, so it is kept as one.
    for block in markdown.parsed:
        for token in block.children or ():
            if token.type == "softbreak":
                token.type = "hardbreak"
    return markdown
