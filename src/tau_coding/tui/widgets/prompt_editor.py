"""The prompt editor: multi-line input with history, completion and paste markers.

Enter sends (``Submitted``), Shift+Enter or Ctrl+J starts a new line, Alt+Enter sends as a
follow-up. Ctrl+Y puts back what the last Ctrl+K, Ctrl+U or Ctrl+W removed. Up/Down walk the history from the first/last line, or move in an open completion
list. ``/`` completes commands and their arguments, ``@`` completes project files fuzzily,
Tab completes paths. A large paste shows as ``[paste #N ...]`` and is expanded on send. Ctrl+V pastes
the clipboard's image as ``[image #N]``; images named as files in the text go along too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, TypeAlias

from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import TextArea
from textual.widgets.text_area import EditResult, Location

from tau_agent.content import ImageContent
from tau_coding.tui.attachments import ImageAttachments
from tau_coding.tui.clipboard_image import ClipboardError, read_clipboard_image
from tau_coding.tui.completion import (
    Candidate,
    Completer,
    argument_candidates,
    command_candidates,
    common_prefix,
    file_candidates,
    path_candidates,
    token_at,
)
from tau_coding.tui.graphemes import cluster_end, cluster_start
from tau_coding.tui.history import PromptHistory
from tau_coding.tui.paste import PasteStore, normalize_newlines
from tau_coding.tui.port import CommandSpec
from tau_coding.tui.widgets.completion_menu import CompletionMenu

PLACEHOLDER = "Ask anything · / commands · @ files · !cmd shell · /hotkeys for keys"


@dataclass(slots=True)
class CompletionSources:
    """What completion draws on; set by the app (attributes down)."""

    cwd: Path
    commands: Sequence[CommandSpec] = ()
    arguments: Mapping[str, Callable[[], Sequence[str]]] = field(default_factory=dict)
    list_files: Callable[[Path], list[str]] | None = None
    # More ``@`` completions, asked each time (MCP resources as ``server:uri``; they come and go).
    mentions: Callable[[], Sequence[str]] | None = None
    # Extensions' completers, asked newest first before Tau's own (the list is shared, not copied).
    completers: list[Completer] = field(default_factory=list)


class PromptEditor(TextArea):
    """The prompt editor. An extension may replace it with a subclass of its own
    (``tau.ui.set_editor_component``): keep the constructor's arguments and call ``super()``;
    Enter still sends through ``Submitted``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+enter,ctrl+j", "newline", "New line", show=False, id="newline"),
        Binding("alt+enter", "send_follow_up", "Queue follow-up", show=False, id="follow_up"),
        Binding("up", "up", show=False),
        Binding("down", "down", show=False),
        Binding("tab", "complete", show=False),
        Binding("escape", "close_menu", show=False),
        Binding("ctrl+d", "quit_if_empty", show=False),
        Binding("ctrl+y", "yank", "Yank", show=False, id="yank"),
        # Ctrl+Z suspends (the app's key, as in Pi and a shell); undo is Pi's Ctrl+-, which
        # most terminals send as Ctrl+_.
        Binding("ctrl+minus,ctrl+underscore", "undo", "Undo", show=False, id="undo"),
        Binding("ctrl+v", "paste_image", "Paste image", show=False, id="paste_image"),
    ]

    class Submitted(Message):
        """The user sent ``text`` (pastes expanded); ``follow_up`` for Alt+Enter; ``images``
        pasted (their ``[image #N]`` markers in the text) or named as files in it."""

        def __init__(self, text: str, follow_up: bool, images: Sequence[ImageContent] = ()) -> None:
            super().__init__()
            self.text = text
            self.follow_up = follow_up
            self.images = images

    class QuitRequested(Message):
        """Ctrl+D on an empty editor."""

    def __init__(self, sources: CompletionSources, history: PromptHistory) -> None:
        super().__init__(
            id="editor", soft_wrap=True, tab_behavior="focus", compact=True, placeholder=PLACEHOLDER
        )
        self.sources = sources
        self.prompt_history = history
        self.pastes = PasteStore()
        self.attachments = ImageAttachments()
        self.menu: CompletionMenu | None = None
        self._files: list[str] | None = None
        self._menu_for: tuple[str, tuple[int, int]] | None = None
        self._kill = False
        self._killed = ""  # what Ctrl+Y puts back
        self._loading_files = False

    # -- keys ---------------------------------------------------------------------------------

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self._enter()
            return
        # Bindings run here, in the editor's queue, in the order the keys were typed. Left to
        # Textual, a key bound here (Shift+Enter) or above (Esc) would bubble up to the App
        # and run its binding only after the keys typed after it were inserted.
        if not event.is_printable and await self.app._check_bindings(event.key):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def _enter(self) -> None:
        menu = self._current_menu()
        if menu is not None:
            candidate = menu.selected()
            if candidate is not None and not self._already_has(candidate):
                self.apply(candidate)
                if not candidate.submit:
                    return
        self.submit(follow_up=False)

    def _already_has(self, candidate: Candidate) -> bool:
        """Whether accepting ``candidate`` would leave the line as typed (``/export`` typed in
        full, ``/model local/m`` picked): then Enter sends instead of accepting it again."""
        row = self.cursor_location[0]
        typed = self.document.get_line(row)[candidate.start : candidate.end]
        return typed.rstrip() == candidate.insert.rstrip()

    def _current_menu(self) -> CompletionMenu | None:
        """The completion menu if open, computed for the text as it is now.

        The menu is refreshed on ``TextArea.Changed``, which is queued behind keys already
        waiting; a fast typist's Enter must not act on candidates for an older text ("/m"
        completing "/mcp" into "/model cp").
        """
        menu = self.menu
        if menu is None:
            return None
        if self._menu_for != (self.text, self.cursor_location):
            self.refresh_completions()
        return menu if menu.is_open else None

    def submit(self, *, follow_up: bool) -> None:
        typed = self.text
        if not typed.strip():
            return
        text = self.pastes.expand(typed)
        images = self.attachments.take(text, self.sources.cwd)
        self.prompt_history.add(text)
        self.pastes.clear()
        self.clear()
        self._close_menu()
        self.post_message(self.Submitted(text, follow_up, images))

    def action_paste_image(self) -> None:
        """Ctrl+V: the clipboard's image as an ``[image #N]`` marker (a line says why not)."""

        async def paste() -> None:
            try:
                data, mime = await read_clipboard_image(os.environ)
            except ClipboardError as exc:
                self.app.notify(str(exc), severity="warning")
                return
            marker = self.attachments.add(data, mime)
            if result := self._replace_via_keyboard(marker, *self.selection):
                self.move_cursor(result.end_location)

        self.run_worker(paste(), group="clipboard", exclusive=True)

    def get_cursor_left_location(self) -> Location:
        """One character to the left as the screen shows it: a whole emoji sequence or accented
        letter (graphemes.py), not one of its code points. Backspace deletes what this spans."""
        row, column = self.cursor_location
        if column == 0:
            return super().get_cursor_left_location()
        return row, cluster_start(self.document.get_line(row), column)

    def get_cursor_right_location(self) -> Location:
        """One character to the right as the screen shows it (see ``get_cursor_left_location``)."""
        row, column = self.cursor_location
        line = self.document.get_line(row)
        if column >= len(line):
            return super().get_cursor_right_location()
        return row, cluster_end(line, column)

    def action_delete_to_start_of_line(self) -> None:
        with self._killing():
            super().action_delete_to_start_of_line()

    def action_delete_to_end_of_line(self) -> None:
        with self._killing():
            super().action_delete_to_end_of_line()

    def action_delete_word_left(self) -> None:
        with self._killing():
            super().action_delete_word_left()

    def action_yank(self) -> None:
        """Ctrl+Y: insert what the last Ctrl+K, Ctrl+U or Ctrl+W removed."""
        if self._killed:
            self.insert(self._killed)

    @contextmanager
    def _killing(self) -> Iterator[None]:
        self._kill = True
        try:
            yield
        finally:
            self._kill = False

    def _delete_via_keyboard(self, start: Location, end: Location) -> EditResult | None:
        if self._kill and start != end:
            self._killed = self.get_text_range(min(start, end), max(start, end))
        return super()._delete_via_keyboard(start, end)

    def action_newline(self) -> None:
        self.insert("\n")

    def action_send_follow_up(self) -> None:
        self.submit(follow_up=True)

    def action_up(self) -> None:
        if (menu := self._current_menu()) is not None:
            menu.move(-1)
        elif self.cursor_location[0] == 0 and (entry := self.prompt_history.older(self.text)) is not None:
            self.load_text(entry)
            self.move_cursor((0, len(self.document.get_line(0))))
        else:
            self.action_cursor_up()

    def action_down(self) -> None:
        if (menu := self._current_menu()) is not None:
            menu.move(1)
        elif (
            self.cursor_location[0] == self.document.line_count - 1
            and (entry := self.prompt_history.newer()) is not None
        ):
            self.load_text(entry)
            self.move_cursor(self.document.end)
        else:
            self.action_cursor_down()

    def action_complete(self) -> None:
        if (menu := self._current_menu()) is not None:
            candidate = menu.selected()
            if candidate is not None:
                self.apply(candidate)
            return
        row, column = self.cursor_location
        line = self.document.get_line(row)
        found = path_candidates(line, column, self.sources.cwd)
        if len(found) == 1:
            self.apply(found[0])
        elif found:
            prefix = common_prefix(found)
            if len(prefix) > column - found[0].start:
                self.replace(prefix, (row, found[0].start), (row, column))
            if self.menu is not None:
                self.menu.show(found)
                self._menu_for = (self.text, self.cursor_location)

    def action_close_menu(self) -> None:
        if self.menu is None or not self.menu.is_open:
            raise SkipAction()
        self._close_menu()

    def action_quit_if_empty(self) -> None:
        if self.text:
            self.action_delete_right()
        else:
            self.post_message(self.QuitRequested())

    async def _on_paste(self, event: events.Paste) -> None:
        # Handled here alone: TextArea's own _on_paste would run after this one (Textual calls
        # the handler of every class in the MRO unless the default is prevented) and insert
        # the text a second time.
        event.stop()
        event.prevent_default()
        if self.read_only:
            return
        text = normalize_newlines(event.text)
        inserted = self.pastes.collapse(text) or text
        if result := self._replace_via_keyboard(inserted, *self.selection):
            self.move_cursor(result.end_location)

    # -- completion -----------------------------------------------------------------------------

    def set_cwd(self, cwd: Path) -> None:
        """Complete paths and ``@`` files from ``cwd`` from now on (the session moved there)."""
        if cwd != self.sources.cwd:
            self.sources.cwd = cwd
            self._files = None

    def apply(self, candidate: Candidate) -> None:
        row = self.cursor_location[0]
        result = self.replace(candidate.insert, (row, candidate.start), (row, candidate.end))
        self.move_cursor(result.end_location)
        self._close_menu()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.set_class(self.text.startswith("!"), "-bash")
        self.refresh_completions()

    def refresh_completions(self) -> None:
        if self.menu is None:
            return
        row, column = self.cursor_location
        self._menu_for = (self.text, (row, column))
        line = self.document.get_line(row)
        found: list[Candidate] = []
        if (own := _ask(self.sources.completers, line, column)) is not None:
            found = own
        elif row == 0 and self.document.line_count == 1 and line.startswith("/"):
            name, space, _ = line.partition(" ")
            source = self.sources.arguments.get(name[1:])
            if not space:
                found = command_candidates(line, self.sources.commands)
            elif source is not None:
                found = argument_candidates(line, name[1:], source())
        elif token_at(line, column)[1].startswith("@"):
            if self._files is None:
                self._load_files()
            else:
                extra = self.sources.mentions() if self.sources.mentions is not None else ()
                found = file_candidates(line, column, [*extra, *self._files])
        self.menu.show(found)

    def _close_menu(self) -> None:
        if self.menu is not None and self.menu.is_open:
            self.menu.close()

    def _load_files(self) -> None:
        lister = self.sources.list_files
        if lister is None or self._loading_files:
            return
        self._loading_files = True
        root = self.sources.cwd

        def load() -> None:
            files = lister(root)
            self.app.call_from_thread(self._files_loaded, files)

        self.run_worker(load, thread=True, group="files")

    def _files_loaded(self, files: list[str]) -> None:
        self._files = files
        self._loading_files = False
        self.refresh_completions()


def _ask(completers: Sequence[Completer], line: str, column: int) -> list[Candidate] | None:
    for completer in reversed(completers):
        if (found := completer(line, column)) is not None:
            return found
    return None


EditorFactory: TypeAlias = Callable[[CompletionSources, PromptHistory], PromptEditor]
