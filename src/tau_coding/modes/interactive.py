"""Interactive mode: the TUI over a SessionPort. Textual is imported here, never at CLI start."""

from __future__ import annotations

import sys

from tau_coding.tui.port import SessionPort


def run_interactive(port: SessionPort, initial_prompt: str | None = None) -> int:
    """Run the TUI until the user quits (sending ``initial_prompt`` first, if given); then print
    how to resume, if the session says. Returns the exit code, 0."""
    from tau_coding.tui.app import TauApp

    hint = TauApp(port, initial_prompt=initial_prompt).run()
    if hint:
        sys.stdout.write(hint.rstrip("\n") + "\n")
    return 0
