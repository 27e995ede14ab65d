"""Extensions' widgets and footer entries: the panel's text, the footer's entries, and what a
late-bound UI hands on when the TUI takes over."""

from __future__ import annotations

from collections.abc import Sequence

from tau_coding.extensions.ui import HeadlessUI, LateBoundUI
from tau_coding.tui.footer_format import footer_lines
from tau_coding.tui.port import SessionInfo
from tau_coding.tui.state import TuiState
from tau_coding.tui.widgets.extension_panel import MAX_LINES, panel_text


def test_the_footer_ends_with_the_extensions_entries() -> None:
    info = SessionInfo("/home/u/proj", "anthropic/claude", "off", None)
    _, stats = footer_lines(info, TuiState(), "/home/u", ["todo 1/3"])
    assert "".join(t for t, _ in stats).endswith("  todo 1/3")


def test_the_panel_shows_every_widget_and_summarises_past_its_height() -> None:
    assert panel_text({"todo": ["[ ] a", "[x] b"], "other": ["c"]}).plain == "[ ] a\n[x] b\nc"
    many = panel_text({"todo": [f"item {n}" for n in range(MAX_LINES + 3)]}).plain
    assert many.endswith("… 3 more") and "item 11" in many and f"item {MAX_LINES}" not in many


class _Recorder:
    interactive = True

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        return default

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        return default

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        return default

    async def editor(self, title: str, text: str = "") -> str | None:
        return None

    def notify(self, message: str, level: str = "info") -> None:
        self.calls.append(("notify", message, level))

    def set_status(self, key: str, text: str | None) -> None:
        self.calls.append(("status", key, text))

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "above") -> None:
        self.calls.append(("widget", key, list(lines) if lines is not None else None))


def test_what_was_shown_before_the_tui_bound_is_handed_on_to_it() -> None:
    ui = LateBoundUI(HeadlessUI(lambda _: None))
    ui.set_widget("todo", ["[ ] a"])
    ui.set_status("todo", "todo 0/1")
    target = _Recorder()
    ui.bind(target)
    assert target.calls == [("status", "todo", "todo 0/1"), ("widget", "todo", ["[ ] a"])]
