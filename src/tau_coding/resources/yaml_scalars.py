"""Scalars of the frontmatter YAML subset: plain, single- and double-quoted strings, ``[a, b]`` lists.

Each function takes the value text (comments allowed after it) and an ``error`` factory that
turns a message into the exception to raise, so the caller decides how positions are reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

ErrorFactory: TypeAlias = Callable[[str], Exception]

_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
    "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def parse_string(text: str, error: ErrorFactory) -> str:
    """A plain or quoted scalar."""
    if not text:
        return ""
    head = text[0]
    if head == '"':
        return _quoted(text, _double_quoted_end(text, error), error, double=True)
    if head == "'":
        return _quoted(text, _single_quoted_end(text, error), error, double=False)
    if head in "[{&*!%@`|>" or text.startswith(("- ", "? ")) or text == "-":
        raise error(f"unsupported YAML syntax at {text[:20]!r}; put the value in quotes")
    comment = text.find(" #")
    if comment >= 0:
        text = text[:comment]
    text = text.rstrip()
    if ": " in text or text.endswith(":"):
        raise error("a plain value may not contain ': '; put the value in quotes")
    return text


def _quoted(text: str, end: int, error: ErrorFactory, *, double: bool) -> str:
    rest = text[end + 1 :].strip()
    if rest and not rest.startswith("#"):
        raise error(f"unexpected text after the closing quote: {rest[:20]!r}")
    inner = text[1:end]
    return _unescape(inner, error) if double else inner.replace("''", "'")


def _double_quoted_end(text: str, error: ErrorFactory) -> int:
    index = 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == '"':
            return index
        index += 1
    raise error("unterminated double-quoted string")


def _single_quoted_end(text: str, error: ErrorFactory) -> int:
    index = 1
    while index < len(text):
        if text[index] == "'":
            if text[index + 1 : index + 2] == "'":
                index += 2
                continue
            return index
        index += 1
    raise error("unterminated single-quoted string")


def _unescape(inner: str, error: ErrorFactory) -> str:
    out: list[str] = []
    index = 0
    while index < len(inner):
        char = inner[index]
        if char != "\\":
            out.append(char)
            index += 1
            continue
        code = inner[index + 1 : index + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            index += 2
        elif code in _HEX_ESCAPES:
            digits = inner[index + 2 : index + 2 + _HEX_ESCAPES[code]]
            if len(digits) != _HEX_ESCAPES[code] or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise error(f"bad \\{code} escape in double-quoted string")
            out.append(chr(int(digits, 16)))
            index += 2 + len(digits)
        else:
            raise error(f"unknown escape \\{code} in double-quoted string")
    return "".join(out)


def parse_flow_list(text: str, error: ErrorFactory) -> tuple[str, ...]:
    items: list[str] = []
    index = 1
    while True:
        while index < len(text) and text[index] in " \t":
            index += 1
        if index >= len(text):
            raise error("unterminated '[' list")
        if text[index] == "]":
            break
        if text[index] in "\"'":
            end = (_double_quoted_end if text[index] == '"' else _single_quoted_end)(text[index:], error)
            items.append(_quoted(text[index : index + end + 1], end, error, double=text[index] == '"'))
            index += end + 1
        else:
            stop = index
            while stop < len(text) and text[stop] not in ",]":
                stop += 1
            items.append(parse_string(text[index:stop].strip(), error))
            index = stop
        while index < len(text) and text[index] in " \t":
            index += 1
        if index < len(text) and text[index] == ",":
            index += 1
        elif index >= len(text) or text[index] != "]":
            raise error("expected ',' or ']' in list")
    rest = text[index + 1 :].strip()
    if rest and not rest.startswith("#"):
        raise error(f"unexpected text after ']': {rest[:20]!r}")
    return tuple(items)
