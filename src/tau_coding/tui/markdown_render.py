"""An answer's text as Rich Markdown, the one way the transcript and the scrollback render it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.markdown_blocks import parser

if TYPE_CHECKING:
    from markdown_it.token import Token
    from rich.markdown import Markdown, MarkdownElement


# While set: the code of a block and the tokens to colour it with (code_cut.py).
_GIVEN: ContextVar[tuple[str, Sequence[tuple[Any, str]]] | None] = ContextVar(
    "given_code_tokens", default=None
)


@contextmanager
def given_code_tokens(code: str, tokens: Sequence[tuple[Any, str]]) -> Iterator[None]:
    """While rendering inside: a code block whose code is exactly ``code`` is coloured with
    ``tokens`` (what its lexer gives for it, or for it inside a longer block) instead of being
    lexed alone. ``tokens`` must spell the code as Syntax prepares it (a final line feed,
    tabs expanded)."""
    reset = _GIVEN.set((code, tokens))
    try:
        yield
    finally:
        _GIVEN.reset(reset)


def answer_markdown(source: str) -> Markdown:
    """An answer's text as Rich Markdown, its single line breaks kept; tables and code blocks
    without Rich's blank edge rows, so one blank line separates blocks, as in the text."""
    markdown = _markdown_class()(safe_text(source), code_theme="ansi_dark", inline_code_theme="ansi_dark")
    # A single newline is a soft break in Markdown (drawn as a space); the model's
    # answers mean it as a line break, so it is kept as one.
    for block in markdown.parsed:
        opened: list[Token] = []
        for token in block.children or ():
            if token.type == "softbreak":
                token.type = "hardbreak"
            elif token.type == "html_inline" and token.content in ("<kbd>", "</kbd>"):
                if token.content == "<kbd>":
                    opened.append(token)
                elif opened:
                    opened.pop()
                else:  # Rich pops a style it never pushed and fails on the paragraph's end
                    token.content = ""
        for token in opened:  # else its style would run on past the paragraph
            token.content = ""
    return markdown


@cache
def _markdown_class() -> type[Markdown]:
    """Rich's Markdown with tighter tables and code blocks (made on first use: markdown-it and
    pygments are not imported at launch)."""
    from pygments.lexer import Lexer
    from rich import box
    from rich.markdown import CodeBlock, Markdown, TableElement
    from rich.syntax import Syntax
    from rich.table import Table

    class Tight(TableElement):
        # Rich's table draws a blank top and bottom edge: with the blank lines between blocks,
        # a table stood between two or three empty lines.
        def __rich_console__(self, console: Any, options: Any) -> Any:
            table = Table(
                box=box.SIMPLE,
                pad_edge=False,
                style="markdown.table.border",
                show_edge=False,
                collapse_padding=True,
            )
            if self.header is not None and self.header.row is not None:
                for column in self.header.row.cells:
                    heading = column.content.copy()
                    heading.stylize("markdown.table.header")
                    table.add_column(heading)
            if self.body is not None:
                for row in self.body.rows:
                    table.add_row(*(cell.content for cell in row.cells))
            yield table

    class Given(Lexer):
        def __init__(self, tokens: Sequence[tuple[Any, str]]) -> None:
            super().__init__()
            self.tokens = tokens

        def get_tokens(
            self, text: str | bytes | bytearray, unfiltered: bool = False
        ) -> Iterator[tuple[Any, str]]:
            return iter(self.tokens)

    class Code(CodeBlock):
        # Rich pads a code block with a blank line above and below; keep the side padding only.
        def __rich_console__(self, console: Any, options: Any) -> Any:
            code = str(self.text).rstrip()
            given = _GIVEN.get()
            lexer = Given(given[1]) if given is not None and given[0] == code else self.lexer_name
            yield Syntax(code, lexer, theme=self.theme, word_wrap=True, padding=(0, 1))

    class AnswerMarkdown(Markdown):
        elements: ClassVar[dict[str, type[MarkdownElement]]] = {
            **Markdown.elements,
            "table_open": Tight,
            "fence": Code,
            "code_block": Code,
        }

        def __init__(self, markup: str, code_theme: str, inline_code_theme: str) -> None:
            # Rich's own constructor builds a new markdown-it parser for every text, about 1 ms,
            # once a frame while an answer streams; the parser is stateless between texts, so
            # one configured as Rich configures its own serves every render.
            self.markup = markup
            self.parsed = parser().parse(markup)
            self.code_theme = code_theme
            self.justify = None
            self.style = "none"
            self.hyperlinks = True
            self.inline_code_lexer = None
            self.inline_code_theme = inline_code_theme

    return AnswerMarkdown
