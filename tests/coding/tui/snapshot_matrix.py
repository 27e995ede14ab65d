"""Every screen and dialog of the TUI, in three terminal sizes and two themes, as SVG goldens.

``SCREENS`` names each picture and how to open it over a running app; ``render`` opens one in
one app per theme and takes its SVG (Textual's ``export_screenshot``) at each size in turn,
resizing the terminal between pictures. Regenerate after an intended change of look, then
review the SVGs in ``git diff tests/coding/tui/golden/screens`` (or render them with
``scripts/render_screens.py``):

    TAU_REGENERATE_GOLDENS=1 .venv/bin/python -m pytest tests/coding/tui/test_snapshot_matrix.py
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tau_agent.testing import FakeProvider
from tau_coding.tui.port import ForkPoint
from tau_coding.tui.rewind_port import RewindRow
from tau_coding.tui.screens.choice_picker import ChoicePicker
from tau_coding.tui.screens.confirm_dialog import ConfirmDialog
from tau_coding.tui.screens.fork_picker import ForkPicker
from tau_coding.tui.screens.rewind_picker import RewindPicker
from tau_coding.tui.screens.scoped_models import ScopedModels
from tau_coding.tui.screens.text_prompt import TextPrompt
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.shell.commands import HANDLERS

from .helpers import adapter
from .session_helpers import Rig, drain
from .test_snapshots import CWD, session_history

GOLDEN = Path(__file__).parent / "golden" / "screens"
SIZES = {"small": (72, 22), "medium": (100, 30), "large": (140, 42)}
THEMES = ("dark", "light")
REGENERATE = os.environ.get("TAU_REGENERATE_GOLDENS") == "1"
Opener = Callable[[Pilot[Any], TauApp], Awaitable[None]]


async def _settle(pilot: Pilot[Any]) -> None:
    """Let the screen draw; a blinking cursor would make the picture depend on timing."""
    await pilot.pause()
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False
    await pilot.pause(0.05)


async def _command(pilot: Pilot[Any], app: TauApp, text: str) -> None:
    name, _, args = text.removeprefix("/").partition(" ")
    await HANDLERS[name](app, args)


def _opens(screen: Callable[[], Any]) -> Opener:
    async def open_it(pilot: Pilot[Any], app: TauApp) -> None:
        await app.push_screen(screen())

    return open_it


def _runs(text: str) -> Opener:
    async def open_it(pilot: Pilot[Any], app: TauApp) -> None:
        await _command(pilot, app, text)

    return open_it


async def _nothing(pilot: Pilot[Any], app: TauApp) -> None:
    return None


async def _tree(pilot: Pilot[Any], app: TauApp) -> None:
    await _command(pilot, app, "/tree")


APPROVAL = [
    "Yes, once",
    "Yes, and allow Bash(npm run test:*) for this session",
    "Yes, and add Bash(npm run test:*) to .tau/settings.json",
    "No, and tell the model why",
]
REWIND = [
    RewindRow("c1", "Fix the add function in calc.py", "2026-01-05 10:12", 1, 1, 1),
    RewindRow("c2", "Add a test for subtraction", "2026-01-05 10:20", 2, 14, 0),
]
SCREENS: dict[str, Opener] = {
    "main-empty": _nothing,
    "conversation": _nothing,
    "session-picker": _runs("/resume"),
    "tree": _tree,
    "model-picker": _runs("/model"),
    "settings": _runs("/settings"),
    "hotkeys": _runs("/hotkeys"),
    "approval": _opens(lambda: ChoicePicker("Allow bash: npm run test? (asks in ask mode)", APPROVAL)),
    "confirm": _opens(lambda: ConfirmDialog("Dangerous command", "Allow: rm -rf build")),
    "text-prompt": _opens(lambda: TextPrompt("Ticket number")),
    "fork-picker": _opens(
        lambda: ForkPicker([ForkPoint("e1", "Plan the migration"), ForkPoint("e3", "Try another approach")])
    ),
    "rewind-picker": _opens(lambda: RewindPicker(REWIND)),
    "scoped-models": _opens(
        lambda: ScopedModels(
            ["anthropic/claude-sonnet-4-5", "anthropic/claude-haiku-4-5", "openai/gpt-5"], ["openai/gpt-5"]
        )
    ),
}


@contextmanager
def utc() -> Any:
    """Times in the pictures (the session picker's) read the same in every time zone."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()


async def _app_for(name: str, theme: str, tmp_path: Path) -> TauApp:
    if name in ("main-empty", "conversation"):
        messages = session_history() if name == "conversation" else []
        port: Any = adapter(FakeProvider([]), cwd=CWD, context_window=200_000, messages=messages)
        return TauApp(port, home="/home/user", list_files=None, theme=theme)
    rig = Rig(tmp_path, ["Here is a plan.", "Plan B, then."])
    if name in ("tree", "session-picker"):
        await drain(rig.port, "Plan the migration")
        await drain(rig.port, "Try another approach")
        for path in rig.manager.directory.glob("*.jsonl"):
            os.utime(path, (1_767_000_000, 1_767_000_000))
    return TauApp(rig.port, home=str(tmp_path), list_files=None, theme=theme)


async def render(name: str, theme: str, tmp_path: Path) -> dict[str, str]:
    """The screen ``name`` in ``theme`` at every size: {size name: SVG}."""
    app = await _app_for(name, theme, tmp_path)
    pictures: dict[str, str] = {}
    first = next(iter(SIZES.values()))
    async with app.run_test(size=first) as pilot:
        app.editor.cursor_blink = False
        await _settle(pilot)
        await SCREENS[name](pilot, app)
        await _settle(pilot)
        for size_name, (width, height) in SIZES.items():
            await pilot.resize_terminal(width, height)
            await _settle(pilot)
            pictures[size_name] = app.export_screenshot(title=f"{name} ({size_name}, {theme})")
    return pictures


def golden_path(name: str, size: str, theme: str) -> Path:
    return GOLDEN / f"{name}-{size}-{theme}.svg"
