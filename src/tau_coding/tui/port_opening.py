"""Opening the session after the TUI's first paint: the opener the app calls, and its failure.

Importing and opening a session (its tools, extensions, models and record) takes longer than
showing an editor, so the interactive mode hands ``TauApp`` a ``PortOpener`` instead of a port:
the app paints the editor and the footer first, then calls the opener in a worker thread (the
loop keeps echoing keys), and takes the port it returns. What the user types meanwhile stays in
the editor; Enter waits until the session's history is shown, then sends once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tau_coding.tui.port import SessionPort


class PortUnavailable(Exception):
    """The session could not be opened (a configuration problem the user must fix); ``str()`` says
    why, in one line. The app closes and the mode prints the line, as before the TUI opened."""


PortOpener = Callable[[], tuple[SessionPort, Sequence[str]]]
"""Open the session: its port and the lines the user should see first (problems found while
opening, shown as warnings). Called once, from a worker thread; raises ``PortUnavailable``."""

__all__ = ["PortOpener", "PortUnavailable"]
