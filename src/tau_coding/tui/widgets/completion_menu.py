"""The completion list shown above the editor: label and description per candidate."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tau_coding.tui.completion import Candidate

VISIBLE = 10
LABEL_WIDTH = 32  # descriptions line up after labels up to this wide


class CompletionMenu(OptionList, can_focus=False):
    def __init__(self) -> None:
        super().__init__(id="completions")
        self.candidates: list[Candidate] = []
        self.display = False

    @property
    def is_open(self) -> bool:
        return bool(self.candidates)

    def show(self, candidates: Sequence[Candidate]) -> None:
        if not candidates and not self.candidates:
            return  # closed and staying closed: the common case of a key typed, nothing to redraw
        self.candidates = list(candidates)
        self.clear_options()
        width = min(LABEL_WIDTH, max((len(c.label) for c in self.candidates), default=0))
        for candidate in self.candidates:
            label = Text(candidate.label.ljust(width), style="bold")
            if candidate.description:
                label.append("  " + candidate.description, style="dim")
            self.add_option(Option(label))
        self.display = bool(self.candidates)
        self.styles.height = min(VISIBLE, len(self.candidates)) + 2 if self.candidates else 0
        if self.candidates:
            self.highlighted = 0
        self._count()

    def _count(self) -> None:
        """``(n/N)`` under the list: which candidate Enter takes, of how many."""
        total = len(self.candidates)
        self.border_subtitle = f"({(self.highlighted or 0) + 1}/{total})" if total else ""

    def close(self) -> None:
        self.show([])

    def move(self, step: int) -> None:
        if self.candidates:
            current = self.highlighted or 0
            self.highlighted = (current + step) % len(self.candidates)
            self._count()

    def selected(self) -> Candidate | None:
        if not self.candidates:
            return None
        return self.candidates[self.highlighted or 0]
