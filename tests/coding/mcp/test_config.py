"""Claude Code-format MCP configuration: parsing, ${VAR} expansion, sources and trust."""

from __future__ import annotations

import json
from pathlib import Path

from tau_coding.config.paths import TauPaths
from tau_coding.mcp.config import ServerConfig, expand, parse_server
from tau_coding.mcp.sources import configured_servers

ENV = {"HOME": "/home/u", "TOKEN": "t0k", "EMPTY": ""}


def test_expand_replaces_variables_and_defaults() -> None:
    missing: list[str] = []
    assert expand("${HOME}/x ${NOPE:-dflt} ${EMPTY:-e} ${TOKEN:-x}", ENV, missing) == "/home/u/x dflt e t0k"
    assert missing == []
    assert expand("a${UNSET}b", ENV, missing) == "ab"
    assert missing == ["UNSET"]
    assert expand("$HOME and ${1BAD}", ENV, missing) == "$HOME and ${1BAD}"  # not the ${NAME} form


def test_stdio_entry_expands_command_args_and_env() -> None:
    entry = {"command": "${HOME}/bin/srv", "args": ["--token", "${TOKEN}"], "env": {"K": "${TOKEN:-x}"}}
    config, warnings = parse_server("gh", entry, "settings.json", ENV)
    assert warnings == []
    assert config == ServerConfig(
        "gh", "stdio", "/home/u/bin/srv", ("--token", "t0k"), {"K": "t0k"}, source="settings.json"
    )


def test_http_entry_expands_url_and_headers_and_names_unset_variables() -> None:
    entry = {
        "type": "http",
        "url": "https://h/${PATH_PART:-mcp}",
        "headers": {"Authorization": "Bearer ${KEY}"},
    }
    config, warnings = parse_server("web", entry, "f", ENV)
    assert config is not None and config.url == "https://h/mcp"
    assert config.headers == {"Authorization": "Bearer "}
    assert warnings == ["f: mcpServers.web: ${KEY} is not set"]


def test_transport_is_inferred_and_streamable_http_is_http() -> None:
    assert parse_server("a", {"url": "http://h"}, "f", ENV)[0].transport == "http"  # type: ignore[union-attr]
    assert parse_server("b", {"type": "streamable-http", "url": "http://h"}, "f", ENV)[0].transport == "http"  # type: ignore[union-attr]
    assert parse_server("c", {"type": "sse", "url": "http://h"}, "f", ENV)[0].transport == "sse"  # type: ignore[union-attr]


def test_bad_entries_are_one_warning_each_and_skipped() -> None:
    cases = [
        ("bad name", {"command": "x"}, "only letters"),
        ("a", "npx", "must be an object"),
        ("a", {"type": "ws", "url": "x"}, "type must be one of"),
        ("a", {"type": "stdio"}, "needs a command"),
        ("a", {"type": "http"}, "needs a url"),
        ("a", {"command": "x", "args": "y"}, "args must be a list"),
        ("a", {"command": "x", "env": {"K": 1}}, "env must be an object of strings"),
    ]
    for name, entry, expected in cases:
        config, warnings = parse_server(name, entry, "f", ENV)
        assert config is None
        assert len(warnings) == 1 and expected in warnings[0], (entry, warnings)


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def _paths(tmp_path: Path) -> TauPaths:
    (tmp_path / "project").mkdir(exist_ok=True)
    return TauPaths(home=tmp_path, tau_home=tmp_path / "tau", cwd=tmp_path / "project")


def test_project_servers_need_trust_and_win_over_the_users(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    _write(paths.user_settings, {"mcpServers": {"a": {"command": "user-a"}, "u": {"command": "user-u"}}})
    _write(paths.cwd / ".mcp.json", {"mcpServers": {"a": {"command": "json-a"}, "j": {"command": "json-j"}}})
    _write(paths.project_settings, {"mcpServers": {"j": {"command": "settings-j"}}})
    warnings: list[str] = []
    untrusted = configured_servers(paths, ENV, is_trusted=lambda: False, warn=warnings.append)
    assert [(s.name, s.command) for s in untrusted] == [("a", "user-a"), ("u", "user-u")]
    assert len(warnings) == 1 and "not trusted" in warnings[0] and ".mcp.json" in warnings[0]
    trusted = configured_servers(paths, ENV, is_trusted=lambda: True, warn=warnings.append)
    assert sorted((s.name, s.command) for s in trusted) == [
        ("a", "json-a"),
        ("j", "settings-j"),
        ("u", "user-u"),
    ]


def test_no_configuration_asks_nothing_about_trust(tmp_path: Path) -> None:
    def never() -> bool:
        raise AssertionError("trust looked up")

    assert configured_servers(_paths(tmp_path), ENV, is_trusted=never, warn=print) == []


def test_a_malformed_file_is_one_warning(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    paths.user_settings.parent.mkdir(parents=True)
    paths.user_settings.write_text("{not json")
    warnings: list[str] = []
    assert configured_servers(paths, ENV, is_trusted=lambda: True, warn=warnings.append) == []
    assert len(warnings) == 1 and "invalid JSON" in warnings[0]
