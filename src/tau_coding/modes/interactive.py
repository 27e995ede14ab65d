"""Interactive mode: the TUI over a SessionPort. Textual is imported here, never at CLI start."""

from __future__ import annotations

import sys
from pathlib import Path

from tau_coding.tui.port import SessionPort


def run_interactive(port: SessionPort, initial_prompt: str | None = None) -> int:
    """Run the TUI until the user quits (sending ``initial_prompt`` first, if given); then print
    how to resume, if the session says. Returns the exit code, 0."""
    from tau_coding.tui.app import TauApp

    hint = TauApp(port, initial_prompt=initial_prompt).run()
    if hint:
        sys.stdout.write(hint.rstrip("\n") + "\n")
    return 0


def run_scripted_interactive(cwd: Path) -> int:
    """``tau`` with no prompt until CodingSession exists: the scripted provider print mode uses."""
    from tau_agent.harness import AgentHarness
    from tau_agent.testing import FunctionProvider
    from tau_coding.modes.print_mode import scripted_reply
    from tau_coding.tui.adapter import HarnessSessionAdapter

    harness = AgentHarness(FunctionProvider(scripted_reply, provider="scripted"))
    return run_interactive(HarnessSessionAdapter(harness, cwd=cwd))
