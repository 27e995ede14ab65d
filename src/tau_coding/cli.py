"""The ``tau`` command: argument parsing and hand-over to a mode.

Only the standard library is imported at module level, so ``tau --version`` and
``tau --help`` answer without loading the agent, the HTTP stack or any UI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tau_coding import __version__

EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    prompt = " ".join(args.prompt)
    if not sys.stdin.isatty():
        piped = sys.stdin.read()
        if piped.strip():
            prompt = f"{piped}\n\n{prompt}" if prompt else piped
    if not prompt.strip():
        sys.stderr.write('tau: no prompt given; the interactive TUI is not built yet (try tau -p "...")\n')
        return EXIT_USAGE
    if args.max_turns is not None and args.max_turns < 1:
        sys.stderr.write("tau: --max-turns must be 1 or more\n")
        return EXIT_USAGE
    from tau_coding.modes.print_mode import run_print_mode

    try:
        return run_print_mode(prompt, json_output=args.mode == "json", max_turns=args.max_turns)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (tau ... | head): not an error of the run
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
