"""MCP server configuration in Claude Code's format, from Tau's files.

A server entry is what Claude Code writes in ``.mcp.json`` and ``mcpServers``::

    {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}}            # stdio
    {"type": "http", "url": "https://host/mcp", "headers": {"A": "b"}}      # streamable HTTP
    {"type": "sse", "url": "https://host/sse"}                              # older servers

Sources, highest precedence first (the first entry of a name wins): ``mcpServers`` of the
project's ``.tau/settings.json``, the project's ``.mcp.json``, ``mcpServers`` of the user's
``settings.json``. Project sources are code that came with the repository, so they are read
only when the project is trusted (as for project extensions). ``${VAR}`` and
``${VAR:-default}`` are expanded in command, args, env values, url and header values; an
unset variable without a default expands to nothing and is named in a warning. A bad entry is
one warning and is skipped; nothing here raises.

This module imports only the standard library: it runs at start-up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeAlias

Transport: TypeAlias = Literal["stdio", "http", "sse"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http", "sse")
Scope: TypeAlias = Literal["user", "project", "mcp.json"]

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


class ServerConfig(NamedTuple):
    """One configured server, variables already expanded."""

    name: str
    transport: Transport
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = {}  # never mutated: shared default is safe
    url: str = ""
    headers: Mapping[str, str] = {}
    source: str = ""  # the file it came from


def valid_name(name: str) -> bool:
    """Letters, digits, ``_`` and ``-``: the name becomes part of tool names (``mcp__name__tool``)."""
    return bool(_NAME.match(name))


def expand(text: str, environ: Mapping[str, str], missing: list[str]) -> str:
    """``${VAR}`` and ``${VAR:-default}`` replaced; names of unset variables without a default go to ``missing``."""

    def replace(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        value = environ.get(name)
        if value is not None and (value or default is None):
            return value
        if default is not None:
            return default
        missing.append(name)
        return ""

    return _VAR.sub(replace, text)


def parse_server(
    name: str, entry: Any, source: str, environ: Mapping[str, str]
) -> tuple[ServerConfig | None, list[str]]:
    """One entry of ``mcpServers``: the config, or None and why; plus warnings either way."""
    where = f"{source}: mcpServers.{name}"
    if not valid_name(name):
        return None, [f"{where}: a server name may hold only letters, digits, '_' and '-'; skipped"]
    if not isinstance(entry, dict):
        return None, [f"{where}: must be an object; skipped"]
    kind = entry.get("type", entry.get("transport"))
    if kind is None:
        kind = "stdio" if "command" in entry else "http" if "url" in entry else None
    if kind == "streamable-http":
        kind = "http"
    if kind not in TRANSPORTS:
        return None, [f"{where}: type must be one of stdio, http, sse (or give command or url); skipped"]
    missing: list[str] = []
    strings = _strings(entry, where)
    if isinstance(strings, str):
        return None, [strings]
    command, args, env, url, headers = strings

    def x(text: str) -> str:
        return expand(text, environ, missing)

    if kind == "stdio":
        if not command:
            return None, [f"{where}: a stdio server needs a command; skipped"]
        config = ServerConfig(
            name,
            "stdio",
            x(command),
            tuple(x(a) for a in args),
            {k: x(v) for k, v in env.items()},
            source=source,
        )
    else:
        if not url:
            return None, [f"{where}: an {kind} server needs a url; skipped"]
        config = ServerConfig(
            name, kind, url=x(url), headers={k: x(v) for k, v in headers.items()}, source=source
        )
    warnings = [f"{where}: ${{{m}}} is not set" for m in dict.fromkeys(missing)]
    return config, warnings


def _strings(
    entry: dict[str, Any], where: str
) -> tuple[str, list[str], dict[str, str], str, dict[str, str]] | str:
    command, args, url = entry.get("command", ""), entry.get("args", []), entry.get("url", "")
    env, headers = entry.get("env", {}), entry.get("headers", {})
    if not isinstance(command, str) or not isinstance(url, str):
        return f"{where}: command and url must be strings; skipped"
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return f"{where}: args must be a list of strings; skipped"
    for label, table in (("env", env), ("headers", headers)):
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            return f"{where}: {label} must be an object of strings; skipped"
    return command, args, env, url, headers


def servers_in(
    data: Mapping[str, Any], source: str, environ: Mapping[str, str], warn: Callable[[str], object]
) -> list[ServerConfig]:
    """The servers of one file's ``mcpServers`` object (a file's top level for ``.mcp.json``)."""
    table = data.get("mcpServers")
    if table is None:
        return []
    if not isinstance(table, dict):
        warn(f"{source}: mcpServers must be an object; ignored")
        return []
    out: list[ServerConfig] = []
    for name, entry in table.items():
        config, warnings = parse_server(str(name), entry, source, environ)
        for warning in warnings:
            warn(warning)
        if config is not None:
            out.append(config)
    return out


def project_mcp_json(cwd: Path) -> Path:
    return cwd / ".mcp.json"


def merge_sources(*layers: list[ServerConfig]) -> list[ServerConfig]:
    """Layers highest precedence first; the first server of a name wins."""
    seen: dict[str, ServerConfig] = {}
    for layer in layers:
        for server in layer:
            seen.setdefault(server.name, server)
    return list(seen.values())
