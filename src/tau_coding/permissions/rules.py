"""Permission rules in Claude Code's syntax: ``Tool`` or ``Tool(specifier)``.

* ``Bash(git diff:*)``: commands that start with ``git diff`` (followed by nothing, a space or
  a character that is not part of a word, so ``git diff-tree`` is not ``git diff``);
  ``Bash(npm test)``: exactly that command; ``Bash(* --help)``: ``*`` matches any text.
* ``Edit(src/**)``, ``Write(...)``, ``Read(~/.ssh/**)``: gitignore-like paths. ``//p`` is
  absolute, ``~/p`` is under the home directory, ``/p`` and ``p`` are under the project.
  ``Edit`` rules cover every tool that changes files (edit, write), ``Read`` rules every tool
  that reads them (read, grep, find, ls).
* ``WebFetch(domain:example.com)``: a ``url`` argument on that host or under it.
* ``mcp__server`` (or ``mcp__server__*``): every tool of that MCP server; ``mcp__server__tool``.
* A bare name (``Bash``, ``Edit``, ``my_tool``) matches every call of that tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

# Claude Code's tool names and the Tau tools each stands for (rule names are case-insensitive).
FAMILIES: dict[str, frozenset[str]] = {
    "bash": frozenset({"bash"}),
    "edit": frozenset({"edit", "write"}),
    "multiedit": frozenset({"edit"}),
    "write": frozenset({"write"}),
    "read": frozenset({"read", "grep", "find", "ls"}),
    "grep": frozenset({"grep"}),
    "glob": frozenset({"find"}),
    "find": frozenset({"find"}),
    "ls": frozenset({"ls"}),
}
_RULE = re.compile(r"^([A-Za-z0-9_.*\-]+)(?:\((.*)\))?$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: ``tool`` as written (lower-cased), ``specifier`` inside the parentheses."""

    text: str
    tool: str
    specifier: str | None

    def covers(self, tool: str) -> bool:
        """Whether this rule speaks about calls of ``tool`` (Tau's name)."""
        if self.tool.startswith("mcp__") and self.specifier is None:
            server = self.tool.removesuffix("__*")
            return tool == server or (tool.startswith(server + "__") and server.count("__") == 1)
        family = FAMILIES.get(self.tool)
        return tool in family if family is not None else tool.lower() == self.tool


def parse_rule(text: str) -> Rule | None:
    """``text`` as a rule, or None when it is not one (empty parentheses included)."""
    match = _RULE.match(text.strip())
    if match is None or match.group(2) == "":
        return None
    specifier = match.group(2)
    if specifier is not None and specifier.strip() in ("*", ""):
        specifier = None
    return Rule(text.strip(), match.group(1).lower(), specifier)


@dataclass(frozen=True)
class RuleSet:
    """Rules of each kind, in the order the settings list them."""

    allow: tuple[Rule, ...] = ()
    ask: tuple[Rule, ...] = ()
    deny: tuple[Rule, ...] = ()

    @classmethod
    def parse(cls, allow: Iterable[str] = (), ask: Iterable[str] = (), deny: Iterable[str] = ()) -> RuleSet:
        """Rules from lists of strings; what does not parse is left out (see ``invalid_rules``)."""

        def rules(texts: Iterable[str]) -> tuple[Rule, ...]:
            return tuple(r for r in (parse_rule(t) for t in texts if isinstance(t, str)) if r is not None)

        return cls(rules(allow), rules(ask), rules(deny))

    @classmethod
    def from_settings(cls, permissions: Mapping[str, Any] | None) -> RuleSet:
        """The ``permissions`` object of settings.json (``allow``, ``ask``, ``deny`` lists)."""
        section = permissions or {}

        def texts(key: str) -> list[str]:
            value = section.get(key)
            return [str(v) for v in value] if isinstance(value, list) else []

        return cls.parse(texts("allow"), texts("ask"), texts("deny"))

    def plus(self, allow: Iterable[Rule]) -> RuleSet:
        return RuleSet((*self.allow, *allow), self.ask, self.deny)

    def covering(self, kind: str, tool: str) -> tuple[Rule, ...]:
        """The rules of list ``kind`` (allow, ask, deny) that speak about ``tool`` (cached)."""
        key = (kind, tool)
        found = self._covering.get(key)
        if found is None:
            rules = {"allow": self.allow, "ask": self.ask, "deny": self.deny}[kind]
            found = self._covering[key] = tuple(r for r in rules if r.covers(tool))
        return found

    def path_rule(self, kind: str, tool: str, path: str, project: str, home: str) -> Rule | None:
        """The first rule of ``kind`` for ``tool`` whose path specifier matches ``path``."""
        key = (kind, tool, project, home)
        matcher = self._paths.get(key)
        if matcher is None:
            matcher = self._paths[key] = PathMatcher(self.covering(kind, tool), project, home)
        return matcher.find(path)

    @cached_property
    def _covering(self) -> dict[tuple[str, str], tuple[Rule, ...]]:
        return {}

    @cached_property
    def _paths(self) -> dict[tuple[str, str, str, str], PathMatcher]:
        return {}

    @cached_property
    def bash_allow(self) -> CommandMatcher:
        return CommandMatcher(self.allow)

    @cached_property
    def bash_ask(self) -> CommandMatcher:
        return CommandMatcher(self.ask)

    @cached_property
    def bash_deny(self) -> CommandMatcher:
        return CommandMatcher(self.deny)


class CommandMatcher:
    """The ``Bash(...)`` rules of one list as one compiled pattern: which rule (if any) a
    command's text matches, in about a microsecond however many rules there are."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        bash = [r for r in rules if r.covers("bash")]
        self.everything = next((r for r in bash if r.specifier is None), None)
        self.rules = [r for r in bash if r.specifier is not None]
        parts = [f"({_command_regex(r.specifier)})" for r in self.rules if r.specifier is not None]
        self._pattern = re.compile("|".join(parts), re.DOTALL) if parts else None

    def find(self, command: str) -> Rule | None:
        """The first rule with a specifier that matches ``command``, or None."""
        if self._pattern is None:
            return None
        match = self._pattern.match(command)
        if match is None or match.lastindex is None:
            return None
        return self.rules[match.lastindex - 1]


class PathMatcher:
    """Path rules (``Edit(src/**)``...) of one list as one compiled pattern over absolute paths."""

    def __init__(self, rules: Iterable[Rule], project: str, home: str) -> None:
        self.rules = [r for r in rules if r.specifier is not None and not r.specifier.startswith("domain:")]
        parts = []
        for rule in self.rules:
            assert rule.specifier is not None
            pattern = absolute_pattern(rule.specifier, project, home)
            regex = _glob(pattern, False).pattern
            if not pattern.endswith("*"):  # a directory covers what is inside it
                regex = f"{regex}(?:/.*)?"
            parts.append(f"({regex})")
        self._pattern = re.compile("|".join(parts), re.DOTALL) if parts else None

    def find(self, path: str) -> Rule | None:
        if self._pattern is None:
            return None
        match = self._pattern.fullmatch(path)
        if match is None or match.lastindex is None:
            return None
        return self.rules[match.lastindex - 1]


def _command_regex(specifier: str) -> str:
    """A ``Bash(...)`` specifier as a regular expression, anchored at the start by ``match``:
    ``prefix:*`` needs a word boundary after the prefix, ``*`` is any text, else the exact text."""
    if specifier.endswith(":*"):
        return re.escape(specifier[:-2].rstrip()) + r"(?![\w\-.])"
    if "*" in specifier:
        return ".*".join(re.escape(part) for part in specifier.split("*")) + r"\Z"
    return re.escape(specifier.strip()) + r"\Z"


def invalid_rules(permissions: Mapping[str, Any] | None) -> list[str]:
    """The entries of ``allow``/``ask``/``deny`` that are not rules (for one warning each)."""
    out: list[str] = []
    for key in ("allow", "ask", "deny"):
        value = (permissions or {}).get(key)
        for text in value if isinstance(value, list) else ():
            if not isinstance(text, str) or parse_rule(text) is None:
                out.append(f"permissions.{key}: {text!r} is not a rule (Tool or Tool(specifier))")
    return out


@lru_cache(maxsize=1024)
def _glob(pattern: str, anything: bool) -> re.Pattern[str]:
    """``*`` (any text when ``anything``, else within one path segment) and ``**`` (any depth)."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            if pattern.startswith("/", index):
                out.append("/?")
                index += 1
            continue
        if char == "*":
            out.append(".*" if anything else "[^/]*")
        elif char == "?" and not anything:
            out.append("[^/]")
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out), re.DOTALL)


@lru_cache(maxsize=1024)
def absolute_pattern(specifier: str, project: str, home: str) -> str:
    spec = specifier.strip()
    if spec.startswith("//"):
        return spec[1:]
    if spec.startswith("~/") or spec == "~":
        return home.rstrip("/") + spec[1:]
    return project.rstrip("/") + "/" + spec.removeprefix("./").lstrip("/")


def domain_matches(specifier: str, url: str) -> bool:
    """``domain:example.com`` against a URL: that host or a host under it."""
    from urllib.parse import urlparse

    domain = specifier.removeprefix("domain:").strip().lower()
    host = (urlparse(url).hostname or "").lower()
    return bool(host) and (host == domain or host.endswith("." + domain))
