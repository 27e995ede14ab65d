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
    p.add_argument("prompt", nargs="*", help="the task to send (joined with spaces); @path attaches a file")
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
    model.add_argument("--list-models", nargs="?", const="", metavar="PATTERN", help="list models and exit")
    session = p.add_argument_group("session")
    session.add_argument(
        "-c",
        "--continue",
        dest="continue_session",
        action="store_true",
        help="continue the latest session here",
    )
    session.add_argument("-r", "--resume", action="store_true", help="pick a session to resume")
    session.add_argument("--session", metavar="PATH|ID", help="open this session file or id prefix")
    session.add_argument("--session-dir", metavar="DIR", help="keep sessions in DIR")
    session.add_argument("--no-session", action="store_true", help="keep nothing on disk")
    session.add_argument(
        "--no-checkpoints", action="store_true", help="take no checkpoints of the files for /rewind"
    )
    tools = p.add_argument_group("tools and resources")
    tools.add_argument("--tools", metavar="A,B", help="active tools (read,write,edit,bash,grep,find,ls)")
    tools.add_argument("--no-tools", action="store_true", help="no tools at all")
    tools.add_argument("--system-prompt", metavar="TEXT|FILE", help="replace the base system prompt")
    tools.add_argument(
        "--append-system-prompt",
        action="append",
        metavar="TEXT|FILE",
        help="add to the system prompt (repeatable)",
    )
    tools.add_argument("--no-skills", action="store_true", help="do not load skills")
    tools.add_argument("--no-prompt-templates", action="store_true", help="do not load prompt templates")
    tools.add_argument(
        "-e", "--extension", action="append", metavar="PATH", help="load an extension (repeatable)"
    )
    tools.add_argument(
        "--no-extensions", action="store_true", help="load no extensions but those given with -e"
    )
    tools.add_argument(
        "--trust-project",
        action="store_true",
        help="trust this project from now on: run its .tau/extensions and settings hooks",
    )
    run = p.add_argument_group("run")
    run.add_argument(
        "--max-turns", type=int, default=None, metavar="N", help="stop after N model calls (exit 1)"
    )
    run.add_argument(
        "--offline", action="store_true", help="never touch the network except the model provider"
    )
    p.add_argument("-v", "--version", action="version", version=f"tau {__version__}")
    return p
