"""A strict parser for the YAML subset that skill and prompt-template frontmatter uses.

Why not PyYAML: importing it costs ~13 ms (measured with ``python -X importtime``), which is a
large share of Tau's start-up budget, and frontmatter needs only a sliver of YAML. What is
accepted, and means the same as in YAML:

- ``key: value`` pairs at the top level; keys are ``[A-Za-z0-9_][A-Za-z0-9_.-]*``, unique;
- plain scalars (continued on more-indented lines, folded with spaces), ``"double"`` quoted
  (with YAML escapes) and ``'single'`` quoted (``''`` for a quote) strings;
- block scalars ``|`` and ``>`` with the ``-`` / ``+`` chomping indicators;
- lists, as ``- item`` lines or ``[a, "b"]``, of scalars;
- one level of nested ``key: value`` map (for the spec's ``metadata``);
- ``#`` comments and blank lines.

Everything else (anchors, tags, flow maps, deeper nesting, a plain scalar containing ``": "``)
raises ``FrontmatterError`` naming the line, so a file Tau accepts means the same to any YAML
reader. Every value is a string, a tuple of strings or a dict of strings; an empty value is "".
"""

from __future__ import annotations

import re
from typing import TypeAlias

from tau_coding.resources.yaml_scalars import ErrorFactory, parse_flow_list, parse_string

FrontmatterValue: TypeAlias = str | tuple[str, ...] | dict[str, str]

_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$")
_ITEM = re.compile(r"-(?:[ \t]+(.*))?$")
_BLOCK_HEADER = re.compile(r"([|>])([+-]?)[ \t]*(?:#.*)?$")


class FrontmatterError(ValueError):
    """The frontmatter is not in the accepted subset; ``line`` is 1-based within the file."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """``(frontmatter, body)``; frontmatter is ``None`` when the text does not start with ``---``.

    Raises ``FrontmatterError`` when a ``---`` opening line is never closed by ``---`` or ``...``.
    """
    first, _, rest = text.partition("\n")
    if first.rstrip() != "---":
        return None, text
    lines = rest.split("\n")
    for index, line in enumerate(lines):
        if line.rstrip() in ("---", "..."):
            return "\n".join(lines[:index]), "\n".join(lines[index + 1 :])
    raise FrontmatterError(1, "frontmatter opened with '---' is never closed")


def parse_frontmatter(block: str, *, first_line: int = 2) -> dict[str, FrontmatterValue]:
    """Parse a frontmatter block (without its fences); ``first_line`` numbers its first line."""
    return _Parser(block.split("\n"), first_line).parse()


class _Parser:
    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = lines
        self.first_line = first_line
        self.i = 0

    def error(self, index: int, message: str) -> FrontmatterError:
        return FrontmatterError(self.first_line + index, message)

    def error_at(self, index: int) -> ErrorFactory:
        return lambda message: self.error(index, message)

    def parse(self) -> dict[str, FrontmatterValue]:
        result: dict[str, FrontmatterValue] = {}
        while self.i < len(self.lines):
            index, line = self.i, self.lines[self.i]
            self.i += 1
            if _is_blank_or_comment(line):
                continue
            if line[0] in " \t":
                raise self.error(index, "unexpected indentation")
            match = _KEY.match(line)
            if match is None:
                raise self.error(index, f"expected 'key: value', got {line.strip()[:40]!r}")
            key, rest = match.group(1), (match.group(2) or "").strip()
            if key in result:
                raise self.error(index, f"duplicate key {key!r}")
            result[key] = self.value(index, rest)
        return result

    def value(self, index: int, rest: str) -> FrontmatterValue:
        if rest[:1] in ("|", ">"):
            return self.block_scalar(index, rest)
        if not rest or rest.startswith("#"):
            return self.nested(index)
        pieces = [rest]
        blanks = 0
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if not line.strip():
                blanks += 1
            elif line[0] in " \t":
                _check_indent(self, self.i, line)
                pieces.append("\n" * blanks if blanks else " ")
                pieces.append(line.strip())
                blanks = 0
            else:
                break
            self.i += 1
        self.i -= blanks  # trailing blank lines belong to nobody
        text = "".join(pieces)
        if text.startswith("["):
            return parse_flow_list(text, self.error_at(index))
        return parse_string(text, self.error_at(index))

    def block_scalar(self, index: int, header: str) -> str:
        match = _BLOCK_HEADER.match(header)
        if match is None:
            raise self.error(
                index, f"unsupported block scalar header {header!r} (use |, |-, |+, >, >- or >+)"
            )
        style, chomp = match.groups()
        lines: list[str] = []
        indent = 0
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if line.strip():
                if line[0] not in " \t":
                    break
                if line[0] == "\t":
                    raise self.error(self.i, "tabs are not allowed in indentation")
                width = len(line) - len(line.lstrip(" "))
                if not indent:
                    indent = width
                elif width < indent:
                    raise self.error(self.i, "block scalar line is indented less than its first line")
                lines.append(line[indent:])
            else:
                lines.append("")
            self.i += 1
        content = lines
        while content and not content[-1]:
            content = content[:-1]
        trailing = len(lines) - len(content)
        text = "\n".join(content) if style == "|" else _fold(content)
        if not content or chomp == "-":
            return text
        return text + "\n" * (trailing + 1 if chomp == "+" else 1)

    def nested(self, index: int) -> FrontmatterValue:
        start = self.i
        while self.i < len(self.lines) and _is_blank_or_comment(self.lines[self.i]):
            self.i += 1
        if self.i >= len(self.lines):
            return ""
        line = self.lines[self.i]
        stripped = line.lstrip(" ")
        if _ITEM.match(stripped):
            return self.block_list(len(line) - len(stripped))
        if line[0] in " \t":
            _check_indent(self, self.i, line)
            return self.block_map(len(line) - len(stripped))
        self.i = start
        return ""

    def block_list(self, indent: int) -> tuple[str, ...]:
        items: list[str] = []
        while self.i < len(self.lines):
            index, line = self.i, self.lines[self.i]
            if _is_blank_or_comment(line):
                self.i += 1
                continue
            width = len(line) - len(line.lstrip(" "))
            match = _ITEM.match(line[width:])
            if width != indent or match is None:
                if width > indent:
                    raise self.error(index, "nested or continued list items are not supported")
                break
            self.i += 1
            item = (match.group(1) or "").strip()
            items.append(parse_string(item, self.error_at(index)))
        return tuple(items)

    def block_map(self, indent: int) -> dict[str, str]:
        mapping: dict[str, str] = {}
        while self.i < len(self.lines):
            index, line = self.i, self.lines[self.i]
            if _is_blank_or_comment(line):
                self.i += 1
                continue
            width = len(line) - len(line.lstrip(" "))
            if width < indent:
                if width:
                    raise self.error(index, "inconsistent indentation")
                break
            if width > indent:
                raise self.error(index, "nesting deeper than one level is not supported")
            match = _KEY.match(line[width:])
            if match is None:
                raise self.error(index, f"expected 'key: value', got {line.strip()[:40]!r}")
            key, rest = match.group(1), (match.group(2) or "").strip()
            if key in mapping:
                raise self.error(index, f"duplicate key {key!r}")
            if rest[:1] in ("|", ">"):
                raise self.error(index, "block scalars inside a nested map are not supported")
            self.i += 1
            mapping[key] = parse_string(rest, self.error_at(index))
        return mapping


def _is_blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _check_indent(parser: _Parser, index: int, line: str) -> None:
    if line[: len(line) - len(line.lstrip(" \t"))].count("\t"):
        raise parser.error(index, "tabs are not allowed in indentation")


def _fold(lines: list[str]) -> str:
    """YAML folding: a single line break becomes a space, blank lines become line breaks."""
    out: list[str] = []
    blanks = 0
    previous_more = False
    for line in lines:
        if not line:
            blanks += 1
            continue
        more = line[0] in " \t"
        if not out:
            out.append("\n" * blanks)
        elif more or previous_more:
            out.append("\n" * (blanks + 1))
        else:
            out.append("\n" * blanks if blanks else " ")
        out.append(line)
        blanks, previous_more = 0, more
    return "".join(out)
