"""SVG snapshots of the main screen. Regenerate after an intended change of look with:

    .venv/bin/python -m pytest tests/coding/tui/test_snapshots.py --snapshot-update

and review the SVGs under ``__snapshots__/`` in the diff (see tests/coding/tui/README.md).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, Cost, ToolResultMessage, Usage, UserMessage
from tau_agent.testing import FakeProvider, reply, text
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.widgets.assistant_view import AssistantView

from .helpers import GatedProvider, adapter
from .session_helpers import Rig, drain

SIZE = (100, 32)
CWD = "/srv/demo-project"
SnapCompare = Callable[..., bool]

ANSWER = """Here is the fix:

```python
def add(a: int, b: int) -> int:
    return a + b
```

- kept the **signature**
- added a test
"""

DIFF = (
    "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
)


def session_history() -> list[Any]:
    usage = Usage(input=1200, output=340, cache_read=8000, cost=Cost(total=0.0123))
    return [
        UserMessage("Fix the add function in calc.py"),
        AssistantMessage(
            [
                TextContent("Let me look at it."),
                ToolCall("c1", "read", {"path": "calc.py"}),
            ],
            usage=usage,
        ),
        ToolResultMessage("c1", "read", [TextContent("def add(a, b):\n    return a - b\n")]),
        AssistantMessage([ToolCall("c2", "edit", {"path": "calc.py"})], usage=usage),
        ToolResultMessage("c2", "edit", [TextContent("Edited calc.py")], details={"diff": DIFF}),
        AssistantMessage([ToolCall("c3", "bash", {"command": "pytest -q"})], usage=usage),
        ToolResultMessage(
            "c3", "bash", [TextContent("F\nFAILED test_calc.py::test_sub\n1 failed")], is_error=True
        ),
        AssistantMessage([TextContent(ANSWER)], usage=usage),
    ]


def make_app(port: Any) -> TauApp:
    return TauApp(port, home="/home/user", list_files=None)


async def steady_cursor(pilot: Pilot[Any]) -> None:
    """A blinking cursor would make the picture depend on timing."""
    assert isinstance(pilot.app, TauApp)
    pilot.app.editor.cursor_blink = False
    await pilot.pause()


def test_idle_empty_screen(snap_compare: SnapCompare) -> None:
    app = make_app(adapter(FakeProvider([]), cwd=CWD, context_window=200_000))
    assert snap_compare(app, terminal_size=SIZE, run_before=steady_cursor)


def test_loaded_session_with_tool_rows(snap_compare: SnapCompare) -> None:
    port = adapter(FakeProvider([]), cwd=CWD, context_window=200_000, messages=session_history())
    assert snap_compare(make_app(port), terminal_size=SIZE, run_before=steady_cursor)


def test_streaming_reply_with_a_queued_steer(snap_compare: SnapCompare) -> None:
    provider = GatedProvider(
        [reply(text("Streaming **markdown** as it arrives, word by word", chunk_size=10))], 3
    )
    port = adapter(provider, cwd=CWD, context_window=200_000)

    async def start_streaming(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, TauApp)
        await steady_cursor(pilot)
        await pilot.press(*"go", "enter")
        await provider.paused.wait()
        await pilot.press(*"stop", "enter")
        for _ in range(250):  # settle: the partial text and the queued steer are on screen
            views = list(app.query(AssistantView))
            if views and views[0].sources() == ["Streaming **markdown** as it a"] and app.queue_view.display:
                break
            await pilot.pause(0.02)
        await pilot.pause(0.1)

    assert snap_compare(make_app(port), terminal_size=SIZE, run_before=start_streaming)


def _tz_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


utc = pytest.fixture(_tz_utc)


def test_session_picker(snap_compare: SnapCompare, tmp_path: Path, utc: None) -> None:
    rig = Rig(tmp_path)
    stamps = iter([1_767_000_000, 1_767_100_000, 1_767_200_000])
    for pair, name in [
        (("Add a --verbose flag to the CLI", "Done."), None),
        (("Why does the parser choke on tabs?", "Because…", "Fix it", "Fixed."), "parser tabs"),
        (("Write the release notes", "Here they are."), None),
    ]:
        path = rig.other_session(*pair, name=name)
        os.utime(path, (next(stamps),) * 2)
    app = TauApp(rig.port, home=str(tmp_path), list_files=None, start_with_resume=True)

    async def settle(pilot: Pilot[Any]) -> None:
        await steady_cursor(pilot)
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_tree_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["Here is a plan.", "Plan B, then.", "Sure: option two.", "Step one done."])

    async def build_and_open(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, TauApp)
        await drain(rig.port, "Plan the migration")
        await drain(rig.port, "Try another approach")
        first_answer = rig.port.tree()[1].entry_id
        await rig.port.navigate(first_answer)
        await drain(rig.port, "Compare both options")
        rig.port.set_label(first_answer, "baseline")
        await drain(rig.port, "Go with step one")
        await app.reset_transcript()
        await steady_cursor(pilot)
        app.editor.load_text("/tree")
        await pilot.press("end", "escape", "enter")
        await pilot.pause(0.1)

    app = TauApp(rig.port, home=str(tmp_path), list_files=None)
    assert snap_compare(app, terminal_size=SIZE, run_before=build_and_open)
