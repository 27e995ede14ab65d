"""``tau mcp add|add-json|remove|list|get``: edit the configured MCP servers, Claude Code's way.

    tau mcp add NAME [-t stdio|http|sse] [-e KEY=V]... [-H 'Name: v']... [-s user|project] -- CMD [ARGS...]
    tau mcp add NAME -t http URL
    tau mcp add-json NAME '{"command": "..."}'
    tau mcp remove NAME [-s user|project]
    tau mcp list
    tau mcp get NAME

Scope ``user`` (the default) is ``mcpServers`` in TAU_HOME/settings.json; ``project`` is the
project's ``.mcp.json``, which Claude Code reads too. Entries are stored as typed (``${VAR}``
unexpanded); the files are rewritten atomically with their other keys kept. A bad command line
or file is one line on stderr and exit code 2; nothing is written then.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from tau_agent.atomic_write import atomic_write_bytes
from tau_coding.common.diagnostics import Diagnostic
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import read_json_object
from tau_coding.mcp.config import TRANSPORTS, parse_server, project_mcp_json, valid_name

EXIT_OK, EXIT_USAGE = 0, 2
SCOPES = ("user", "project")


class McpCliError(Exception):
    """One line for the user."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tau mcp", description="Configure MCP servers.")
    sub = parser.add_subparsers(dest="action", required=True)
    add = sub.add_parser(
        "add", help="add a server: tau mcp add NAME -- CMD [ARGS] | tau mcp add NAME -t http URL"
    )
    add.add_argument("name")
    add.add_argument("target", nargs="*", help="the URL, or (after --) the command and its args")
    add.add_argument("-t", "--transport", choices=TRANSPORTS, default=None)
    add.add_argument("-e", "--env", action="append", default=[], metavar="KEY=VALUE")
    add.add_argument("-H", "--header", action="append", default=[], metavar="'Name: value'")
    add.add_argument("-s", "--scope", choices=SCOPES, default="user")
    add_json = sub.add_parser("add-json", help="add a server from its JSON entry")
    add_json.add_argument("name")
    add_json.add_argument("json")
    add_json.add_argument("-s", "--scope", choices=SCOPES, default="user")
    remove = sub.add_parser("remove", help="remove a server")
    remove.add_argument("name")
    remove.add_argument("-s", "--scope", choices=SCOPES, default=None)
    sub.add_parser("list", help="list configured servers")
    get = sub.add_parser("get", help="show one server")
    get.add_argument("name")
    return parser


def scope_file(paths: TauPaths, scope: str) -> Path:
    return project_mcp_json(paths.cwd) if scope == "project" else paths.user_settings


def build_entry(
    target: Sequence[str], transport: str | None, env: Sequence[str], headers: Sequence[str]
) -> dict[str, Any]:
    """The ``mcpServers`` entry ``tau mcp add`` writes; raises McpCliError for a bad command line."""
    words = list(target)
    if not words:
        raise McpCliError("tau mcp add needs a command (after --) or a URL")
    kind = transport or ("http" if words[0].startswith(("http://", "https://")) else "stdio")
    if kind == "stdio":
        entry: dict[str, Any] = {"type": "stdio", "command": words[0], "args": words[1:]}
        if env:
            entry["env"] = dict(_pair(item, "=", "-e") for item in env)
        if headers:
            raise McpCliError("-H/--header is for http and sse servers")
        return entry
    if len(words) != 1:
        raise McpCliError(f"an {kind} server takes one URL, got {' '.join(words)!r}")
    entry = {"type": kind, "url": words[0]}
    if headers:
        entry["headers"] = dict(_pair(item, ":", "-H") for item in headers)
    if env:
        raise McpCliError("-e/--env is for stdio servers")
    return entry


def _pair(item: str, sep: str, flag: str) -> tuple[str, str]:
    key, found, value = item.partition(sep)
    if not found or not key.strip():
        example = "KEY=value" if sep == "=" else "'Name: value'"
        raise McpCliError(f"{flag} {item!r}: expected {example}")
    return key.strip(), value.strip() if sep == ":" else value


def _read(path: Path) -> dict[str, Any]:
    problems: list[Diagnostic] = []
    data = read_json_object(path, problems)
    if problems:
        raise McpCliError(f"{problems[0].source}: {problems[0].message}; not changed")
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise McpCliError(f"{path}: mcpServers is not an object; not changed")
    return data


def _write(path: Path, data: Mapping[str, Any]) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def add(paths: TauPaths, name: str, entry: dict[str, Any], scope: str, environ: Mapping[str, str]) -> Path:
    if not valid_name(name):
        raise McpCliError(f"server name {name!r}: use letters, digits, '_' and '-'")
    _, problems = parse_server(name, entry, "entry", environ)
    bad = [p for p in problems if p.endswith("skipped")]
    if bad:
        raise McpCliError(bad[0].removeprefix(f"entry: mcpServers.{name}: ").removesuffix("; skipped"))
    path = scope_file(paths, scope)
    data = _read(path)
    servers = dict(data.get("mcpServers", {}))
    if name in servers:
        raise McpCliError(f"{path}: a server named {name!r} exists; tau mcp remove {name} first")
    servers[name] = entry
    _write(path, {**data, "mcpServers": servers})
    return path


def remove(paths: TauPaths, name: str, scope: str | None) -> Path:
    scopes = [scope] if scope else list(SCOPES)
    for each in scopes:
        path = scope_file(paths, each)
        data = _read(path)
        servers = dict(data.get("mcpServers", {}))
        if name in servers:
            del servers[name]
            _write(path, {**data, "mcpServers": servers})
            return path
    raise McpCliError(
        f"no MCP server named {name!r} in {' or '.join(str(scope_file(paths, s)) for s in scopes)}"
    )


def configured(paths: TauPaths) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, where, raw entry) of every server in the files this command edits, plus project settings."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for path in (paths.project_settings, project_mcp_json(paths.cwd), paths.user_settings):
        servers = _read(path).get("mcpServers", {})
        out += [(n, str(path), e) for n, e in servers.items() if isinstance(e, dict)]
    return out


def describe_entry(entry: Mapping[str, Any]) -> str:
    if "url" in entry:
        return f"{entry.get('type', 'http')} {entry['url']}"
    return " ".join([str(entry.get("command", "")), *(str(a) for a in entry.get("args", []))])


def run(argv: Sequence[str], environ: Mapping[str, str], cwd: Path, out: TextIO, err: TextIO) -> int:
    words = list(argv)
    command: list[str] = []
    if "--" in words:  # what follows is the server's command line, options and all
        at = words.index("--")
        words, command = words[:at], words[at + 1 :]
    parser = _parser()
    args, extra = parser.parse_known_args(words)  # extra: a URL after the options
    if args.action != "add" and (command or extra):
        parser.error(f"unrecognized arguments: {' '.join(extra or command)}")
    if any(word.startswith("-") for word in extra):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    paths = TauPaths.from_env(environ, cwd)
    try:
        if args.action in ("add", "add-json"):
            if args.action == "add":
                entry = build_entry([*args.target, *extra, *command], args.transport, args.env, args.header)
            else:
                entry = _json_entry(args.json)
            path = add(paths, args.name, entry, args.scope, environ)
            out.write(f"Added MCP server {args.name} ({describe_entry(entry)}) to {path}\n")
        elif args.action == "remove":
            out.write(f"Removed MCP server {args.name} from {remove(paths, args.name, args.scope)}\n")
        elif args.action == "list":
            entries = configured(paths)
            if not entries:
                out.write("No MCP servers configured. tau mcp add NAME -- COMMAND adds one.\n")
            for name, where, entry in entries:
                out.write(f"{name}: {describe_entry(entry)}  ({where})\n")
        else:
            matches = [(w, e) for n, w, e in configured(paths) if n == args.name]
            if not matches:
                raise McpCliError(f"no MCP server named {args.name!r}")
            where, entry = matches[0]
            out.write(f"{args.name}:\n  file: {where}\n" + _detail(entry))
    except McpCliError as exc:
        err.write(f"tau mcp: {exc}\n")
        return EXIT_USAGE
    return EXIT_OK


def _json_entry(text: str) -> dict[str, Any]:
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as exc:
        raise McpCliError(f"the entry is not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(entry, dict):
        raise McpCliError("the entry must be a JSON object")
    return entry


def _detail(entry: Mapping[str, Any]) -> str:
    lines = [f"  {key}: {json.dumps(value)}" for key, value in entry.items()]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> int:
    return run(argv, os.environ, Path.cwd(), sys.stdout, sys.stderr)
