"""UIBridge: how an extension talks to whoever is in front of the session.

The TUI, the RPC mode and print mode each provide one. Dialogs are async and return ``None``
(or ``False`` for ``confirm``) when the user cancels or nobody can answer; ``notify``,
``set_status``, ``set_widget``, ``set_header``, ``set_footer``, ``set_title`` and
``set_editor_text``, ``set_working_message`` and ``paste_to_editor`` never block.
``custom(make_screen)`` shows a full Textual screen (the TUI only; docs/extensions.md says how
to write one), or with ``overlay=True`` a modal drawn over the conversation, and returns what it
was dismissed with. ``set_theme`` answers a ``ThemeResult`` at once (only the TUI has themes).

``HeadlessUI`` is the bridge of print mode and of SDK use: there is nobody to ask, so every
dialog answers its ``default`` at once (``custom``: None) and says so in a one-line warning;
notices go to the ``warn`` callable; status lines, widgets, header, footer, title and editor
text are kept in plain attributes a caller (or a test) may read; ``set_theme`` fails, as Pi's
print mode does ("UI not available"). ``get_tools_expanded``/``set_tools_expanded`` (Ctrl+O's
state), ``set_working_visible``/``set_working_indicator`` (the footer's "working…" while the agent
runs), ``set_hidden_thinking_label``, ``get_editor_component``, ``add_autocomplete_provider``,
``on_terminal_input`` and ``get_all_themes``/``get_theme`` answer at once; outside the TUI the setters are kept
(headless) or ignored (RPC), the getters answer False, ``[]`` and None, as Pi's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias

from tau_coding.extensions.autocomplete import AutocompleteProvider

NoticeLevel: TypeAlias = Literal["info", "warning", "error"]
Placement: TypeAlias = Literal["above", "below"]  # a widget's place: above or below the editor
ScreenFactory: TypeAlias = Callable[[], Any]  # makes a textual.screen.Screen (the TUI checks)
# makes the TUI's editor from (sources, history): a subclass of tui.widgets.prompt_editor.PromptEditor
EditorFactory: TypeAlias = Callable[[Any, Any], Any]
# sees each key (Textual's name: "a", "ctrl+x", "enter") before Tau; True: consumed, Tau skips it
TerminalInputHandler: TypeAlias = Callable[[str], bool | None]
# A theme by name, or as the decoded JSON of a theme file (Tau's format or Pi's)
ThemeChoice: TypeAlias = str | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ThemeResult:
    """What ``set_theme`` did: ``success``, else ``error`` says why in one line (Pi's shape)."""

    success: bool
    error: str | None = None


class UIBridge(Protocol):
    """What a frontend offers extensions. Every method must be safe to call at any time."""

    @property
    def interactive(self) -> bool:
        """Whether a person may answer dialogs (False: dialogs return their default)."""
        ...

    async def select(
        self, title: str, options: Sequence[str], *, default: str | None = None
    ) -> str | None: ...

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool: ...

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None: ...

    async def editor(self, title: str, text: str = "") -> str | None: ...

    def notify(self, message: str, level: NoticeLevel = "info") -> None: ...

    def set_status(self, key: str, text: str | None) -> None: ...

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: Placement = "above") -> None: ...

    def set_header(self, lines: Sequence[str] | None) -> None:
        """Lines shown above the transcript (None: none)."""
        ...

    def set_footer(self, lines: Sequence[str] | None) -> None:
        """Lines shown instead of Tau's footer (None: Tau's footer again)."""
        ...

    def set_title(self, title: str | None) -> None:
        """The terminal's title (None: Tau's own again)."""
        ...

    def get_editor_text(self) -> str:
        """What the user has typed and not sent yet ("" where nobody types)."""
        ...

    def set_editor_text(self, text: str) -> None: ...

    async def custom(self, make_screen: ScreenFactory, *, overlay: bool = False) -> Any:
        """Show ``make_screen()`` (a Textual screen) until it is dismissed; its value, else None.

        ``overlay``: drawn over the conversation, which stays visible around it; ``make_screen``
        may then return a ``ModalScreen`` or a plain widget (Tau centres it in one)."""
        ...

    async def set_editor_component(self, make: EditorFactory | None) -> None:
        """The TUI's editor becomes ``make(sources, history)`` (None: Tau's own again)."""
        ...

    def get_editor_component(self) -> EditorFactory | None:
        """The factory ``set_editor_component`` was last given (None: Tau's own editor, and
        always None in RPC mode), so an extension can wrap the editor another one set."""
        ...

    def add_autocomplete_provider(self, provider: AutocompleteProvider) -> None:
        """Offer ``provider``'s suggestions in the TUI's editor, asked before those added
        earlier and before Tau's own (tau_coding/extensions/autocomplete.py); kept and unused
        elsewhere."""
        ...

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        """``handler(key)`` sees every key the TUI receives, before Tau acts on it, and returns
        True to consume it; other modes have no terminal and never call it. Returns the function
        that unsubscribes ``handler``."""
        ...

    def set_working_message(self, text: str | None = None) -> None:
        """What the "working…" indicator says while the agent runs (None: Tau's own again)."""
        ...

    def paste_to_editor(self, text: str) -> None:
        """Insert ``text`` into the editor at the cursor as a paste (a large one is collapsed)."""
        ...

    def set_theme(self, theme: ThemeChoice) -> ThemeResult:
        """Switch the colour theme, by name (saved as the default, as ``/theme`` does) or from
        theme data (this run only)."""
        ...

    def get_tools_expanded(self) -> bool:
        """Whether tool output is shown in full (the TUI's Ctrl+O); False elsewhere."""
        ...

    def set_tools_expanded(self, expanded: bool) -> None:
        """Show tool output in full or collapsed, as Ctrl+O does."""
        ...

    def set_working_visible(self, visible: bool) -> None:
        """Show (True, the default) or hide the footer's "working…" while the agent runs."""
        ...

    def set_working_indicator(self, frames: Sequence[str] | None = None) -> None:
        """What precedes the working message: ``frames[0]`` (Tau's footer is not animated), no
        glyph for ``[]`` or None (Tau's own, which has none)."""
        ...

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        """What a hidden thinking block says instead of Tau's hint (None: Tau's again)."""
        ...

    def get_all_themes(self) -> list[str]:
        """The names ``set_theme`` accepts (Tau's themes and the user's); [] without themes."""
        ...

    def get_theme(self, name: str) -> Any:
        """The Textual ``Theme`` called ``name`` (its colours), without switching; None if unknown."""
        ...


class HeadlessUI:
    """No one to ask: dialogs answer their default with a warning; status and widgets are kept."""

    interactive = False

    def __init__(self, warn: Callable[[str], object]) -> None:
        self._warn = warn
        self.status: dict[str, str] = {}
        self.widgets: dict[str, list[str]] = {}
        self.below: set[str] = set()  # keys of widgets placed below the editor
        self.notices: list[tuple[NoticeLevel, str]] = []
        self.header: list[str] | None = None
        self.footer: list[str] | None = None
        self.title: str | None = None
        self.editor_text = ""
        self.editor_component: EditorFactory | None = None
        self.autocomplete_providers: list[AutocompleteProvider] = []
        self.terminal_input_handlers: list[TerminalInputHandler] = []
        self.working_message: str | None = None
        self.tools_expanded = False
        self.working_visible = True
        self.working_indicator: list[str] | None = None
        self.hidden_thinking_label: str | None = None

    def _unanswered(self, kind: str, title: str, answer: object) -> None:
        self._warn(f"{kind} {title!r} needs a person; no UI in this mode, answered {answer!r}")

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        self._unanswered("select", title, default)
        return default

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        self._unanswered("confirm", title, default)
        return default

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        self._unanswered("input", title, default)
        return default

    async def editor(self, title: str, text: str = "") -> str | None:
        self._unanswered("editor", title, None)
        return None

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self.notices.append((level, message))
        self._warn(message if level == "info" else f"{level}: {message}")

    def set_status(self, key: str, text: str | None) -> None:
        if text is None:
            self.status.pop(key, None)
        else:
            self.status[key] = text

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: Placement = "above") -> None:
        self.below.discard(key)
        if lines is None:
            self.widgets.pop(key, None)
            return
        self.widgets[key] = list(lines)
        if placement == "below":
            self.below.add(key)

    def set_header(self, lines: Sequence[str] | None) -> None:
        self.header = None if lines is None else list(lines)

    def set_footer(self, lines: Sequence[str] | None) -> None:
        self.footer = None if lines is None else list(lines)

    def set_title(self, title: str | None) -> None:
        self.title = title

    def get_editor_text(self) -> str:
        return self.editor_text

    def set_editor_text(self, text: str) -> None:
        self.editor_text = text

    async def custom(self, make_screen: ScreenFactory, *, overlay: bool = False) -> Any:
        self._unanswered("custom", "overlay" if overlay else "screen", None)
        return None

    async def set_editor_component(self, make: EditorFactory | None) -> None:
        self.editor_component = make

    def get_editor_component(self) -> EditorFactory | None:
        return self.editor_component

    def add_autocomplete_provider(self, provider: AutocompleteProvider) -> None:
        self.autocomplete_providers.append(provider)

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        self.terminal_input_handlers.append(handler)
        return lambda: _discard(self.terminal_input_handlers, handler)

    def set_working_message(self, text: str | None = None) -> None:
        self.working_message = text

    def paste_to_editor(self, text: str) -> None:
        self.editor_text += text

    def set_theme(self, theme: ThemeChoice) -> ThemeResult:
        return ThemeResult(False, "UI not available")

    def get_tools_expanded(self) -> bool:
        return self.tools_expanded

    def set_tools_expanded(self, expanded: bool) -> None:
        self.tools_expanded = expanded

    def set_working_visible(self, visible: bool) -> None:
        self.working_visible = visible

    def set_working_indicator(self, frames: Sequence[str] | None = None) -> None:
        self.working_indicator = None if frames is None else list(frames)

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        self.hidden_thinking_label = label

    def get_all_themes(self) -> list[str]:
        return []

    def get_theme(self, name: str) -> Any:
        return None


class LateBoundUI:
    """Forwards to ``fallback`` until ``bind`` gives it the real bridge; ``clock`` tracks the
    time its dialogs stay open."""

    def __init__(self, fallback: UIBridge) -> None:
        self._target = fallback
        self.clock = DialogClock()
        # each terminal input handler's unsubscribe from the current target (bind moves them)
        self._inputs: dict[TerminalInputHandler, Callable[[], None]] = {}

    def bind(self, target: UIBridge) -> None:
        """From now on ``target`` answers; status entries and widgets set before (kept by a
        ``HeadlessUI`` fallback) are handed on to it."""
        previous, self._target = self._target, target
        if isinstance(previous, HeadlessUI):
            for key, text in previous.status.items():
                target.set_status(key, text)
            for key, lines in previous.widgets.items():
                target.set_widget(key, lines, "below" if key in previous.below else "above")
            if previous.header is not None:
                target.set_header(previous.header)
            if previous.footer is not None:
                target.set_footer(previous.footer)
            if previous.title is not None:
                target.set_title(previous.title)
            if previous.working_message is not None:
                target.set_working_message(previous.working_message)
            if previous.tools_expanded:
                target.set_tools_expanded(True)
            if not previous.working_visible:
                target.set_working_visible(False)
            if previous.working_indicator is not None:
                target.set_working_indicator(previous.working_indicator)
            if previous.hidden_thinking_label is not None:
                target.set_hidden_thinking_label(previous.hidden_thinking_label)
            for provider in previous.autocomplete_providers:
                target.add_autocomplete_provider(provider)
        for handler, unsubscribe in list(self._inputs.items()):
            unsubscribe()
            self._inputs[handler] = target.on_terminal_input(handler)

    @property
    def interactive(self) -> bool:
        return self._target.interactive

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        with self.clock:
            return await self._target.select(title, options, default=default)

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        with self.clock:
            return await self._target.confirm(title, message, default=default)

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        with self.clock:
            return await self._target.input(title, placeholder=placeholder, default=default)

    async def editor(self, title: str, text: str = "") -> str | None:
        with self.clock:
            return await self._target.editor(title, text)

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self._target.notify(message, level)

    def set_status(self, key: str, text: str | None) -> None:
        self._target.set_status(key, text)

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: Placement = "above") -> None:
        self._target.set_widget(key, lines, placement)

    def set_header(self, lines: Sequence[str] | None) -> None:
        self._target.set_header(lines)

    def set_footer(self, lines: Sequence[str] | None) -> None:
        self._target.set_footer(lines)

    def set_title(self, title: str | None) -> None:
        self._target.set_title(title)

    def get_editor_text(self) -> str:
        return self._target.get_editor_text()

    def set_editor_text(self, text: str) -> None:
        self._target.set_editor_text(text)

    async def custom(self, make_screen: ScreenFactory, *, overlay: bool = False) -> Any:
        with self.clock:
            return await self._target.custom(make_screen, overlay=overlay)

    async def set_editor_component(self, make: EditorFactory | None) -> None:
        await self._target.set_editor_component(make)

    def get_editor_component(self) -> EditorFactory | None:
        return self._target.get_editor_component()

    def add_autocomplete_provider(self, provider: AutocompleteProvider) -> None:
        self._target.add_autocomplete_provider(provider)

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        self._inputs[handler] = self._target.on_terminal_input(handler)
        return lambda: self._inputs.pop(handler, lambda: None)()

    def set_working_message(self, text: str | None = None) -> None:
        self._target.set_working_message(text)

    def paste_to_editor(self, text: str) -> None:
        self._target.paste_to_editor(text)

    def set_theme(self, theme: ThemeChoice) -> ThemeResult:
        return self._target.set_theme(theme)

    def get_tools_expanded(self) -> bool:
        return self._target.get_tools_expanded()

    def set_tools_expanded(self, expanded: bool) -> None:
        self._target.set_tools_expanded(expanded)

    def set_working_visible(self, visible: bool) -> None:
        self._target.set_working_visible(visible)

    def set_working_indicator(self, frames: Sequence[str] | None = None) -> None:
        self._target.set_working_indicator(frames)

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        self._target.set_hidden_thinking_label(label)

    def get_all_themes(self) -> list[str]:
        return self._target.get_all_themes()

    def get_theme(self, name: str) -> Any:
        return self._target.get_theme(name)


def _discard(handlers: list[TerminalInputHandler], handler: TerminalInputHandler) -> None:
    if handler in handlers:
        handlers.remove(handler)


class DialogClock:
    """How long dialogs have kept a person deciding, so extension time limits can leave it out.

    A permission gate that asks "run rm -rf build?" is not hung while the person thinks.
    """

    def __init__(self) -> None:
        self._open = 0
        self._since = 0.0
        self._total = 0.0

    @property
    def open(self) -> bool:
        return self._open > 0

    def waited(self) -> float:
        """Seconds spent with at least one dialog open, so far (the current one included)."""
        import time

        return self._total + (time.monotonic() - self._since if self._open else 0.0)

    def __enter__(self) -> DialogClock:
        import time

        if self._open == 0:
            self._since = time.monotonic()
        self._open += 1
        return self

    def __exit__(self, *exc: object) -> None:
        import time

        self._open -= 1
        if self._open == 0:
            self._total += time.monotonic() - self._since
