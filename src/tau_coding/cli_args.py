"""The ``tau`` command line: flags and their help (Pi's names)."""

from __future__ import annotations

import argparse
import sys

from tau_coding import __version__

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors are one line on stderr and exit code 2."""
        sys.stderr.write(f"tau: {message} (see tau --help)\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tau",
        description="Tau: a terminal coding agent. It reads, edits and runs code in this directory.",
        epilog="Exit codes: 0 success, 1 the run failed, 2 usage or configuration error, 130 interrupted.",
    )
    parser.add_argument("prompt", nargs="*", help="the task to send (joined with spaces)")
    parser.add_argument(
        "-p",
        "--print",
        dest="print_mode",
        action="store_true",
        help="print mode: run once and print only the final answer",
    )
    parser.add_argument(
        "--mode",
        choices=("text", "json"),
        default="text",
        help="output of print mode: text (the answer) or json (one event per line)",
    )
    parser.add_argument(
        "--max-turns", type=int, default=None, metavar="N", help="stop after N model calls (exit code 1)"
    )
    parser.add_argument("-v", "--version", action="version", version=f"tau {__version__}")
    return parser
