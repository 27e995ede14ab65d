"""The ``tau`` command line: flags and their help (Pi's names, interfaces.md)."""

from __future__ import annotations

import argparse
import sys

from tau_coding import __version__
from tau_coding.common.exit_codes import EXIT_USAGE

THINKING = ("off", "minimal", "low", "medium", "high", "xhigh")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors are one line on stderr and exit code 2."""
        sys.stderr.write(f"tau: {message} (see tau --help)\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tau",
        description="Tau: a terminal coding agent. It reads, edits and runs code in this directory.",
        epilog="Exit codes: 0 success, 1 the run failed, 2 usage or configuration error, 130 interrupted.",
    )
    p.add_argument(
        "prompt",
        nargs="*",
        help="messages to send, each its own prompt in order; @path attaches a file to the first",
    )
    p.add_argument(
        "-p", "--print", dest="print_mode", action="store_true", help="run once and print only the answer"
    )
    p.add_argument(
        "--mode", choices=("text", "json", "rpc"), default=None, help="output: text, json (events) or rpc"
    )
    model = p.add_argument_group("model")
    model.add_argument("--provider", help="provider to use (e.g. anthropic, openai, openrouter)")
    model.add_argument("--model", help="model: provider/id[:thinking], id, or fuzzy text")
    model.add_argument("--thinking", choices=THINKING, help="thinking level")
    model.add_argument("--api-key", help="API key for this run (overrides auth.json and the environment)")
    model.add_argument(
        "--models",
        metavar="PATTERNS",
        help="models Ctrl+P cycles through: comma-separated ids, globs (anthropic/*) or provider/id:level",
    )
    model.add_argument(
        "--list-models",
        nargs="?",
        const="",
        metavar="SEARCH",
        help="list the models you can use now (with a key, a login or a local server) and exit",
    )
    model.add_argument("--all", action="store_true", help="with --list-models: the whole catalogue")
    session = p.add_argument_group("session")
    session.add_argument(
        "-c",
        "--continue",
        dest="continue_session",
        action="store_true",
        help="continue the latest session here",
    )
    session.add_argument("-r", "--resume", action="store_true", help="pick a session to resume")
    session.add_argument(
        "--session", metavar="PATH|ID", help="open this session file (created if new) or id prefix"
    )
    session.add_argument(
        "--fork", metavar="PATH|ID", help="copy this session file or id prefix into a new session"
    )
    session.add_argument("--session-dir", metavar="DIR", help="keep sessions in DIR")
    session.add_argument("--no-session", action="store_true", help="keep nothing on disk")
    session.add_argument(
        "--export",
        metavar="SESSION",
        help="write SESSION as HTML to the file named next (Markdown if it ends in .md) and exit",
    )
    session.add_argument(
        "--no-checkpoints", action="store_true", help="take no checkpoints of the files for /rewind"
    )
    tools = p.add_argument_group("tools and resources")
    tools.add_argument(
        "-t",
        "--tools",
        metavar="A,B",
        help="active tools: built-in (read,write,edit,bash,grep,find,ls) and extension tools",
    )
    tools.add_argument("-nt", "--no-tools", action="store_true", help="no tools at all")
    tools.add_argument(
        "-nbt",
        "--no-builtin-tools",
        action="store_true",
        help="no built-in tools; extension tools stay",
    )
    tools.add_argument("--system-prompt", metavar="TEXT|FILE", help="replace the base system prompt")
    tools.add_argument(
        "--append-system-prompt",
        action="append",
        metavar="TEXT|FILE",
        help="add to the system prompt (repeatable)",
    )
    tools.add_argument(
        "--skill", action="append", metavar="PATH", help="load a skill file or folder (repeatable)"
    )
    tools.add_argument("-ns", "--no-skills", action="store_true", help="do not discover skills")
    tools.add_argument(
        "--prompt-template",
        action="append",
        metavar="PATH",
        help="load a prompt template file or folder (repeatable)",
    )
    tools.add_argument(
        "-np", "--no-prompt-templates", action="store_true", help="do not discover prompt templates"
    )
    tools.add_argument(
        "--theme", action="append", metavar="PATH", help="load a theme file or folder (repeatable)"
    )
    tools.add_argument("--no-themes", action="store_true", help="do not discover themes")
    tools.add_argument(
        "--fullscreen",
        action="store_true",
        help="run the TUI full-screen instead of inline in the terminal's scrollback (docs/tui.md)",
    )
    tools.add_argument(
        "-nc",
        "--no-context-files",
        action="store_true",
        help="do not load AGENTS.md / CLAUDE.md context files",
    )
    tools.add_argument(
        "-e", "--extension", action="append", metavar="PATH", help="load an extension (repeatable)"
    )
    tools.add_argument(
        "-ne", "--no-extensions", action="store_true", help="load no extensions but those given with -e"
    )
    tools.add_argument(
        "--trust-project",
        action="store_true",
        help="trust this project from now on: run its .tau/extensions and settings hooks",
    )
    tools.add_argument(
        "--permission-mode",
        metavar="MODE",
        help="ask, accept-edits, plan, yolo (alias bypass) or workspace (docs/permissions.md)",
    )
    run = p.add_argument_group("run")
    run.add_argument(
        "--max-turns", type=int, default=None, metavar="N", help="stop after N model calls (exit 1)"
    )
    run.add_argument(
        "--trace-file",
        metavar="FILE",
        help="append OpenTelemetry spans to FILE as JSON lines (needs the otel extra; docs/tracing.md)",
    )
    run.add_argument(
        "--offline", action="store_true", help="never touch the network except the model provider"
    )
    run.add_argument(
        "--verbose", action="store_true", help="show the start-up details even when quietStartup is set"
    )
    p.add_argument("-v", "--version", action="version", version=f"tau {__version__}")
    return p
