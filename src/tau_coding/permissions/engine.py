"""The decision for one tool call: pure, fast (cached parses, no I/O but ``realpath``).

Order, first that applies wins:

1. a ``deny`` rule that matches (for bash: any command of the line) -> deny, in every mode;
2. mode ``yolo`` -> allow;
3. bash with ``dangerouslyDisableSandbox`` -> ask;
4. an ``ask`` rule that matches, or a protected path (paths.py) -> ask;
5. mode ``plan``: read-only tools run, bash runs only when allow rules cover it, the rest is denied;
6. read-only tools (read, grep, find, ls) -> allow; an ``allow`` rule that matches -> allow
   (bash: every command of the line, and nothing risky in it, shell.py);
7. edits and writes inside the project in ``accept-edits`` and ``workspace`` -> allow;
   bash in ``workspace`` when it runs in the sandbox -> allow;
8. anything else -> ask (the gate turns ask into deny where no one can be asked).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from tau_coding.permissions.decision import DISABLE_SANDBOX_ARG, Decision
from tau_coding.permissions.modes import PermissionMode
from tau_coding.permissions.paths import Places, protected, secret
from tau_coding.permissions.rules import Rule, RuleSet, domain_matches
from tau_coding.permissions.shell import SimpleCommand, parse_shell

# mcp_search_tools lists MCP tools' definitions; mcp_call_tool calls the one it names, so it is
# decided as that tool (tau_coding/mcp/search.py names both).
READ_ONLY = frozenset({"read", "grep", "find", "ls", "mcp_search_tools"})
# Tools that change nothing themselves: the task list, and ``task``, whose child agents' own tool
# calls pass this same engine (tau_coding/subagents), so a child can do only what its parent may.
SELF_CONTAINED = frozenset({"todo", "task"})
PROXY_TOOL = "mcp_call_tool"
EDITING = frozenset({"edit", "write"})
_HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
# Commands whose second word names what they do, so a suggested rule keeps it (git diff:*).
_SUBCOMMANDED = frozenset(
    {"git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "uv", "pip", "poetry", "make", "docker", "kubectl"}
    | {"npx", "uvx", "bunx", "pnpx"}
)
# Commands that only read, whatever their arguments, so a suggested rule allows any use of them
# (tail:*): "yes for this session" to `tail -5` should not ask again for `tail -3`.
_READING = frozenset(
    {
        "cat",
        "head",
        "tail",
        "wc",
        "ls",
        "grep",
        "rg",
        "pwd",
        "which",
        "stat",
        "du",
        "df",
        "tree",
        "diff",
        "file",
    }
    | {"echo", "nl", "cut", "date", "whoami", "uname"}
)
_INTERPRETERS = frozenset({"python", "python3"})  # python -m pytest:*
PLAN_DENIAL = "plan mode allows read-only tools only; present the plan and wait for the user to approve it"


def decide(
    tool: str,
    args: Mapping[str, Any],
    rules: RuleSet,
    mode: PermissionMode,
    places: Places,
    *,
    sandboxed: bool = False,
) -> Decision:
    """Whether a call of ``tool`` with ``args`` runs, asks or is denied (module notes)."""
    if tool == PROXY_TOOL:
        named, inner = args.get("name"), args.get("arguments")
        if not isinstance(named, str) or named == PROXY_TOOL:
            return Decision("deny", f"{PROXY_TOOL} must name the tool it calls")
        return decide(
            named, inner if isinstance(inner, dict) else {}, rules, mode, places, sandboxed=sandboxed
        )
    if tool == "bash":
        return _bash(args, rules, mode, places, sandboxed)
    paths = _paths(tool, args, places)
    denied = _first(rules, "deny", tool, args, paths, places)
    if denied is not None:
        return Decision("deny", f"denied by the rule {denied.text}", denied.text)
    if mode == "yolo":
        return Decision("allow", "yolo mode runs everything")
    for path in paths:
        why = secret(path, places) if tool in READ_ONLY else protected(path, places)
        if why is not None:  # no rule can allow it, so none is suggested
            return Decision("ask", f"{path}: {why}")
    asking = _first(rules, "ask", tool, args, paths, places)
    if asking is not None:
        return Decision("ask", f"the rule {asking.text} asks", asking.text)
    if tool in READ_ONLY:
        return Decision("allow", "reading runs in every mode")
    if tool in SELF_CONTAINED:
        return Decision("allow", f"{tool} changes nothing itself; its steps are decided one by one")
    if mode == "plan":
        return Decision("deny", PLAN_DENIAL)
    allowing = _first(rules, "allow", tool, args, paths, places)
    if allowing is not None:
        return Decision("allow", f"allowed by the rule {allowing.text}", allowing.text)
    suggestions = _suggest(tool, args, paths, places)
    if tool in EDITING:
        inside = bool(paths) and all(places.inside_project(p) for p in paths)
        if inside and mode in ("accept-edits", "workspace"):
            return Decision("allow", f"{mode} mode lets edits inside the project run")
        where = "inside" if inside else "outside"
        return Decision("ask", f"{tool} of a file {where} the project", suggestions=suggestions)
    return Decision("ask", f"no rule allows the tool {tool}", suggestions=suggestions)


def _paths(tool: str, args: Mapping[str, Any], places: Places) -> list[str]:
    raw = args.get("path")
    if isinstance(raw, str) and raw:
        return [places.resolve(raw)]
    if tool in ("grep", "find", "ls"):
        return [places.project]
    return []


def _first(
    rules: RuleSet, kind: str, tool: str, args: Mapping[str, Any], paths: list[str], places: Places
) -> Rule | None:
    """The first rule of list ``kind`` that matches the call: a bare name, a domain, or a path."""
    for rule in rules.covering(kind, tool):
        spec = rule.specifier
        if spec is None:
            return rule
        if spec.startswith("domain:"):
            url = args.get("url")
            if isinstance(url, str) and domain_matches(spec, url):
                return rule
    for path in paths:
        found = rules.path_rule(kind, tool, path, places.project, places.home)
        if found is not None:
            return found
    return None


def _bash(
    args: Mapping[str, Any], rules: RuleSet, mode: PermissionMode, places: Places, sandboxed: bool
) -> Decision:
    command = args.get("command")
    parsed = parse_shell(command if isinstance(command, str) else "")
    commands = parsed.commands
    deny, ask, allow = rules.bash_deny, rules.bash_ask, rules.bash_allow
    if deny.everything is not None:
        return Decision("deny", f"denied by the rule {deny.everything.text}", deny.everything.text)
    for sub in commands:
        rule = deny.find(sub.text)
        if rule is not None:
            return Decision("deny", f"denied by the rule {rule.text} ({sub.text})", rule.text)
    if mode == "yolo":
        return Decision("allow", "yolo mode runs everything")
    if args.get(DISABLE_SANDBOX_ARG) is True:
        return Decision("ask", "the command asks to run outside the sandbox")
    asking = ask.everything or next((r for r in map(ask.find, (c.text for c in commands)) if r), None)
    if asking is not None:
        return Decision("ask", f"the rule {asking.text} asks", asking.text)
    risks = list(parsed.risks)
    for target in parsed.writes:
        path = places.resolve(target)
        why = protected(path, places)
        if why is not None:
            return Decision("ask", f"a redirection writes {path}: {why}")
        if path not in _HARMLESS_TARGETS and not places.inside_project(path):
            risks.append(f"a redirection writes {path}, outside the project")
    if allow.everything is not None:
        return Decision("allow", f"allowed by the rule {allow.everything.text}", allow.everything.text)
    allowing = [allow.find(c.text) for c in commands]
    missing = [c for c, rule in zip(commands, allowing, strict=True) if rule is None]
    if not missing and not risks and commands:
        names = dict.fromkeys(r.text for r in allowing if r is not None)
        return Decision("allow", "allowed by the rules " + ", ".join(names))
    if mode == "plan":
        return Decision("deny", PLAN_DENIAL)
    if mode == "workspace" and sandboxed:
        return Decision("allow", "workspace mode runs commands in the sandbox")
    suggestions = tuple(dict.fromkeys(_suggest_command(c) for c in missing))
    if risks:
        return Decision("ask", "the command has " + "; ".join(risks), suggestions=suggestions)
    named = ", ".join(repr(c.text) for c in missing[:3]) or "an empty command"
    return Decision("ask", f"no rule allows {named}", suggestions=suggestions)


def _suggest_command(command: SimpleCommand) -> str:
    """The rule "yes for this session" adds: a prefix where the first words say what runs (git
    diff:*, python3 -m pytest:*, tail:*), else the exact command."""
    words = command.words
    if len(words) >= 2 and words[0] in _SUBCOMMANDED and not words[1].startswith("-"):
        return f"Bash({words[0]} {words[1]}:*)"
    if len(words) >= 3 and words[0] in _INTERPRETERS and words[1] == "-m":
        return f"Bash({words[0]} -m {words[2]}:*)"
    if words and words[0] in _READING:
        return f"Bash({words[0]}:*)"
    return f"Bash({command.text})"


def _suggest(tool: str, args: Mapping[str, Any], paths: list[str], places: Places) -> tuple[str, ...]:
    if tool in EDITING and paths:
        path = paths[0]
        if places.inside_project(path):
            return (f"Edit({os.path.relpath(path, places.project)})",)
        return (f"Edit(/{path})",)
    return (tool,)
