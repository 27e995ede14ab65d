"""Messages waiting to be delivered (steering and follow-ups), above the editor."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from tau_coding.tui.state import QueuedMessage
from tau_coding.tui.summaries import clip


class QueueView(Static):
    def __init__(self) -> None:
        super().__init__(id="queue")
        self.display = False

    def show(self, queue: Sequence[QueuedMessage]) -> None:
        self.display = bool(queue)
        text = Text()
        for i, queued in enumerate(queue):
            label = "steer" if queued.kind == "steer" else "follow-up"
            if i:
                text.append("\n")
            text.append(f"» {label}: ", style="bold")
            text.append(clip(queued.text, 100))
        if queue:
            text.append("\nAlt+Up pulls these back into the editor", style="dim italic")
        self.update(text)
