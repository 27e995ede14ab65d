"""TauApp: composition, start and painting; its keys are KeyActions (key_actions.py), the places
extensions draw are ExtensionSurface (extension_surface.py), what the user sends and the run's
events back are Sending (sending.py), the first paint and what follows it are Starting
(starting.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rich.console import RenderableType
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Vertical
from textual.driver import Driver
from textual.theme import Theme

from tau_coding.tui.bridge import RunInbox
from tau_coding.tui.files import project_files
from tau_coding.tui.frame_scheduler import FrameScheduler
from tau_coding.tui.history import PromptHistory
from tau_coding.tui.key_encodings import install as install_key_encodings
from tau_coding.tui.key_encodings import normalized_key
from tau_coding.tui.key_guard import KeyGuard
from tau_coding.tui.port import SessionInfo, SessionPort
from tau_coding.tui.port_opening import PortOpener
from tau_coding.tui.screens.dialog import Dialog
from tau_coding.tui.shell import commands
from tau_coding.tui.shell.app_images import AppImages
from tau_coding.tui.shell.escape_input import FullscreenDriver
from tau_coding.tui.shell.history_slices import HeldWriter
from tau_coding.tui.shell.inline import (
    InlineDriver,
    Look,
    ScrollbackFeed,
    above_inline_region,
    clear_resized_region,
    palette_of,
    reprint_soon,
)
from tau_coding.tui.shell.inline_rows import RowsScreen
from tau_coding.tui.shell.starting import Starting
from tau_coding.tui.state import (
    NoticeTone,
    TuiState,
    add_notice,
    from_messages,
)
from tau_coding.tui.style_cache import release_style_caches
from tau_coding.tui.theme import THEMES
from tau_coding.tui.title import terminal_title, title_sequence
from tau_coding.tui.widgets.completion_menu import CompletionMenu
from tau_coding.tui.widgets.extension_panel import ChromeLines, ExtensionPanel
from tau_coding.tui.widgets.prompt_editor import CompletionSources, PromptEditor
from tau_coding.tui.widgets.queue_view import QueueView
from tau_coding.tui.widgets.status_footer import StatusFooter
from tau_coding.tui.widgets.tool_row import ToolRow
from tau_coding.tui.widgets.transcript import Transcript


class TauApp(Starting):
    """The interactive agent. ``run()`` returns the "resume with ..." line to print, if any."""

    CSS_PATH = Path(__file__).parent.parent / "theme" / "app.tcss"  # absolute: subclasses live elsewhere
    TITLE = "τ"
    ENABLE_COMMAND_PALETTE = False
    INLINE_PADDING = 0  # inline mode: no blank line kept above the region (its text stays on exit)
    transcript: Transcript
    editor: PromptEditor
    footer: StatusFooter
    queue_view: QueueView

    def __init__(
        self,
        port: SessionPort | None,
        *,
        open_port: PortOpener | None = None,
        cwd: str | None = None,
        home: str | None = None,
        list_files: Callable[[Path], list[str]] | None = project_files,
        clock: Callable[[], float] = time.monotonic,
        theme: str = "dark",
        initial_prompt: str | None = None,
        more_prompts: Sequence[str] = (),
        user_themes: Sequence[Theme] = (),
        keymap: Mapping[str, str] | None = None,
        startup_notices: Sequence[str] = (),
        environ: Mapping[str, str] | None = None,
        start_with_resume: bool = False,
        type_ahead: str = "",
        load_themes: Callable[[], tuple[Sequence[Theme], Sequence[str]]] | None = None,
        mentions: Callable[[], Sequence[str]] | None = None,
        save_settings: Callable[[Mapping[str, object]], str | None] | None = None,
        inline: bool = False,
        write_above: Callable[[str], None] | None = None,
        shell_modes: Callable[[], object] | None = None,
    ) -> None:
        """``user_themes``, ``keymap`` and ``startup_notices`` (problems found loading them) come
        from the mode, which reads the user's files (``load_themes`` reads the themes again, on
        ``/reload``); ``environ`` gives $VISUAL/$EDITOR; ``type_ahead`` is what the user typed
        before the app ran, replayed into the editor; ``save_settings`` writes choices made here
        (theme, model) to the user's settings, returning a problem line or None. ``inline``: the
        app runs inline (``run(inline=True)``) and writes settled items into the terminal's
        scrollback, through ``write_above`` (default: above Textual's inline region; inline.py).
        ``shell_modes`` puts the terminal in the modes the shell left it in (the mode changed
        them to keep keys typed while it started), for a program it is handed to (Ctrl+G, Ctrl+Z).
        ``port`` None: the app paints its first screen (the editor and the footer, for ``cwd``),
        then opens the session with ``open_port`` (port_opening.py)."""
        super().__init__()
        install_key_encodings()
        self._initial_prompt = initial_prompt
        self._more_prompts = list(more_prompts)
        self._type_ahead = type_ahead
        self._user_themes = list(user_themes)
        self._load_themes = load_themes
        self._save_settings = save_settings
        self._shell_modes = shell_modes
        self._keymap = dict(keymap or {})
        self._startup_notices = list(startup_notices)
        self._opening_notices: Sequence[str] = ()
        self._environ = os.environ if environ is None else environ
        self._start_with_resume = start_with_resume
        self._last_escape = float("-inf")
        self._open_port = open_port
        self._cwd = cwd or os.getcwd()
        self._port_open = port is not None  # (port None: set by _start)
        if port is not None:
            self.port = port
        self.start_error: str | None = None  # why the session could not be opened (open_port)
        self.state: TuiState = TuiState(render_custom=lambda message: None)  # the session's: later
        self._home = home if home is not None else os.path.expanduser("~")
        self._list_files = list_files
        self._mentions = mentions  # more @ completions: the MCP resources, as server:uri
        self._clock = clock
        self._theme_name = f"tau-{theme}"
        self._last_interrupt = float("-inf")
        self._show_thinking = False
        self._expand_tools = False
        self._scheduler = FrameScheduler(self, self.paint)
        self.key_guard = KeyGuard(clock)  # told by the dialogs (``TuiDialogs(asking=...)``)
        self._inbox = RunInbox(self, lambda streaming: self._scheduler.request(streaming=streaming))
        self._widgets: dict[str, list[str]] = {}  # extensions' widgets, shown above the editor
        self._statuses: dict[str, str] = {}  # extensions' footer entries
        self._panel: ExtensionPanel | None = None
        self._writer = HeldWriter(write_above or above_inline_region(self))  # held: history_slices.py
        self._images = AppImages(
            self._environ,
            lambda: dict(self.port.settings()),
            lambda: self.size.height,
            lambda sequence: None if self._driver is None else self._driver.write(sequence),
            lambda: self.console.color_system,
        )
        self._feed = ScrollbackFeed(self._writer, self._images.after) if inline else None
        self._width = 0  # the terminal's width when the inline region was last resized
        # The other places extensions draw: widgets below the editor, a header, a footer of
        # their own, the terminal title (None: Tau's).
        self._below: dict[str, list[str]] = {}
        self._below_panel = ExtensionPanel("extension-below")
        self._header = ChromeLines("extension-header")
        self._own_footer = ChromeLines("extension-footer")
        self._header_lines: list[str] | None = None  # kept until composed (Static needs the app)
        self._footer_lines: list[str] | None = None
        self._extension_title: str | None = None
        self._working_message: str | None = None  # an extension's, instead of "working…"
        self._completers = []  # extensions' (shared with every editor)
        self._key_watchers = []  # extensions' (on_terminal_input), asked before Tau sees a key
        self._after_run: list[Callable[[], object]] = []  # what extensions asked for mid-run
        self._session_shown = asyncio.Event()  # set once the session's history is in the state
        self._apply_start_theme()

    def _apply_start_theme(self) -> None:
        """The start's theme, in place before Textual first parses the CSS (``run`` reads it).

        Setting ``App.theme`` runs its watcher, which re-parses every stylesheet and restyles
        every widget once the app runs: a tenth of the instructions before the first paint
        when done in ``on_mount`` (callgrind). Here nothing is parsed or mounted yet, so the
        theme's variables and classes are set without the watcher, as it would set them."""
        for theme in (*THEMES, *self._user_themes):
            self.register_theme(theme)
        if self._theme_name not in self.available_themes:
            self._startup_notices.append(f"Unknown theme {self._theme_name[4:]!r}; using dark.")
            self._theme_name = "tau-dark"
        self.set_reactive(TauApp.theme, self._theme_name)
        dark = self.current_theme.dark
        classes = {name: False for name in self.classes if name.startswith("-theme-")}
        classes |= {f"-theme-{self._theme_name}": True, "-dark-mode": dark, "-light-mode": not dark}
        self.update_classes(classes, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)  # (Textual's watcher does the same)
        self.stylesheet.set_variables(self.get_css_variables())

    # -- composition ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        sources = CompletionSources(
            cwd=Path(self._cwd),
            commands=commands.BUILTIN,
            arguments={"model": self._models, "thinking": self._thinking_levels, "theme": self.theme_names},
            list_files=self._list_files,
            mentions=self._mentions,
            completers=self._completers,
        )
        history = PromptHistory()
        self.transcript = Transcript(None if self._feed is not None else self._images.cells)
        self.editor = PromptEditor(sources, history)
        self._editor_parts = (sources, history)  # what an extension's editor is made from
        self.footer = StatusFooter(self._home)
        self.footer.display = self._footer_lines is None  # an extension's, set before, instead
        self.queue_view = QueueView()
        self._panel = ExtensionPanel()
        self._panel.show(self._widgets)
        self._below_panel.show(self._below)
        self._header.show_lines(self._header_lines)
        self._own_footer.show_lines(self._footer_lines)
        yield self._header
        yield self.transcript
        with Vertical(id="bottom"):
            yield self._panel
            yield self.queue_view
            yield CompletionMenu()
            yield self.editor
            yield self._below_panel
            yield self.footer
            yield self._own_footer

    async def on_mount(self) -> None:
        if self._keymap:
            self.set_keymap(self._keymap)
        self.editor.menu = self.query_one(CompletionMenu)
        if self._feed is not None:
            self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.editor.focus()
        await self.first_paint()

    def pop_screen(self) -> AwaitComplete:
        """Close the top screen, letting go of what Textual would keep of it (style_cache.py)."""
        popped = super().pop_screen()
        release_style_caches()
        return popped

    # -- painting -------------------------------------------------------------------------------

    async def paint(self) -> None:
        """Bring the screen up to date with the state: mount new items, re-sync changed ones."""
        transcript = self.transcript
        if not transcript.is_attached:  # shutting down: nothing left to paint on
            return
        self.take_run_events()  # (a streaming reply's deltas wait in the inbox for this)
        changes = self.state.take_changes()
        appended, updated = changes.appended, changes.updated
        if self._feed is not None and self._session_shown.is_set():
            # inline: what settled goes to the scrollback, out of the DOM (once the history is)
            self._feed_scrollback()
            start = self._feed.printed
            appended = range(max(appended.start, start), appended.stop)
            updated = {index for index in updated if index >= start}
            await transcript.forget_before(start)
        await transcript.append(self.state.items, appended)
        await transcript.update(updated)
        if changes.queue:
            self.queue_view.show(self.state.queue)
        if changes.footer:
            self.refresh_footer()
            self.editor.set_class(self.state.status != "idle", "-running")
        if self._expand_tools:
            for index in changes.appended:
                view = transcript.view(index)
                if isinstance(view, ToolRow):
                    view.set_expanded(True)

    def _feed_scrollback(self, *, everything: bool = False) -> None:
        if self._feed is not None:
            self._feed.feed(self.state.items, self._look(), everything=everything)

    def _look(self, width: int | None = None) -> Look:
        shown = self._show_thinking, self._expand_tools, self.transcript.thinking_hint
        return Look(
            width or self.size.width, palette_of(self.current_theme), self.console.color_system, *shown
        )

    def restyle_scrollback(self) -> None:
        """Inline: how items look changed (Ctrl+O, Ctrl+T, the theme): the scrollback is cleared
        and written again (``ScrollbackFeed.reprint``), if anything is in it yet."""
        if self._feed is not None and self._feed.written:
            reprint_soon(self, self._feed, self.state.items, self._look())

    def _theme_changed(self, theme: Theme) -> None:
        if theme.name != self._theme_name:  # (the start's own is set without an announcement)
            self._theme_name = theme.name
            self.restyle_scrollback()

    def get_default_screen(self) -> RowsScreen:
        # inline, a frame redraws the changed rows only; its class is there before it is styled
        return RowsScreen(id="_default", classes="-inline" if self._feed is not None else None)

    def _build_driver(
        self, headless: bool, inline: bool, mouse: bool, size: tuple[int, int] | None
    ) -> Driver:
        if headless or sys.platform == "win32":
            return super()._build_driver(headless, inline, mouse, size)
        driver = InlineDriver if inline else FullscreenDriver  # both deliver Esc at once
        self._driver = driver(self, debug=False, mouse=mouse, size=size)
        return self._driver

    def on_resize(self, event: events.Resize) -> None:
        """Inline, a new width rewraps what the terminal shows (tmux, VTE, iTerm2 do), the live
        region as drawn before included: the region is cleared at once, and all is written again
        at the new width (Pi does the same)."""
        if self._feed is not None and self._width and event.size.width != self._width:
            clear_resized_region(self, self._width, event.size.width)
            reprint_soon(self, self._feed, self.state.items, self._look(event.size.width))
        self._width = event.size.width
        for dialog in self.screen.query(Dialog):  # a dialog open: its list fits the new height
            dialog.fit(event.size.height)

    def exit(
        self, result: str | None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Quit; inline, what the transcript still shows is written to the scrollback first."""
        self._feed_scrollback(everything=True)
        self._writer.release()  # quitting while the history is being written: all of it
        super().exit(result, return_code, message)

    def refresh_footer(self) -> None:
        info = self.port.info() if self.has_port() else SessionInfo(cwd=self._cwd, model_label="")
        self.footer.show(
            info, self.state, list(self._statuses.values()), self._clock(), working=self.working_status()
        )
        title = self._extension_title or terminal_title(info.cwd, info.session_name, self._home)
        if title != self.title:
            self.title = title
            if self._driver is not None:
                self._driver.write(title_sequence(title))

    @property
    def keymap(self) -> dict[str, str]:
        """The user's remapped keys (action -> comma-separated keys), as passed in."""
        return dict(self._keymap)

    def theme_names(self) -> list[str]:
        return [name[4:] for name in self.available_themes if name.startswith("tau-")]

    def request_paint(self) -> None:
        self._scheduler.request()

    def _tick(self) -> None:
        now = self._clock()
        if self.state.status == "running":  # the run's seconds, the countdown to a retry
            self.refresh_footer()
        for view in self.transcript.views():
            if isinstance(view, ToolRow) and view.item.status == "running":
                view.tick(now)

    def notice(self, text: str, tone: NoticeTone = "info") -> None:
        add_notice(self.state, text, tone)
        self._scheduler.request()

    def remember(self, changes: Mapping[str, object]) -> None:
        if self._save_settings is not None and (problem := self._save_settings(changes)) is not None:
            self.notice(problem, "warning")

    def reload_themes(self) -> list[str]:
        if self._load_themes is None:
            return []
        themes, problems = self._load_themes()
        for theme in themes:
            self.register_theme(theme)
        self._user_themes = list(themes)
        return list(problems)

    async def reset_transcript(self) -> None:
        await self.transcript.clear_all()
        self.editor.set_cwd(Path(self.port.info().cwd))
        self.state = from_messages(self.port.messages, self.port.render_custom, self.port.spent())
        if self._feed is not None:
            self._feed.start(len(self.state.items), new_screen=True)
        self._session_shown.set()
        for text in self._startup_notices:  # problems in the user's files outlive a session switch
            add_notice(self.state, text, "warning")
        await self.paint()

    # -- input ----------------------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and (key := normalized_key(event.key)) != event.key:
            event = events.Key(key, None)
        if isinstance(event, events.Key):
            if len(self.screen_stack) == 1:
                self.key_guard.typed()
            elif self.key_guard.holds(event.key):
                self._keep_for_editor(event)  # typed for the editor, not for the question just shown
                return
        await super().on_event(event)

    def _keep_for_editor(self, key: events.Key) -> None:
        if key.is_printable and key.character:
            self.editor.insert(key.character)
        elif key.key == "backspace":
            self.editor.action_delete_left()
