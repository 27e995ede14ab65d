"""Parse the arguments of a tool call while its JSON is still arriving.

``parse_partial_json`` never raises: it returns the largest object that the text so far
describes, keeping a string value that is still being written (so a streamed file body shows
up as it arrives) and dropping a key, number or literal that is not complete yet.
"""

from __future__ import annotations

import json
import re
from typing import Any

_STRING_STOP = re.compile(r'["\\]')
_CLOSE = {"{": "}", "[": "]"}


def parse_partial_json(text: str) -> dict[str, Any]:
    """The object described by ``text`` so far; ``{}`` when nothing usable has arrived."""
    try:
        value = json.loads(text)
    except ValueError:
        value = _parse_prefix(text)
    except RecursionError:
        return {}
    return value if isinstance(value, dict) else {}


def _closers(stack: list[str]) -> str:
    return "".join(_CLOSE[c] for c in reversed(stack))


def _parse_prefix(text: str) -> Any:
    """Cut ``text`` at the last point where closing the open containers gives valid JSON."""
    stack: list[str] = []
    expect_key: list[bool] = []  # per object level: is the next string a key?
    safe = ""  # best complete candidate seen so far
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            is_key = bool(stack) and stack[-1] == "{" and expect_key[-1]
            start = i
            i += 1
            closed = False
            while True:
                m = _STRING_STOP.search(text, i)
                if m is None:
                    i = n
                    break
                if m.group() == "\\":
                    i = m.end() + 1
                    if i > n:
                        i = n
                        break
                    continue
                i = m.end()
                closed = True
                break
            if not closed:
                if not is_key and stack:
                    body = text[start:n]
                    body = _trim_incomplete_escape(body)
                    safe = text[:start] + body + '"' + _closers(stack)
                return _load(safe)
            if is_key:
                expect_key[-1] = False
            elif stack:
                safe = text[:i] + _closers(stack)
            continue
        if c in "{[":
            stack.append(c)
            expect_key.append(c == "{")
            safe = text[: i + 1] + _closers(stack)
        elif c in "}]":
            if not stack:
                break
            stack.pop()
            expect_key.pop()
            safe = text[: i + 1] + _closers(stack)
        elif c == ",":
            if stack and stack[-1] == "{":
                expect_key[-1] = True
        elif c in " \t\r\n:":
            pass
        else:
            # number or literal: complete once a delimiter follows it
            j = i
            while j < n and text[j] not in ",}] \t\r\n":
                j += 1
            if j < n and stack:
                safe = text[:j] + _closers(stack)
            i = j
            continue
        i += 1
    return _load(safe)


def _trim_incomplete_escape(body: str) -> str:
    """Drop a trailing lone backslash or half a ``\\uXXXX`` so the string stays valid."""
    k = body.rfind("\\")
    if k == -1:
        return body
    run = (k + 1) - len(body[: k + 1].rstrip("\\"))
    if run % 2 == 0:
        return body  # the last backslash is itself escaped
    tail = body[k + 1 :]
    if tail == "" or (tail[0] == "u" and len(tail) < 5):
        return body[:k]
    return body


def _load(candidate: str) -> Any:
    if not candidate:
        return {}
    try:
        return json.loads(candidate)
    except (ValueError, RecursionError):
        return {}
