"""SVG snapshots of the main screen. Regenerate after an intended change of look with:

    .venv/bin/python -m pytest tests/coding/tui/test_snapshots.py --snapshot-update

and review the SVGs under ``__snapshots__/`` in the diff (see tests/coding/tui/README.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, Cost, ToolResultMessage, Usage, UserMessage
from tau_agent.testing import FakeProvider, reply, text
from tau_coding.tui.app import TauApp
from tau_coding.tui.widgets.assistant_view import AssistantView

from .helpers import GatedProvider, adapter

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
