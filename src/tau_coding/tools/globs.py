"""Glob patterns as regular expressions: gitignore's dialect, also used by find and grep's glob.

``*`` and ``?`` stay within one path component, ``**`` crosses components, ``[...]`` is a
character class. A pattern without a slash matches a file's name at any depth; with one it
matches the path from the search root (a leading ``/`` anchors explicitly).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _translate(glob: str) -> str:
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        char = glob[i]
        if char == "*":
            if glob.startswith("**", i):
                at_start = i == 0 or glob[i - 1] == "/"
                at_end = i + 2 == n or glob[i + 2] == "/"
                if at_start and at_end:
                    if i + 2 == n:
                        out.append(".*")  # "dir/**": everything inside
                        i += 2
                    else:
                        out.append("(?:.*/)?")  # "**/": zero or more directories
                        i += 3
                    continue
                out.append("[^/]*")
                i += 2
                continue
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            close = glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "^") else i + 1)
            if close < 0:
                out.append(re.escape(char))
            else:
                body = glob[i + 1 : close]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = close
        elif char == "{" and "}" in glob[i:]:
            close = glob.index("}", i)
            options = glob[i + 1 : close].split(",")
            out.append("(?:" + "|".join(_translate(option) for option in options) + ")")
            i = close
        elif char == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled glob; ``matches`` takes a path relative to the root, ``/``-separated."""

    pattern: str
    regex: re.Pattern[str]
    anchored: bool

    def matches(self, rel_path: str) -> bool:
        subject = rel_path if self.anchored else rel_path.rsplit("/", 1)[-1]
        return self.regex.fullmatch(subject) is not None


def compile_glob(pattern: str, *, ignore_case: bool = False) -> Glob:
    body = pattern.removeprefix("./")
    anchored = "/" in body.rstrip("/")
    body = body.lstrip("/")
    flags = re.IGNORECASE if ignore_case else 0
    return Glob(pattern, re.compile(_translate(body), flags), anchored)


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    glob: Glob
    negated: bool
    directory_only: bool
    base: str  # directory of the .gitignore, relative to the root ("" for the root)


def parse_gitignore(text: str, base: str) -> list[IgnoreRule]:
    """The rules of one .gitignore file found in directory ``base`` (root-relative)."""
    rules: list[IgnoreRule] = []
    for raw in text.splitlines():
        line = raw.rstrip(" ") if not raw.endswith("\\ ") else raw
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated or line.startswith("\\"):
            line = line[1:]
        directory_only = line.endswith("/")
        line = line.rstrip("/")
        if line:
            rules.append(IgnoreRule(compile_glob(line), negated, directory_only, base))
    return rules


def is_ignored(rules: list[IgnoreRule], rel_path: str, is_dir: bool) -> bool:
    """Whether the last rule that matches ``rel_path`` ignores it (gitignore's precedence)."""
    verdict = False
    for rule in rules:
        if rule.directory_only and not is_dir:
            continue
        if rule.base:
            if not rel_path.startswith(rule.base + "/"):
                continue
            subject = rel_path[len(rule.base) + 1 :]
        else:
            subject = rel_path
        if rule.glob.matches(subject):
            verdict = not rule.negated
    return verdict
