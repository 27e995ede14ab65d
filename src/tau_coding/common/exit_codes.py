"""The exit statuses of the ``tau`` command, defined once for every part that returns one."""

from __future__ import annotations

EXIT_OK = 0
EXIT_RUN_FAILED = 1  # the run ended in an error (model, tool, configuration)
EXIT_USAGE = 2  # bad arguments; argparse uses the same status
EXIT_INTERRUPTED = 130  # Ctrl+C, as a shell reports SIGINT
