"""The footer: where you are, which model, what it has cost, how full the context is."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from tau_coding.tui.footer_format import Segment, footer_lines
from tau_coding.tui.port import SessionInfo
from tau_coding.tui.state import TuiState

STYLES = {"": "", "dim": "dim", "warn": "yellow", "bad": "bold red", "accent": "bold"}


def _line(segments: list[Segment]) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    for chunk, style in segments:
        text.append(chunk, style=STYLES[style])
    return text


class StatusFooter(Static):
    def __init__(self, home: str) -> None:
        super().__init__(id="footer")
        self._home = home

    def show(
        self,
        info: SessionInfo,
        state: TuiState,
        extras: Sequence[str] = (),
        now: float = 0.0,
        *,
        working: str | None = None,
    ) -> None:
        where, stats = footer_lines(info, state, self._home, extras, now, working=working)
        # Always two lines (its height in app.tcss): no layout pass over the whole screen, which
        # the footer's refresh on every streamed frame and on Esc would otherwise cost.
        self.update(Text("\n").join([_line(where), _line(stats)]), layout=False)
