"""Inline mode's app, driven by Pilot: settled items leave the DOM for the scrollback, once each,
in order; what is live stays; quitting writes the rest. (tmux: test_tmux_inline.py.)"""

from __future__ import annotations

import asyncio

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply, text
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.shell.commands import HANDLERS
from tau_coding.tui.shell.inline import CLEAR_ALL
from tau_coding.tui.widgets.tool_row import ToolRow

from .helpers import adapter, gated_tool, shell_tool
from .test_app import SIZE, make_app, type_text, until


def assistant_said(words: str) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(words)], api="fake", provider="fake", model="fake")


def _inline(port: object) -> tuple[TauApp, list[str]]:
    written: list[str] = []
    return make_app(port, inline=True, write_above=written.append), written


async def test_a_finished_exchange_is_written_once_and_leaves_nothing_mounted() -> None:
    app, written = _inline(adapter(FakeProvider([reply("The port is 9090."), reply("Still 9090.")])))
    async with app.run_test(size=SIZE) as pilot:
        for prompt in ("Which port?", "And now?"):
            await type_text(pilot, prompt)
            await pilot.press("enter")
            await until(pilot, lambda: app.state.status == "idle" and app.transcript.mounted_count == 0)
        await pilot.pause()
        text = "".join(written)
        order = [text.index(s) for s in ("Which port?", "The port is 9090.", "And now?", "Still 9090.")]
        assert order == sorted(order)
        assert text.count("The port is 9090.") == 1


async def test_a_running_tool_stays_live_and_what_came_before_it_is_written() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    port = adapter(
        FakeProvider([reply(text("Waiting now."), call("wait", {})), reply("finished")]),
        tools=[gated_tool(gate, started)],
    )
    app, written = _inline(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "wait")
        await pilot.press("enter")
        await until(pilot, started.is_set)
        await until(pilot, lambda: "Waiting now." in "".join(written))
        assert [type(view) for view in app.transcript.views()] == [ToolRow]
        assert "wait" not in "".join(written).split("Waiting now.")[1]  # the tool row is not written yet
        gate.set()
        await until(pilot, lambda: "finished" in "".join(written))
        assert app.transcript.mounted_count == 0


async def test_quitting_writes_what_is_still_live() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    port = adapter(FakeProvider([reply(call("wait", {})), reply("done")]), tools=[gated_tool(gate, started)])
    app, written = _inline(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "wait")
        await pilot.press("enter")
        await until(pilot, started.is_set)
        app.quit_with_hint()
        assert "wait" in "".join(written).split("wait", 1)[1]  # the prompt, then the running row
        gate.set()


async def test_a_long_inline_session_keeps_the_dom_small() -> None:
    turns = 60
    app, written = _inline(adapter(FakeProvider([reply(f"answer {i}") for i in range(turns)])))
    async with app.run_test(size=SIZE) as pilot:
        for i in range(turns):
            await type_text(pilot, f"q{i}")
            await pilot.press("enter")
            await until(pilot, lambda i=i: f"answer {i}" in "".join(written[-2:]))  # type: ignore[misc]
            assert app.transcript.mounted_count <= 2
        assert len(app.transcript.children) <= 3


async def test_ctrl_o_and_a_new_theme_write_the_scrollback_again_once_something_is_in_it() -> None:
    port = adapter(
        FakeProvider([reply(call("bash", {"command": "seq -f 'n%g' 1 60"})), reply("Counted.")]),
        tools=[shell_tool()],
    )
    app, written = _inline(port)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+o", "ctrl+o")  # nothing written yet: nothing to write again
        await pilot.pause()
        assert written == []
        await type_text(pilot, "count")
        await pilot.press("enter")
        await until(pilot, lambda: "Counted." in "".join(written))
        assert "n60" not in "".join(written)  # collapsed
        await pilot.press("ctrl+o")
        await until(pilot, lambda: written[-1].startswith(CLEAR_ALL))
        expanded = written[-1]
        assert "n60" in expanded and expanded.count("Counted.") == expanded.count("count\x1b") == 1
        before = len(written)
        await HANDLERS["theme"](app, "light")
        await until(pilot, lambda: any(w.startswith(CLEAR_ALL) for w in written[before:]))
        light = next(w for w in written[before:] if w.startswith(CLEAR_ALL))
        assert "n60" in light
        assert light.replace("n60", "") != expanded.replace("n60", "")  # other colours, same text


async def test_a_prompt_sent_by_code_before_the_history_shows_runs_after_it_once() -> None:
    """``app.send`` (an initial prompt, an extension, a bench) at once, before the history is
    shown: the run waits for it, so neither the prompt nor its answer appears twice."""
    history = [UserMessage("old question"), assistant_said("old answer")]
    app, written = _inline(adapter(FakeProvider([reply("fresh answer")]), messages=history))
    async with app.run_test(size=SIZE) as pilot:
        app.send("new question")
        await until(pilot, lambda: "fresh answer" in "".join(written) and app.state.status == "idle")
        kinds = [type(item).__name__ for item in app.state.items]
    text = "".join(written)
    assert kinds == ["UserItem", "AssistantItem", "UserItem", "AssistantItem"]
    assert text.count("new question") == 1 and text.count("fresh answer") == 1
    assert text.index("old answer") < text.index("new question") < text.index("fresh answer")


async def test_a_resumed_session_writes_its_newest_items_once_in_order_and_a_prompt_sent_at_once_follows() -> (
    None
):
    """The history is written after the first paint; Enter pressed before it is all written
    sends after it (the prompt and its answer land below the history, not among it)."""
    history = []
    for i in range(150):
        history += [UserMessage(f"question {i}"), assistant_said(f"answer {i}")]
    app, written = _inline(adapter(FakeProvider([reply("fresh answer")]), messages=history))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "new question")
        await pilot.press("enter")
        await until(pilot, lambda: "fresh answer" in "".join(written))
    text = "".join(written)
    assert text.count("earlier items") == 1 and "question 109\x1b" not in text  # 80 newest items
    shown = [f"question {i}\x1b" for i in range(110, 150)] + ["new question", "fresh answer"]
    order = [text.index(s) for s in shown]
    assert order == sorted(order)
    assert text.count("answer 149") == 1
    assert any("question 110\x1b" in w and "question 149\x1b" in w for w in written)  # one piece
