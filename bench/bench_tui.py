"""TUI costs: launch to an editable prompt, per streamed delta, keystroke with a long transcript,
opening /tree on a long session.

Everything runs headless (Textual's ``run_test``), against the real harness and FakeProvider.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from tau_agent.content import TextContent, ToolCall
from tau_agent.harness import AgentHarness
from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.session.log import SessionLog
from tau_agent.stream_events import AssistantMessageEvent
from tau_agent.testing import FakeProvider, deltas, reply
from tau_coding.tui.state import TuiState, apply

ROOT = Path(__file__).resolve().parent.parent

_STARTUP = """
import time, asyncio
start = time.perf_counter()
from tau_agent.harness import AgentHarness
from tau_agent.testing import FakeProvider
from tests.coding.tui.harness_port import HarnessSessionAdapter
from tau_coding.tui.shell.app import TauApp

async def main():
    app = TauApp(HarnessSessionAdapter(AgentHarness(FakeProvider([])), cwd="."), list_files=None)
    async with app.run_test(size=(120, 40)) as pilot:
        while not (app.editor.has_focus and app.transcript.is_attached):
            await pilot.pause(0.001)
        print((time.perf_counter() - start) * 1000)

asyncio.run(main())
"""


def startup_ms(repeats: int = 3) -> float:
    """Milliseconds from a fresh interpreter to a focused editor (imports included), best of ``repeats``."""
    best = float("inf")
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, "-c", _STARTUP],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=True,
        )
        best = min(best, float(done.stdout.strip().splitlines()[-1]))
    return best


PARAGRAPH = 50  # deltas per paragraph: a reply of prose, not one 40 KB line


def reply_pieces(n: int) -> list[str]:
    return ["tok.\n\n" if (i + 1) % PARAGRAPH == 0 else "tok " for i in range(n)]


class _Trickle:
    """FakeProvider whose events arrive one per event-loop turn, as from a network."""

    def __init__(self, n: int) -> None:
        self._inner = FakeProvider([reply(deltas(reply_pieces(n)))])

    api = property(lambda self: self._inner.api)
    provider = property(lambda self: self._inner.provider)
    model = property(lambda self: self._inner.model)

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        async for event in self._inner.stream(context, options):
            yield event
            await asyncio.sleep(0)


async def _stream_through_app(n: int) -> float:
    from tests.coding.tui.harness_port import HarnessSessionAdapter

    from tau_coding.tui.shell.app import TauApp
    from tau_coding.tui.widgets.assistant_view import AssistantView

    port = HarnessSessionAdapter(AgentHarness(_Trickle(n)), cwd=".")
    app = TauApp(port, list_files=None)
    async with app.run_test(size=(120, 40)) as pilot:
        start = time.perf_counter()
        app.send("go")
        expected = "".join(reply_pieces(n))
        deadline = start + 120  # a broken app fails the bench instead of hanging it (and CI)
        while True:
            await pilot.pause(0.005)
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the answer never showed in full ({app.state.status})")
            if app.state.status == "idle":
                views = list(app.query(AssistantView))
                sources = [source for view in views for source in view.sources()]
                if "".join(sources) == expected:
                    break
        return time.perf_counter() - start


def app_delta_cost(n: int) -> float:
    """Microseconds per streamed delta through bridge, reducer and frame-throttled Markdown repaint."""
    small = max(n // 10, 1)
    base = asyncio.run(_stream_through_app(small))
    full = asyncio.run(_stream_through_app(n))
    return max(full - base, 0.0) / (n - small) * 1e6


def reducer_delta_cost(n: int) -> float:
    """Microseconds per delta of ``apply`` alone (events recorded first from the real harness)."""

    async def record() -> list[Any]:
        harness = AgentHarness(FakeProvider([reply(deltas(["tok "] * n))]))
        return [event async for event in harness.prompt("go")]

    events = asyncio.run(record())
    state = TuiState()
    start = time.perf_counter()
    for event in events:
        apply(state, event, 0.0)
        state.take_changes()
    return (time.perf_counter() - start) / len(events) * 1e6


def keystroke_ms(messages: int, keys: int = 40) -> float:
    """Milliseconds from a key event to the editor holding the new text and the screen repainted,
    with ``messages`` loaded in the transcript (Pilot's own idle waits are left out)."""
    from tests.coding.tui.harness_port import HarnessSessionAdapter
    from textual import events

    from tau_coding.tui.shell.app import TauApp

    history: list[AgentMessage] = [
        UserMessage(f"question {i}") if i % 2 == 0 else AssistantMessage([TextContent(f"answer **{i}**")])
        for i in range(messages)
    ]

    async def run() -> float:
        port = HarnessSessionAdapter(AgentHarness(FakeProvider([]), messages=history), cwd=".")
        app = TauApp(port, list_files=None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            total = 0.0
            for i in range(keys):
                start = time.perf_counter()
                app.post_message(events.Key("x", "x"))
                while len(app.editor.text) <= i:
                    await asyncio.sleep(0)
                app.screen._refresh_layout()  # the repaint the next screen update would do
                total += time.perf_counter() - start
            return total / keys * 1000

    return asyncio.run(run())


def write_branched_session(log: SessionLog, entries: int) -> None:
    """Append about ``entries`` entries to ``log``: turns of a prompt, a tool call, its result
    and an answer, and every 500 entries a step back that leaves a short branch behind; then
    close it."""
    turn = 0
    while len(log.entries) < entries:
        log.append_message(UserMessage(f"question {turn}: what does module {turn} do?"))
        log.append_message(AssistantMessage([ToolCall(f"c{turn}", "read", {"path": f"m{turn}.py"})]))
        log.append_message(ToolResultMessage(f"c{turn}", "read", [TextContent("def f(): ...")]))
        log.append_message(AssistantMessage([TextContent(f"Module {turn} defines f.\n\nDetails follow.")]))
        turn += 1
        if len(log.entries) % 500 < 4 and len(log.entries) > 20:
            log.navigate(log.entries[-10].id)
    log.close()


def tree_open_ms(entries: int, opens: int = 5) -> float:
    """Milliseconds from the /tree command to its screen laid out, its pending messages handled
    and painted, with an ``entries``-entry session read back from its file as ``tau -c`` would;
    the median of ``opens`` (the first included)."""
    import tempfile

    from tau_ai.model import Model
    from tau_coding.modes.interactive.session_port import CodingSessionPort
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.control import SessionControl
    from tau_coding.session.store.manager import SessionManager
    from tau_coding.tui.screens.tree_view import TreeScreen
    from tau_coding.tui.shell.app import TauApp
    from tau_coding.tui.widgets.prompt_editor import PromptEditor

    async def run(home: Path) -> float:
        manager = SessionManager(home / "sessions", str(home))
        write_branched_session(manager.new(), entries)
        model = Model("fake-model", "fake", "fake", "http://127.0.0.1")
        session = CodingSession(
            log=manager.continue_recent(),  # the file just written, read back as tau -c would
            model=model,
            provider_factory=lambda _model: FakeProvider([]),
            tools=[],
            system_prompt="",
            cwd=home,
        )
        port = CodingSessionPort(SessionControl(session, manager))
        app = TauApp(port, list_files=None)
        times: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(opens):
                start = time.perf_counter()
                app.post_message(PromptEditor.Submitted("/tree", follow_up=False))
                while not (isinstance(app.screen, TreeScreen) and app.screen.is_mounted and app.screen.rows):
                    await asyncio.sleep(0)
                while not app.screen.query_one("#tree-list").size:  # laid out
                    await asyncio.sleep(0)
                await pilot._wait_for_screen()  # what mounting, showing and resizing set off
                app.screen._refresh_layout()  # the paint the next screen update would do
                times.append(time.perf_counter() - start)
                await pilot.press("escape")
                await pilot.pause()
        return statistics.median(times) * 1000

    with tempfile.TemporaryDirectory() as home:
        return asyncio.run(run(Path(home)))


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    deltas = (200, 1_000) if smoke else (1_000, 10_000)
    out: list[tuple[str, Callable[[], float], str, float | None]] = [
        ("tui: launch to editable prompt", lambda: startup_ms(1 if smoke else 3), "ms", 400.0),
    ]
    for n in deltas:
        out.append((f"tui: reducer, {n} deltas", lambda n=n: reducer_delta_cost(n), "us/delta", 5.0))
        out.append((f"tui: stream into app, {n} deltas", lambda n=n: app_delta_cost(n), "us/delta", 200.0))
    loaded = 1_000 if smoke else 10_000
    out.append((f"tui: keystroke, {loaded} messages loaded", lambda: keystroke_ms(loaded), "ms/key", 16.0))
    tree = 1_000 if smoke else 10_000
    out.append((f"tui: /tree opens, {tree} entries", lambda: tree_open_ms(tree), "ms", 100.0))
    return out
