"""``tau mcp add|add-json|remove|list|get`` on real files, in Claude Code's command shapes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tau_coding.mcp.cli import run


class Cli:
    def __init__(self, tmp_path: Path) -> None:
        self.home = tmp_path / "home"
        self.cwd = tmp_path / "project"
        self.cwd.mkdir(parents=True)
        self.env = {"HOME": str(self.home), "TAU_HOME": str(self.home / ".tau")}

    @property
    def user_file(self) -> Path:
        return self.home / ".tau" / "settings.json"

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        try:
            code = run(argv, self.env, self.cwd, out, err)
        except SystemExit as exc:  # argparse's own usage errors
            code = int(exc.code or 0)
        return code, out.getvalue(), err.getvalue()

    def servers(self, path: Path) -> dict[str, object]:
        return json.loads(path.read_text())["mcpServers"]  # type: ignore[no-any-return]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


def test_add_stdio_with_env_keeps_variables_unexpanded(cli: Cli) -> None:
    code, out, _ = cli(
        "add", "fs", "-e", "TOKEN=${GH_TOKEN}", "--", "npx", "-y", "server-fs", "--root", "/tmp"
    )
    assert code == 0 and "Added MCP server fs" in out
    assert cli.servers(cli.user_file) == {
        "fs": {
            "type": "stdio",
            "command": "npx",
            "args": ["-y", "server-fs", "--root", "/tmp"],
            "env": {"TOKEN": "${GH_TOKEN}"},
        }
    }


def test_add_http_with_headers_options_before_or_after_the_url(cli: Cli) -> None:
    assert cli("add", "web", "-t", "http", "-H", "Authorization: Bearer ${T}", "https://h/mcp")[0] == 0
    assert cli("add", "web2", "https://h2/mcp", "--header", "X-A: b")[0] == 0
    assert cli.servers(cli.user_file) == {
        "web": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer ${T}"}},
        "web2": {"type": "http", "url": "https://h2/mcp", "headers": {"X-A": "b"}},
    }


def test_project_scope_writes_mcp_json_and_keeps_other_keys(cli: Cli) -> None:
    (cli.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": {"old": {"command": "x"}}, "other": 1}))
    assert cli("add", "new", "-s", "project", "-t", "sse", "http://h/sse")[0] == 0
    data = json.loads((cli.cwd / ".mcp.json").read_text())
    assert data["other"] == 1
    assert data["mcpServers"] == {"old": {"command": "x"}, "new": {"type": "sse", "url": "http://h/sse"}}


def test_add_json_and_get_and_list(cli: Cli) -> None:
    assert cli("add-json", "j", '{"command": "srv", "args": ["a"]}')[0] == 0
    code, out, _ = cli("get", "j")
    assert code == 0 and '"srv"' in out and str(cli.user_file) in out
    code, out, _ = cli("list")
    assert code == 0 and out.startswith("j: srv a")


def test_remove_finds_the_server_in_any_scope(cli: Cli) -> None:
    cli("add", "p", "-s", "project", "--", "srv")
    cli("add", "u", "--", "srv")
    assert cli("remove", "p")[0] == 0
    assert cli.servers(cli.cwd / ".mcp.json") == {}
    assert cli.servers(cli.user_file) == {"u": {"type": "stdio", "command": "srv", "args": []}}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["add", "x"], "needs a command"),
        (["add", "x", "-t", "http", "a", "b"], "takes one URL"),
        (["add", "x", "-t", "http", "-e", "A=b", "http://h"], "-e/--env is for stdio"),
        (["add", "x", "-e", "novalue", "--", "srv"], "expected KEY=value"),
        (["add", "bad name", "--", "srv"], "use letters, digits"),
        (["add-json", "x", "[1]"], "must be a JSON object"),
        (["add-json", "x", '{"type": "sse"}'], "needs a url"),
        (["remove", "nope"], "no MCP server named 'nope'"),
        (["get", "nope"], "no MCP server named 'nope'"),
    ],
)
def test_bad_command_lines_are_one_line_and_write_nothing(cli: Cli, argv: list[str], message: str) -> None:
    code, _, err = cli(*argv)
    assert code == 2
    assert err.count("\n") == 1 and message in err
    assert not cli.user_file.exists()


def test_adding_an_existing_name_or_over_a_broken_file_changes_nothing(cli: Cli) -> None:
    cli("add", "a", "--", "one")
    before = cli.user_file.read_bytes()
    assert cli("add", "a", "--", "two")[0] == 2
    assert cli.user_file.read_bytes() == before
    cli.user_file.write_text("{broken")
    code, _, err = cli("add", "b", "--", "x")
    assert code == 2 and "invalid JSON" in err and cli.user_file.read_text() == "{broken"


def test_tau_mcp_is_a_subcommand_of_the_real_command(cli: Cli) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tau_coding", "mcp", "add", "s", "--", "srv", "--flag"],
        cwd=cli.cwd,
        env={**cli.env, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert cli.servers(cli.user_file)["s"] == {"type": "stdio", "command": "srv", "args": ["--flag"]}
