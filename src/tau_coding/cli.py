"""The ``tau`` command: argument parsing and hand-over to a mode.

Only the standard library is imported at module level, so ``tau --version`` and
``tau --help`` answer without loading the agent, the HTTP stack or any UI.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tau_coding import __version__

EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv in (["--version"], ["-v"]):  # the common case answers before argparse is even built
        sys.stdout.write(f"tau {__version__}\n")
        return EXIT_OK
    from tau_coding.cli_args import build_parser

    args = build_parser().parse_args(argv)
    prompt = " ".join(args.prompt)
    if not sys.stdin.isatty():
        piped = sys.stdin.read()
        if piped.strip():
            prompt = f"{piped}\n\n{prompt}" if prompt else piped
    if not prompt.strip() and not args.print_mode and sys.stdin.isatty() and sys.stdout.isatty():
        from pathlib import Path

        from tau_coding.modes.interactive import run_scripted_interactive

        return run_scripted_interactive(Path.cwd())
    if not prompt.strip():
        sys.stderr.write('tau: no prompt given (try tau -p "...", or run tau in a terminal)\n')
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
