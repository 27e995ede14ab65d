"""The /settings editor: the common settings with their values; Enter changes the highlighted one.

A row's choices come from ``choices`` (a picker opens over the editor, with the current value
highlighted); what was picked goes to ``change``, which saves and applies it and answers with the
value to show. The last row opens every effective setting, read-only (``show_all``).
Escape closes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from tau_coding.tui.screens.choice_picker import ChoicePicker
from tau_coding.tui.screens.dialog import Dialog
from tau_coding.tui.settings_table import SettingSpec, row_text

ALL_SETTINGS = "All effective settings…"


class SettingsEditor(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(
        self,
        rows: Sequence[tuple[SettingSpec, str]],
        choices: Callable[[SettingSpec], Sequence[str]],
        change: Callable[[SettingSpec, str], Awaitable[str]],
        show_all: Callable[[], Awaitable[object]],
    ) -> None:
        super().__init__(classes="picker")
        self._specs = [spec for spec, _ in rows]
        self._values = [value for _, value in rows]
        self._choices = choices
        self._change = change
        self._show_all = show_all

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("Settings (saved to your settings.json)", classes="dialog-title")
            yield OptionList(
                *(Content(row_text(s.label, v)) for s, v in zip(self._specs, self._values, strict=True)),
                ALL_SETTINGS,
                id="settings-list",
                classes="picker-list",
            )
            yield Static("Enter change · Esc close", classes="dialog-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = event.option_index
        if index >= len(self._specs):
            await self._show_all()
            return
        spec = self._specs[index]
        offered = list(self._choices(spec))
        if not offered:
            self.notify(f"No choices for {spec.label} here.", severity="warning")
            return
        picker = ChoicePicker(f"{spec.label} (now {self._values[index]})", offered)

        async def picked(choice: str | None) -> None:
            if choice is None:
                return
            self._values[index] = await self._change(spec, choice)
            options = self.query_one(OptionList)
            options.replace_option_prompt_at_index(index, Content(row_text(spec.label, self._values[index])))
            options.highlighted = index

        await self.app.push_screen(picker, picked)
        if self._values[index] in offered:  # start on the current value
            picker.query_one(OptionList).highlighted = offered.index(self._values[index])

    def action_close(self) -> None:
        self.dismiss(None)
