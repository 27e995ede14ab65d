"""The TUI's frame rate: how soon Textual draws what changed, a typed key above all.

Textual draws a screen's changes on an interval timer of ``1 / TEXTUAL_FPS`` (60 unless set).
A refresh asked for within one period of the previous draw waits for the next tick of that
grid, so a key typed just after a frame shows up to a whole period later: at 60 a second, the
echo of a key typed after the previous one showed took ~16.6 ms in tmux, where a bare raw-mode
echo takes ~5 ms. A finer grid draws the key sooner and costs nothing by itself: the timer
sleeps while nothing is dirty, and streamed output keeps its own pace, since the app paints
it through ``FrameScheduler`` (tui/frame_scheduler.py, at most 30 paints a second), not on Textual's
grid. docs/tui.md ("Rendering cost", "Key echo, session 9") has the numbers.

Textual reads ``TEXTUAL_FPS`` once, when ``textual.constants`` is first imported, so
``use_frame_rate`` must run before anything imports Textual (the CLI's interactive entry
calls it first). A ``TEXTUAL_FPS`` the user set wins.
"""

from __future__ import annotations

import os
import sys

FRAME_RATE = 240  # a 4 ms grid: a key shows within ~4 ms of being read, the rest as before
VARIABLE = "TEXTUAL_FPS"


def use_frame_rate(rate: int = FRAME_RATE) -> int:
    """Have Textual draw at up to ``rate`` frames a second (unless the environment already
    sets ``TEXTUAL_FPS``) and return the rate Textual uses. Textual is imported here, with the
    variable set, and the variable is then taken out again, so the commands Tau runs do not
    inherit it. Called after Textual was imported, nothing changes: the rate it read stands."""
    environ = os.environ
    ours = VARIABLE not in environ and "textual.constants" not in sys.modules
    if ours:
        environ[VARIABLE] = str(rate)
    try:
        from textual import constants
    finally:
        if ours:
            del environ[VARIABLE]
    return constants.MAX_FPS
